import { resumeOnboarding } from '#lib/domain/shared/onboarding.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ResumeOnboarding } from '#lib/manifest/routes/onboarding.ts';
import { onboardingDeps } from '#lib/wiring/onboarding.ts';

export const handler = httpFunction(ResumeOnboarding, ({ path, body, caller }) =>
  resumeOnboarding(onboardingDeps(), caller, path.client_id, path.onboarding_id, body ?? {}),
);
