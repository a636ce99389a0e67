import type { PauseChange, TemplatePause } from './ports.ts';
import type { PauseSummary } from './template-record.ts';

/**
 * Meta's pauses of a template whose quality fell (decisions §25, upstream-facts §8): 3 hours the first time,
 * 6 the next; a third time it is disabled. A paused send waits, its unsent recipients pending, and goes on when
 * Meta says so (UNPAUSE, REINSTATED, APPROVED) or its pause is over.
 */
export const PAUSE_PERIODS_MS = [3 * 3_600_000, 6 * 3_600_000];
/** Meta's quality pauses a template takes before the next one disables it (decisions §34: the third disables). */
export const PAUSES_BEFORE_DISABLED = PAUSE_PERIODS_MS.length;
/** The pauses a template's item keeps, newest last: the count goes on, the history keeps the last few. */
export const PAUSE_HISTORY_KEPT = 10;

/** One pause as the item keeps it: from when, until when Meta's period ran (none for a pacing pause told by Meta). */
export interface KeptPauseSpan {
  since_ms: number;
  until_ms: number;
  /** Meta's pacing pause (`RATE_LIMITING_PAUSE`): not a quality pause, so not counted towards the disablement. */
  pacing?: true;
}

/**
 * A template's pause as its item keeps it (decisions §25), and how each change moves it: Meta's status events
 * compared by Meta's times, a 132015 refusal, a period that ran out. Both pause adapters apply these rules, so
 * the table and the in-memory store cannot differ.
 */
export interface KeptPause {
  state: 'paused' | 'active' | 'disabled';
  since_ms?: number;
  until_ms?: number;
  pauses: number;
  /** Meta's time of the newest status event taken (epoch ms, whole seconds), and which it was. */
  event_ms?: number;
  event?: 'paused' | 'resumed' | 'disabled';
  /** The last PAUSE_HISTORY_KEPT pauses, oldest first (decisions §34); absent on items of before. */
  history?: KeptPauseSpan[];
  /** Disabled by this service on Meta's pause past the last period (decisions §34), not by Meta's DISABLED. */
  disabled_by_count?: true;
}

/** At the same second, which of two events went last: a resume after a pause, a disablement after either. */
const ORDER = { paused: 0, resumed: 1, disabled: 2 } as const;

/**
 * Whether Meta's event at `atMs` is older than the newest one taken (or a repeat of it). Meta's times are whole
 * seconds: at the same second a resume goes after a pause, since a send left paused waits hours, and a real
 * pause refuses its next message (132015) anyway.
 */
function older(known: KeptPause, event: 'paused' | 'resumed' | 'disabled', atMs: number) {
  if (known.event_ms === undefined || atMs > known.event_ms) return false;
  return atMs < known.event_ms || ORDER[event] <= ORDER[known.event ?? 'paused'];
}

/** Paused from `atMs` for Meta's period: 3 hours the first time, 6 the next; a pacing pause is not counted. */
function pausedAt(known: KeptPause | null, atMs: number, pacing = false): KeptPause {
  const pauses = known?.pauses ?? 0;
  const until = atMs + PAUSE_PERIODS_MS[pacing ? 0 : Math.min(pauses, PAUSE_PERIODS_MS.length - 1)];
  const span: KeptPauseSpan = { since_ms: atMs, until_ms: until, ...(pacing && { pacing: true as const }) };
  return {
    ...known,
    state: 'paused',
    since_ms: atMs,
    until_ms: until,
    pauses: pacing ? pauses : pauses + 1,
    history: [...(known?.history ?? []), span].slice(-PAUSE_HISTORY_KEPT),
  };
}

const inForce = (known: KeptPause | null, atMs: number) => known?.state === 'paused' && (known.until_ms ?? 0) > atMs;

/**
 * The item after a change, or null when the change leaves it as it is. A pause in force is never moved; a
 * disabled template stays disabled (a pause or a resume does not undo it).
 */
export function pauseAfter(known: KeptPause | null, change: PauseChange): KeptPause | null {
  if (change.kind === 'period_over') {
    if (known?.state !== 'paused' || inForce(known, change.at_ms)) return null;
    return { ...withoutPeriod(known), state: 'active' };
  }
  if (change.kind === 'refusal') {
    // Meta refused a message just now: this service's clock, not an event of Meta's to compare.
    if (known?.state === 'disabled' || inForce(known, change.at_ms)) return null;
    return pausedAt(known, change.at_ms);
  }
  const { event, at_ms: at } = change;
  if (known && older(known, event, at)) return null;
  const taken = { event_ms: at, event };
  if (event === 'disabled') return { ...withoutPeriod(known ?? { state: 'active', pauses: 0 }), ...taken, state: 'disabled', since_ms: at };
  if (known?.state === 'disabled') return { ...known, ...taken };
  if (event === 'resumed')
    return known?.state === 'paused'
      ? { ...withoutPeriod(known), ...taken, state: 'active' }
      : { ...(known ?? { state: 'active', pauses: 0 }), ...taken };
  // A pause in force (a refusal came first) keeps its period; Meta's time is kept, so an older resume is ignored.
  if (inForce(known, at)) return { ...known!, ...taken };
  // Meta's quality pause past the last period: the third disables the template (decisions §34), whatever Meta
  // called it; its DISABLED, when it comes, changes nothing more.
  if (!change.pacing && (known?.pauses ?? 0) >= PAUSES_BEFORE_DISABLED)
    return { ...withoutPeriod(known!), event_ms: at, event: 'disabled', state: 'disabled', since_ms: at, disabled_by_count: true };
  return { ...pausedAt(known, at, change.pacing === true), ...taken };
}

function withoutPeriod(known: KeptPause): KeptPause {
  const { until_ms: _until, ...rest } = known;
  return rest;
}

/** What the dispatcher reads of the item: a pause or a disablement, or null when it may send. */
export function shownPause(known: KeptPause | null): TemplatePause | null {
  if (!known || known.state === 'active') return null;
  return {
    state: known.state,
    since_ms: known.since_ms ?? 0,
    ...(known.until_ms !== undefined && { until_ms: known.until_ms }),
    pauses: known.pauses,
  };
}

/**
 * A template's pauses as its answer shows them (decisions §34): how many quality pauses, the last few (start and
 * the end of Meta's period), whether Meta's next quality pause disables it, and since when it is disabled.
 */
export function pauseSummary(known: KeptPause | null): PauseSummary {
  const count = known?.pauses ?? 0;
  const disabled = known?.state === 'disabled';
  return {
    count,
    history: (known?.history ?? []).map((span) => ({
      paused_at: new Date(span.since_ms).toISOString(),
      until: new Date(span.until_ms).toISOString(),
      ...(span.pacing && { pacing: true as const }),
    })),
    next_red_disables: !disabled && count >= PAUSES_BEFORE_DISABLED,
    ...(disabled && known.since_ms !== undefined && { disabled_at: new Date(known.since_ms).toISOString() }),
  };
}
