/**
 * The dispatcher's tuning (decisions §12, §19, §22, §23, §25): every value it is built on, written once, here,
 * with its unit and why. What an operator may set (the messages a second cap, a message's timeout, the lease
 * margin, a paused send's recheck) is not here: lib/config.ts reads it with its default, and the composition
 * root hands it in (lib/wiring/dispatch-settings.ts). docs/dispatch-jobs.md lists this table (a test keeps it
 * so); the comments where each is used say more.
 */
interface Tuned {
  value: number;
  unit: 'positions' | 'recipients' | 'messages' | 'jobs' | 'pages' | 'ms' | 's' | 'times' | 'share';
  why: string;
}

export const DISPATCH_TUNING = {
  // A job's blocks and their records.
  BLOCK: { value: 90, unit: 'positions', why: 'a block is one claim and one settlement (which also counts on the send)' },
  MARK_STEP: {
    value: 10,
    unit: 'positions',
    why: 'a holder records its progress this often: a crash loses at most this many launches a block',
  },
  // Lanes and the number's slots.
  SMALL_SEND: {
    value: 100,
    unit: 'recipients',
    why: 'a send this small books its blocks whole, at once, whatever its category; a larger one shares the number',
  },
  CHUNK_MESSAGES: {
    value: 20,
    unit: 'messages',
    why: 'a campaign books at least this many at a time: the pacing item takes ≤ 1 write per 20',
  },
  CHUNK_MS: { value: 500, unit: 'ms', why: 'and about this much of the number’s time' },
  NEAR_MS: { value: 1_000, unit: 'ms', why: 'a campaign books its next chunk only when the number is free within this' },
  URGENT_CHUNK_MS: {
    value: 1_250,
    unit: 'ms',
    why: 'an AUTHENTICATION or UTILITY send of more than SMALL_SEND books this much of the number at a time (a block at STANDARD)',
  },
  URGENT_HORIZON_MS: { value: 100, unit: 'ms', why: 'and only when the number is free within this (issue 44: its turn)' },
  HOLD_MS: {
    value: 1_000,
    unit: 'ms',
    why: 'such a chunk holds the number from worse ranks until its last slot and this (the gap to its next chunk)',
  },
  TURN_WAIT_MS: {
    value: 1_500,
    unit: 'ms',
    why: 'a shared job waits in its invocation for a turn this close; a later one hands its block back',
  },
  TURN_LAG_SHARE: {
    value: 0.8,
    unit: 'share',
    why: 'a job that just began waiting asks this much of its horizon later than one waiting TURN_AGE_MS: the turn goes to the longest wait',
  },
  TURN_AGE_MS: { value: 5_000, unit: 'ms', why: 'a job waiting this long for its turn asks as early as its horizon lets it' },
  SLOWED_CHUNK_MS: {
    value: 4_000,
    unit: 'ms',
    why: 'a shared block slowed below the number’s pace (a stall, a slow process) books at most this much at a time',
  },
  MAX_BACKLOG_MS: { value: 5_000, unit: 'ms', why: 'a number booked further ahead is left to the jobs on it; the invocation is freed' },
  MAX_CROWDED_WAIT_MS: {
    value: 30_000,
    unit: 'ms',
    why: 'a crowded job looks again within this: a cancel of its send is seen when it looks',
  },
  LATE_MS: { value: 150, unit: 'ms', why: 'a launch later than this after its slot makes the rest of its block take new slots' },
  KEPT_PACE_MARGIN: { value: 1.1, unit: 'share', why: 'a late block takes new slots at the pace it kept, this much slower' },
  PACE_LAUNCHES: {
    value: 3,
    unit: 'messages',
    why: 'a late block reads the pace it kept from this many launches; with fewer, its spacing doubles',
  },
  SLOWEST_SPACING_MS: { value: 1_000, unit: 'ms', why: 'a block never takes slots further apart than this' },
  PACE_SHARE: { value: 0.9, unit: 'share', why: 'the share of a number’s rate it is paced at: Meta counts accept times, which jitter' },
  LEVEL_REFRESH_MS: { value: 3_600_000, unit: 'ms', why: 'a number’s throughput level is asked again this often (decisions §19: hourly)' },
  // Sending: how many at once, retries, slices.
  IN_FLIGHT: { value: 64, unit: 'messages', why: 'messages awaiting the upstream’s answer at once, per invocation' },
  ATTEMPTS: { value: 6, unit: 'times', why: 'attempts per message for retryable refusals, the first included' },
  BACKOFF_MS: { value: 200, unit: 'ms', why: 'the first backoff; it doubles per attempt, with full jitter' },
  MAX_BACKOFF_MS: { value: 10_000, unit: 'ms', why: 'the longest backoff' },
  SLICE_MS: { value: 3_000, unit: 'ms', why: 'an invocation sends this long before it hands its job back: invocations cycle in seconds' },
  SETTLE_MARGIN_MS: { value: 5_000, unit: 'ms', why: 'an invocation stops taking blocks a message’s timeout and this before its end' },
  // The send as the job finds it.
  CANCEL_CHECK_MS: { value: 250, unit: 'ms', why: 'how often a sending invocation asks whether its send was cancelled' },
  CANCEL_STALE_MS: { value: 1_000, unit: 'ms', why: 'an older answer to that is waited for before a launch' },
  QUEUING_LOOKS: { value: 5, unit: 'times', why: 'a job of a send still `queuing` looks again this many times' },
  QUEUING_LOOK_MS: { value: 200, unit: 'ms', why: 'that far apart (the send is settled `queued` milliseconds after its jobs)' },
  QUEUING_RETRY_S: { value: 10, unit: 's', why: 'then it comes back after this' },
  HELD_RETRY_S: { value: 30, unit: 's', why: 'a job with blocks held by a live invocation comes back after this' },
  ABANDONED_HELD_RETRY_S: { value: 60, unit: 's', why: 'a job given up on waits this long for a live invocation to settle its blocks' },
  PAUSED_MIN_WAIT_MS: { value: 1_000, unit: 'ms', why: 'a job of a paused send waits at least this (its pause about to end)' },
  LONGEST_TTL_S: { value: 30 * 86_400, unit: 's', why: 'a `message_send_ttl_seconds` of -1 means 30 days (decisions §22)' },
  WAKE_PAGE: { value: 100, unit: 'jobs', why: 'jobs asleep on a template read, woken and forgotten per page when Meta lets it go' },
  WAKE_PAGES: { value: 200, unit: 'pages', why: 'the most pages one resume wakes; the rest come back at their recheck' },
} as const satisfies Record<string, Tuned>;

