import type { StatusChange, MessageState, MessageCharge } from '../shared/message-status.ts';
import type { LedgerEntry, TierVolume } from './ports.ts';
import { dayOf, monthOf } from '../shared/calendar.ts';
import { addMove, type BudgetMoves } from './pricing/reservation.ts';

/*
 * What a batch of status reports of one send's messages bills (decisions §13, §24, §26, §27), worked out before
 * anything is written, so every store writes the same: each message's reports taken in the order they came, its
 * charge, and what the charges add to the send's counts, the client's cost ledger, its budget's months and the
 * WABA's volume tiers.
 */

/** One status report of a message, as its billing sees it (a send's StatusUpdate is one). */
export interface BilledStatus {
  /** The change the report makes to the message's delivery state (null: none). */
  change: (state: MessageState) => StatusChange | null;
  /** When the status that may charge the message was sent: its day is the ledger's, its month the budget's. */
  chargedAt?: number;
  /** The day it is charged on in its WABA's zone (decisions §31): the ledger's day, its month the budget's. */
  chargedDay?: string;
  /** Where its charge counts toward a volume tier (decisions §26, §31): month, `<market>|<category>`, portfolio. */
  tierVolume?: TierVolume;
  /** Its part of its send's reservation (decisions §27): given back, in that month, when the message settles. */
  reserved?: { month: string; micros: number };
}

/** A message of the batch: its state before it (as kept, or as accepted) and its reports in the order they came. */
export interface BatchMessage {
  index: number;
  state: MessageState;
  statuses: BilledStatus[];
  /** Its reserved part was given back at its TTL's end (decisions §30): a late final status releases nothing more. */
  reservationReturned?: boolean;
}

export interface StatusBatch {
  messages: BatchMessage[];
  /** Whose the send is: its client (whose budget and ledger) and its number. Unknown, its charges go nowhere. */
  send?: { client_id: number; did: string };
  /** The WABA whose number sent the messages (the statuses say which): the ledger and volume tiers are its. */
  wabaId?: string;
  /** When the batch is applied: the day of a charge whose status said no time. */
  now: number;
}

/** Charges added up: messages, billable ones, their cost, and the client's price where a price list was in force. */
export interface ChargeTally {
  messages: number;
  billable: number;
  micros: number;
  price?: number;
}

/** One message's part of the batch, in the batch's order. */
export interface MessageBill {
  index: number;
  /** Whether each of its reports changed it, in the order given (false: a repeat, or older news). */
  applied: boolean[];
  /** Whether any did: its state is then written. */
  moved: boolean;
  state: MessageState;
  /** Its charge: the one time it becomes delivered with its pricing known. */
  charge?: MessageCharge;
}

export interface StatusBatchBill {
  messages: MessageBill[];
  /** How the send's counts and its error tally move. */
  counts: StatusChange['counts'];
  errors: Map<string, { title: string; count: number }>;
  /** The send's charges by Meta's pricing category (decisions §24). */
  byCategory: Map<string, ChargeTally>;
  /**
   * The client's cost ledger: the charges by day, market, category and currency, on the send's number (none
   * where the send's client or the WABA is unknown).
   */
  ledger: LedgerEntry[];
  /**
   * The client's months that move (decisions §27): spent by the month charged, released by the month reserved
   * (none where the client is unknown).
   */
  budget: BudgetMoves;
  /** The WABA's tier-counted charges that cost something, by month, then `<market>|<category>` (none without it). */
  tiers: Map<string, Map<string, number>>;
  /** The portfolio those counts join (decisions §31), as priced; absent, the WABA's own. */
  tierPortfolio?: string;
}

/** What a status batch bills: nothing is charged twice, since a repeated report changes nothing. */
export function billStatusBatch(batch: StatusBatch): StatusBatchBill {
  const bill = new BillInProgress(batch);
  for (const message of batch.messages) bill.messages.push(bill.fold(message));
  return bill.finished();
}

class BillInProgress {
  readonly messages: MessageBill[] = [];
  private readonly counts: StatusChange['counts'] = {};
  private readonly errors = new Map<string, { title: string; count: number }>();
  private readonly byCategory = new Map<string, ChargeTally>();
  /** Ledger entries by what sets one apart: day, market, category, currency, and the price's currency. */
  private readonly ledger = new Map<string, LedgerEntry>();
  private readonly budget: BudgetMoves = new Map();
  private readonly tiers = new Map<string, Map<string, number>>();
  private tierPortfolio?: string;

