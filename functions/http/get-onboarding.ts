import { DynamoOnboardingStore } from '#lib/adapters/dynamo/shared/onboarding-store.ts';
import { getOnboarding } from '#lib/domain/shared/onboarding.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetOnboarding } from '#lib/manifest/routes/onboarding.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const onboardings = new DynamoOnboardingStore(serviceTable());

export const handler = httpFunction(GetOnboarding, ({ path, caller }) =>
  getOnboarding({ onboardings }, caller, path.client_id, path.onboarding_id),
);
