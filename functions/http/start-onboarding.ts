import { startOnboarding } from '#lib/domain/shared/onboarding.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { StartOnboarding } from '#lib/manifest/routes/onboarding.ts';
import { onboardingDeps } from '#lib/wiring/onboarding.ts';

export const handler = httpFunction(StartOnboarding, ({ path, body, caller }) =>
  startOnboarding(onboardingDeps(), caller, path.client_id, body),
);
