import * as v from 'valibot';
import { FREQUENCY_CAP_LIMITS } from '#lib/domain/people/frequency-caps.ts';
import { clientIdParam } from './common.ts';

/** `/v1/clients/{client_id}/frequency-cap` (decisions §33). */
export const FrequencyCapPath = v.object({ client_id: clientIdParam });

const whole = (name: string, most: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(1, `${name} must be at least 1`),
    v.maxValue(most, `${name} must be at most ${most}`),
  );

/** At most `max` MARKETING messages to one person in any `days` days. */
const Cap = v.strictObject({
  max: whole('max', FREQUENCY_CAP_LIMITS.max),
  days: whole('days', FREQUENCY_CAP_LIMITS.days),
});

/** The client's MARKETING cap, or `null` to remove it. */
export const FrequencyCapBody = v.strictObject({ marketing: v.nullable(Cap) });

export const FrequencyCapResponse = v.object({
  client_id: v.number(),
  /** The cap in force, `null` when the client has none: no MARKETING send of it is capped. */
  marketing: v.nullable(v.object({ max: v.number(), days: v.number() })),
  /** When it was set. */
  updated_at: v.optional(v.string()),
});
