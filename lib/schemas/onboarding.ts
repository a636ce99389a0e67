import * as v from 'valibot';
import { ONBOARDING_STEPS } from '#lib/domain/shared/onboarding-record.ts';
import { clientIdParam } from './common.ts';

const graphId = v.pipe(v.string(), v.regex(/^[0-9A-Za-z_-]{1,64}$/, 'must be a Graph id'));
const pin = v.pipe(v.string(), v.regex(/^\d{6}$/, 'must be 6 digits'));
const code = v.pipe(v.string(), v.minLength(1), v.maxLength(2048));

export const OnboardingsPath = v.object({ client_id: clientIdParam });
export const OnboardingPath = v.object({
  client_id: clientIdParam,
  onboarding_id: v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, 'must be an onboarding id')),
});

/** What Embedded Signup gave the page (docs/platform-2027.md §1.2), and the number's PIN. */
export const StartOnboardingBody = v.strictObject({
  code,
  waba_id: graphId,
  phone_number_id: graphId,
  /** The client's business portfolio, as the flow's FINISH event gives it (the WABA's own read is what is kept). */
  business_id: v.optional(graphId),
  pin: v.optional(pin),
  coexistence: v.optional(v.boolean()),
});
/**
 * What Embedded Signup gives the page (docs/platform-2027.md §1.2): the code and the FINISH event's IDs. Locally the
 * emulator's popup answers it (`POST /_local/embedded-signup`); the console hands it on to `StartOnboarding`.
 */
export const EmbeddedSignupResponse = v.object({ code, waba_id: graphId, phone_number_id: graphId, business_id: v.optional(graphId) });

export const ResumeOnboardingBody = v.strictObject({ pin: v.optional(pin), code: v.optional(code) });

const step = v.picklist(ONBOARDING_STEPS);
export const OnboardingResponse = v.strictObject({
  onboarding_id: v.string(),
  client_id: v.number(),
  waba_id: v.string(),
  phone_number_id: v.string(),
  coexistence: v.boolean(),
  status: v.picklist(['in_progress', 'failed', 'completed']),
  failed_at: v.optional(step),
  steps: v.array(
    v.strictObject({
      step,
      status: v.picklist(['pending', 'done', 'skipped', 'failed']),
      at: v.optional(v.string()),
      detail: v.optional(v.string()),
      error: v.optional(v.string()),
    }),
  ),
  waba: v.optional(
    v.strictObject({
      name: v.string(),
      namespace: v.string(),
      currency: v.string(),
      timezone_id: v.optional(v.string()),
      business_id: v.string(),
      business_name: v.string(),
    }),
  ),
  numbers: v.optional(
    v.array(
      v.strictObject({
        phone_number_id: v.string(),
        display_phone_number: v.string(),
        verified_name: v.optional(v.string()),
        is_on_biz_app: v.boolean(),
        platform_type: v.optional(v.string()),
        registration: v.optional(
          v.strictObject({
            status: v.picklist(['done', 'skipped', 'failed']),
            detail: v.optional(v.string()),
            error: v.optional(v.string()),
          }),
        ),
      }),
    ),
  ),
  allocation_config_id: v.optional(v.string()),
  channels: v.optional(v.array(v.string())),
  templates_seen: v.optional(v.number()),
  created_at: v.string(),
  updated_at: v.string(),
});
