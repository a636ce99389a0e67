/**
 * What the upstream reports of a message after it accepted it (decisions §13): `sent`, `delivered`, `read`,
 * or `failed` with an error. Reports come out of order and more than once; each message's state moves so that
 * each fact is counted on its send once.
 */
export type StatusReport = 'sent' | 'delivered' | 'read' | 'failed';

/** Meta's per-user marketing limit (131049, upstream-facts §9.C): such a failure counts `capped`, apart from `failed`. */
export const CAPPED = '131049';
/** A recipient the client's own frequency cap skipped (decisions §33): never sent, counted `capped_by_rule`. */
export const CAPPED_BY_RULE = 'capped_by_rule';
/**
 * The count a failure with this code moves: `capped` for Meta's per-user limit (decisions §28), `capped_by_rule`
 * for the client's frequency cap (decisions §33), else `failed`.
 */
export const failureCount = (code: string) => (code === CAPPED ? 'capped' : code === CAPPED_BY_RULE ? 'capped_by_rule' : 'failed');

/** What is known of one message: reached the device, was read, or failed after acceptance (with why). */
export interface MessageState {
  /** Meta holds it for quality assessment (decisions §25) until a status moves it on. */
  held?: boolean;
  delivered?: boolean;
  read?: boolean;
  failed?: { code: string; title: string };
  /** How Meta priced it (decisions §24), from the status that reported it delivered, and what it cost. */
  pricing?: MessagePricing;
  cost_micros?: number;
  /** What the client pays for it, where its price list was in force (decisions §27). */
  price_micros?: number;
  /** The person's WhatsApp username, from a delivered or read status (decisions §28). */
  username?: string;
}

/** Meta's `pricing` of a message as its statuses carry it (upstream-facts §8). */
export interface MessagePricing {
  category: string;
  type: string;
  billable: boolean;
}

/** What a delivered message costs (decisions §26): its pricing, its market, and the rate card's price that day. */
export interface MessageCharge {
  pricing: MessagePricing;
  market: string;
  /** In micro-units of `currency`; 0 when Meta does not charge it. */
  micros: number;
  /** The card's currency: the WABA's, or the base currency's when the WABA's has no card (`currency_mismatch`). */
  currency: string;
  currency_mismatch?: true;
  /** What it counts against its client's budget, in the budget's currency (decisions §27), where not `micros`. */
  budget_micros?: number;
  /** What the client pays for it, where a price list was in force that day (decisions §27). */
  price?: { micros: number; currency: string };
}

/** How a send's counts and error tally move with one report. */
export interface StatusChange {
  next: MessageState;
  /** How the send's `sent`, `failed`, `delivered`, `read` and `held` counts move. */
  counts: Partial<Record<'sent' | 'failed' | 'capped' | 'capped_by_rule' | 'delivered' | 'read' | 'held', number>>;
  /** The error tally: +1 for a failure counted, -1 for one taken back. */
  errors: { code: string; title: string; count: 1 | -1 }[];
  /** The message's charge, the one time it becomes delivered with its pricing known. */
  charge?: MessageCharge;
  /** The message settled with this report (its first delivery or failure): its reservation is given back. */
  settles?: true;
}

const add = (counts: StatusChange['counts'], field: keyof StatusChange['counts'], n: number) => {
  counts[field] = (counts[field] ?? 0) + n;
};

/**
 * The change one report makes, or null when it adds nothing (a repeat, or news older than what is known).
 * - `read` implies `delivered`; each is counted once.
 * - `failed` after acceptance moves the message from `sent` to `failed` with its error, unless it was
 *   delivered already (a later failure on another device does not undo a delivery).
 * - `delivered` or `read` after `failed` takes the failure back: the message reached the person.
 * - `sent` is what acceptance counted already.
 */
export function statusChange(
  state: MessageState,
  report: StatusReport,
  error?: { code: string; title: string },
  charge?: MessageCharge,
): StatusChange | null {
  const next: MessageState = { ...state };
  const counts: StatusChange['counts'] = {};
  const errors: StatusChange['errors'] = [];
  if (report === 'sent') return null;
  // A held message moves on with its next delivery or failure: it is no longer held.
  const release = () => {
    if (!state.held) return;
    delete next.held;
    add(counts, 'held', -1);
  };
  if (report === 'failed') {
    if (state.delivered || state.failed) return null;
    release();
    const why = error ?? { code: 'unknown', title: 'The upstream reported a failure without an error' };
    next.failed = why;
    add(counts, 'sent', -1);
    add(counts, failureCount(why.code), 1);
    errors.push({ ...why, count: 1 });
    return { next, counts, errors, settles: true };
  }
  const reaches = report === 'read' ? ['delivered', 'read'] : ['delivered'];
  for (const fact of reaches as ('delivered' | 'read')[]) {
    if (state[fact]) continue;
    next[fact] = true;
    add(counts, fact, 1);
  }
  // Meta charges a message when it is delivered: counted once, with the first delivered or read status that
  // brings its pricing (a `delivered` without one leaves the charge to a later status that has it).
  const newlyCharged = charge && !state.pricing ? charge : undefined;
  if (Object.keys(counts).length === 0 && !newlyCharged) return null;
  release();
  if (newlyCharged) {
    next.pricing = newlyCharged.pricing;
    next.cost_micros = newlyCharged.micros;
    if (newlyCharged.price) next.price_micros = newlyCharged.price.micros;
  }
  if (state.failed) {
    delete next.failed;
    add(counts, 'sent', 1);
    add(counts, failureCount(state.failed.code), -1);
    errors.push({ ...state.failed, count: -1 });
  }
  // The first delivery settles it; a delivery after a failure was settled by the failure.
  const settles = !state.delivered && !state.failed && next.delivered;
  return { next, counts, errors, ...(newlyCharged && { charge: newlyCharged }), ...(settles && { settles: true as const }) };
}

/** A change with the person's username kept on the state when a status brings a new one (decisions §28). */
export function withUsername(change: StatusChange | null, state: MessageState, username?: string): StatusChange | null {
  if (!username || state.username === username) return change;
  const next = { ...(change?.next ?? state), username };
  return change ? { ...change, next } : { next, counts: {}, errors: [] };
}

/**
 * The reference a message carries to the upstream and back in its status reports: the send, the block that
 * settled it and its position. Opaque to the upstream; only what this service wrote is read back.
 */
const REFERENCE = /^tms2:([A-Za-z0-9_=+-]{1,128}):(\d{1,9}):(\d{1,9})$/;

export const messageReference = (sendId: string, block: number, index: number) => `tms2:${sendId}:${block}:${index}`;

export function parseMessageReference(reference: unknown): { sendId: string; block: number; index: number } | undefined {
  if (typeof reference !== 'string') return undefined;
  const match = REFERENCE.exec(reference);
  return match ? { sendId: match[1], block: Number(match[2]), index: Number(match[3]) } : undefined;
}
