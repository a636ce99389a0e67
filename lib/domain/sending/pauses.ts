/**
 * Meta's pauses of a template whose quality fell (decisions §25, upstream-facts §8): 3 hours the first time,
 * 6 the next; a third time it is disabled. A paused send waits, its unsent recipients pending, and goes on when
 * Meta says so (UNPAUSE, REINSTATED, APPROVED) or its pause is over.
 */
export const PAUSE_PERIODS_MS = [3 * 3_600_000, 6 * 3_600_000];

/** Graph's refusal of a message of a paused template: the message is not sent, and the send pauses. */
export const PAUSED_CODE = '132015';
/** Graph's refusal of a message of a disabled template: the rest of the send fails with it. */
export const DISABLED_CODE = '132016';

/** Why a job of a paused send comes back later: its worker keeps it asleep on the template (lib/domain/paused-jobs.ts). */
export const PAUSED_REASON = 'template paused';
