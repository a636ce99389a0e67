import { OnboardingPath, OnboardingResponse, OnboardingsPath, ResumeOnboardingBody, StartOnboardingBody } from '#lib/schemas/onboarding.ts';
import type { RouteDef } from '../route.ts';

// Onboarding by Embedded Signup (issue 55 item 1, decisions §34).

const SAMPLE_ONBOARDING = { client_id: '7', onboarding_id: '0123456789abcdef0123456789abcdef' };

export const StartOnboarding = {
  name: 'StartOnboarding',
  method: 'POST',
  path: '/v1/clients/{client_id}/onboardings',
  entry: 'functions/http/start-onboarding.ts',
  summary:
    'Onboard a client’s WABA from Embedded Signup’s code (BSP_CN, or the client’s admin): exchange, register each of its numbers, subscribe, credit line, read the WABA, add it and all its numbers to the directory, read its templates; the same code twice adds nothing twice',
  success: 200,
  response: OnboardingResponse,
  sample: { token: 'acme', path: { client_id: '7' }, body: { code: 'c', waba_id: '1', phone_number_id: '2', pin: '123456' }, expect: 403 },
  auth: true,
  request: {
    path: OnboardingsPath,
    body: StartOnboardingBody,
    invalidMessage: 'code, waba_id, phone_number_id, pin or coexistence not valid',
  },
  errors: [400, 403, 404, 409, 502],
  needs: { table: 'write', upstream: true, metaApp: true, onboarding: true, bus: true },
} satisfies RouteDef;

export const ResumeOnboarding = {
  name: 'ResumeOnboarding',
  method: 'POST',
  path: '/v1/clients/{client_id}/onboardings/{onboarding_id}/resume',
  entry: 'functions/http/resume-onboarding.ts',
  summary: 'Resume an onboarding from the step that failed (a new PIN, or the code again when the exchange failed)',
  success: 200,
  response: OnboardingResponse,
  sample: { token: 'acme', path: SAMPLE_ONBOARDING, body: {}, expect: 403 },
  auth: true,
  request: { path: OnboardingPath, body: ResumeOnboardingBody, bodyOptional: true, invalidMessage: 'pin or code not valid' },
  errors: [400, 403, 404, 409, 502],
  needs: { table: 'write', upstream: true, metaApp: true, onboarding: true, bus: true },
} satisfies RouteDef;

export const GetOnboarding = {
  name: 'GetOnboarding',
  method: 'GET',
  path: '/v1/clients/{client_id}/onboardings/{onboarding_id}',
  entry: 'functions/http/get-onboarding.ts',
  summary: 'An onboarding with each step’s outcome',
  success: 200,
  response: OnboardingResponse,
  sample: { token: 'acme', path: SAMPLE_ONBOARDING, expect: 403 },
  auth: true,
  request: { path: OnboardingPath },
  errors: [400, 403, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const onboardingRoutes: RouteDef[] = [StartOnboarding, ResumeOnboarding, GetOnboarding];