  constructor(private readonly batch: StatusBatch) {}

  /** A message's reports applied one after another, each to the state the one before left. */
  fold(message: BatchMessage): MessageBill {
    let { state } = message;
    let charge: MessageCharge | undefined;
    const applied = message.statuses.map((status) => {
      const change = status.change(state);
      if (!change) return false;
      state = change.next;
      charge ??= change.charge;
      this.addChange(status, change, message.reservationReturned);
      return true;
    });
    return { index: message.index, applied, moved: applied.includes(true), state, ...(charge && { charge }) };
  }

  /** What one report's change adds: the send's counts and errors, the reservation given back, the charge. */
  private addChange(status: BilledStatus, change: StatusChange, reservationReturned?: boolean) {
    for (const [field, n] of Object.entries(change.counts) as [keyof StatusChange['counts'], number][])
      this.counts[field] = (this.counts[field] ?? 0) + n;
    for (const { code, title, count } of change.errors) {
      const known = this.errors.get(code) ?? { title, count: 0 };
      known.count += count;
      this.errors.set(code, known);
    }
    if (change.settles && status.reserved && this.batch.send && !reservationReturned)
      addMove(this.budget, status.reserved.month, { released: status.reserved.micros });
    if (change.charge) this.charge(status, change.charge);
  }

  /** A charge where it goes: the send's, and the ledger, budget and tiers where the send's client and WABA are known. */
  private charge(status: BilledStatus, charge: MessageCharge) {
    const { send, wabaId, now } = this.batch;
    const day = status.chargedDay ?? dayOf(status.chargedAt ?? now);
    if (send) addMove(this.budget, monthOf(day), { spent: charge.budget_micros ?? charge.micros });
    const byCategory = this.byCategory.get(charge.pricing.category) ?? { messages: 0, billable: 0, micros: 0 };
    this.byCategory.set(charge.pricing.category, tallied(byCategory, charge));
    if (send && wabaId) this.addToLedger(day, send.did, charge);
    if (wabaId && status.tierVolume && charge.micros > 0) {
      const { month, key, portfolio } = status.tierVolume;
      if (portfolio) this.tierPortfolio = portfolio;
      const counts = this.tiers.get(month) ?? new Map<string, number>();
      this.tiers.set(month, counts.set(key, (counts.get(key) ?? 0) + 1));
    }
  }

  private addToLedger(day: string, did: string, charge: MessageCharge) {
    const entry: LedgerEntry = {
      day,
      did,
      market: charge.market,
      category: charge.pricing.category,
      currency: charge.currency,
      ...(charge.currency_mismatch && { currency_mismatch: true as const }),
      messages: 0,
      billable: 0,
      micros: 0,
      ...(charge.price && { price_currency: charge.price.currency }),
    };
    const apart = JSON.stringify([day, entry.market, entry.category, entry.currency, !!entry.currency_mismatch, entry.price_currency]);
    const known = this.ledger.get(apart) ?? entry;
    known.messages += 1;
    if (charge.pricing.billable) known.billable += 1;
    known.micros += charge.micros;
    if (charge.price) known.price_micros = (known.price_micros ?? 0) + charge.price.micros;
    this.ledger.set(apart, known);
  }

  /** The bill; a month that moves nothing (a free message's charge) is left out. */
  finished(): StatusBatchBill {
    return {
      messages: this.messages,
      counts: this.counts,
      errors: this.errors,
      byCategory: this.byCategory,
      ledger: [...this.ledger.values()],
      budget: new Map([...this.budget].filter(([, move]) => move.spent || move.released)),
      tiers: this.tiers,
      ...(this.tierPortfolio && { tierPortfolio: this.tierPortfolio }),
    };
  }
}

/** A tally with one more charge: a message, billable or not, its cost and the client's price where it has one. */
function tallied(tally: ChargeTally, charge: MessageCharge): ChargeTally {
  tally.messages += 1;
  if (charge.pricing.billable) tally.billable += 1;
  tally.micros += charge.micros;
  if (charge.price) tally.price = (tally.price ?? 0) + charge.price.micros;
  return tally;
}
