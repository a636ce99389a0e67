/** Graph's refusal of a message of a paused template: the message is not sent, and the send pauses. */
export const PAUSED_CODE = '132015';
/** Graph's refusal of a message of a disabled template: the rest of the send fails with it. */
export const DISABLED_CODE = '132016';

/** Why a job of a paused send comes back later: its worker keeps it asleep on the template (lib/domain/sends/dispatch/paused-jobs.ts). */
export const PAUSED_REASON = 'template paused';