type Tuning = typeof DISPATCH_TUNING;

/** The table's values by name, as the dispatcher reads them. */
const valuesOf = (table: Tuning) =>
  Object.fromEntries(Object.entries(table).map(([name, row]) => [name, row.value])) as { readonly [K in keyof Tuning]: number };

export const {
  BLOCK,
  MARK_STEP,
  SMALL_SEND,
  CHUNK_MESSAGES,
  CHUNK_MS,
  NEAR_MS,
  URGENT_CHUNK_MS,
  URGENT_HORIZON_MS,
  HOLD_MS,
  TURN_WAIT_MS,
  TURN_LAG_SHARE,
  TURN_AGE_MS,
  SLOWED_CHUNK_MS,
  MAX_BACKLOG_MS,
  MAX_CROWDED_WAIT_MS,
  LATE_MS,
  KEPT_PACE_MARGIN,
  PACE_LAUNCHES,
  SLOWEST_SPACING_MS,
  PACE_SHARE,
  LEVEL_REFRESH_MS,
  IN_FLIGHT,
  ATTEMPTS,
  BACKOFF_MS,
  MAX_BACKOFF_MS,
  SLICE_MS,
  SETTLE_MARGIN_MS,
  CANCEL_CHECK_MS,
  CANCEL_STALE_MS,
  QUEUING_LOOKS,
  QUEUING_LOOK_MS,
  QUEUING_RETRY_S,
  HELD_RETRY_S,
  ABANDONED_HELD_RETRY_S,
  PAUSED_MIN_WAIT_MS,
  LONGEST_TTL_S,
  WAKE_PAGE,
  WAKE_PAGES,
} = valuesOf(DISPATCH_TUNING);
