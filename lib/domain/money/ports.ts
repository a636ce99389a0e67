// What messages cost: the ledger, Meta's own figures, budgets (decisions §24) and price lists (decisions §27).

import type { PriceList } from './pricing/price-list.ts';

/** One row of a client's ledger (decisions §24): a day's charges on one number, market and pricing category. */
export interface LedgerEntry {
  day: string;
  did: string;
  market: string;
  category: string;
  /** The currency it was priced in (decisions §26); `currency_mismatch` when the WABA's has no card. */
  currency: string;
  currency_mismatch?: true;
  messages: number;
  billable: number;
  micros: number;
  /** What the client pays, where its price list was in force (decisions §27), in `price_currency`. */
  price_micros?: number;
  price_currency?: string;
  /** `outside`: charges of messages this service did not send, on the client's number (decisions §30). */
  origin?: 'outside';
  /**
   * The part of these figures applied after the day's month closed (decisions §30): kept on the day, so usage and
   * the reconciliation see every charge, and billed as an adjustment on a later month, not on the day's month.
   */
  late?: LateFigures;
}

/** Messages, billable ones, cost and price of charges applied after their month closed. */
export interface LateFigures {
  messages: number;
  billable: number;
  micros: number;
  price_micros?: number;
}

/**
 * Late charges as filed (decisions §30): charges of days of `of_month` applied after it closed, filed under
 * `month`, the month open when they were applied, whose statement bills them as adjustments.
 */
export interface AdjustmentEntry extends Omit<LedgerEntry, 'day' | 'late'> {
  month: string;
  of_month: string;
}

/** Meta's own figure of a WABA's day (pricing_analytics), by sending number, country and pricing category. */
export interface MetaCostEntry {
  day: string;
  /** The sending number's digits (the PHONE dimension): whose client the figure is (decisions §26). */
  phone_number?: string;
  country: string;
  category: string;
  volume: number;
  /** Undefined when Meta gave no COST (a partner's credit line): unknown, never 0. */
  micros?: number;
  /** The WABA's currency Meta's figure is in; USD when not said. */
  currency?: string;
}

/**
 * The cost ledger (decisions §24): charges are added by the status path (MessageStatuses), each on its day and,
 * when applied after its month closed, also filed as an adjustment under the month then open (decisions §30);
 * this reads them, and keeps Meta's own figures beside them.
 */
export interface CostLedger {
  /** A client's charges on days `from`–`to` (inclusive) on numbers of these WABAs. */
  charges(wabaIds: string[], clientId: number, from: string, to: string): Promise<LedgerEntry[]>;
  /** A client's late charges filed under months `from`–`to` (YYYY-MM, inclusive) on numbers of these WABAs. */
  adjustments(wabaIds: string[], clientId: number, from: string, to: string): Promise<AdjustmentEntry[]>;
  /** The charges of these clients (those with a number on the WABA, now or before) on one WABA's day, by client. */
  wabaDay(wabaId: string, clientIds: number[], day: string): Promise<{ client_id: number; entry: LedgerEntry }[]>;
  metaCosts(wabaIds: string[], from: string, to: string): Promise<MetaCostEntry[]>;
  /** Meta's figures of a WABA's day, as read (a later read replaces them). */
  putMetaCosts(wabaId: string, day: string, entries: MetaCostEntry[], readAt: string): Promise<void>;
  /** A client's parts of Meta's figures of a WABA's day (decisions §32), replacing the earlier; none is kept too. */
  putMetaShares(clientId: number, wabaId: string, day: string, shares: MetaShare[]): Promise<void>;
  /** A client's parts of Meta's figures on days `from`–`to`, each WABA's day the reconciliation shared: by client. */
  metaShares(clientId: number, from: string, to: string): Promise<{ waba_id: string; day: string; shares: MetaShare[] }[]>;
}

/** A client's part of Meta's figures of a WABA's day in a market and category (decisions §32), in micro-units. */
export interface MetaShare {
  day: string;
  market: string;
  category: string;
  volume: number;
  /** Undefined when Meta gave no COST: unknown, never 0. */
  micros?: number;
  currency?: string;
}

/** A client's day in one market where Meta's COST and the ledger differ by more than 1 % (decisions §26). */
export interface CostGap {
  client_id: number;
  day: string;
  market: string;
  currency: string;
  ledger: number;
  meta: number;
  /** |meta − ledger| as a share of the larger. */
  share: number;
}

/** What the daily reconciliation keeps between runs (decisions §26): the days a read failed, and the gaps found. */
export interface ReconciliationStore {
  /** The days whose pricing_analytics of this WABA could not be read: the next run reads them. */
  failedDays(wabaId: string): Promise<string[]>;
  setFailedDays(wabaId: string, days: string[]): Promise<void>;
  /** A client's gaps of a day, replacing those found before (none removes them). */
  putGaps(clientId: number, day: string, gaps: CostGap[]): Promise<void>;
  /** Every client's gaps of days `from`–`to` (inclusive), by day then client. */
  gaps(from: string, to: string): Promise<CostGap[]>;
}

/** A client's month as its budget counts it (decisions §27), in micro-units. */
export interface BudgetMonth {
  /** What the month's sends reserved when they were accepted. */
  reserved: number;
  /** What their messages gave back of it as they settled. */
  released: number;
  /** What the month's delivered messages cost (the client's price where it has a list). */
  spent: number;
}

/** A settlement's part of a client's month: its send's reservation given back (decisions §27). */
export interface BudgetRelease {
  client_id: number;
  month: string;
  micros: number;
}

/**
 * What a send's reservation leaves to be looked at later (decisions §30: reservations always end), written in the
 * reservation's own write: a crash between them would leave a reservation nobody finds. Looked at from `due_at`
 * (sends/operations/reservation-watch.ts): a send never recorded or never queued gives it back whole; a send's
 * messages never settled give back their parts at their TTL's end.
 */
export interface ReservationWatch {
  send_id: string;
  client_id: number;
  month: string;
  micros: number;
  due_at: string;
}

/**
 * Clients' monthly budgets (decisions §24, §27) and each month's figures: a send's check and reservation are one
 * conditional write, so two sends at once never both pass a budget with room for one; what settles is added
 * by the writes that settle it (the status path, a block's settlement), spread over shards.
 */
export interface BudgetStore {
  /** The budget; `currency` absent on a budget set before budgets had one (it is in USD, decisions §31). */
  get(clientId: number): Promise<{ monthly_micros: number; updated_at: string; currency?: string } | null>;
  /** Sets the monthly budget in `currency`; null removes it (nothing is refused then). */
  set(clientId: number, monthlyMicros: number | null, at: string, currency?: string): Promise<void>;
  month(clientId: number, month: string): Promise<BudgetMonth>;
  /**
   * Adds `micros` to the month's reservations; with a limit, only if what the month commits after it (reserved
   * − released + spent) stays within it. The committed total after, or null.
   */
  reserve(clientId: number, month: string, micros: number, limitMicros?: number, watch?: ReservationWatch): Promise<number | null>;
  /** Gives back a reservation whose send was never queued. */
  release(clientId: number, month: string, micros: number): Promise<void>;
}

/** What a month commits of its budget: what is reserved and not given back, and what was spent. */
export const committedOf = (m: BudgetMonth) => m.reserved - m.released + m.spent;

/**
 * Each business portfolio's billable volume of a month by market and category (decisions §26, §31): where a card
 * gives volume tiers, a message is priced at the tier its month's volume places it in, counted across the
 * portfolio's WABAs. The status path adds to the count as it charges (MessageStatuses); Meta's tier webhook says
 * where the month is at least.
 */
export interface VolumeTiers {
  /** Whose count a WABA's messages join: its portfolio (the directory's `business_id`), else the WABA alone. */
  portfolioOf(wabaId: string): Promise<string>;
  /** The month's (YYYY-MM) volume so far by `<market>|<category>`: the larger of the count and Meta's tier. */
  monthVolumes(portfolio: string, month: string): Promise<Map<string, number>>;
  /**
   * Meta's tier update, which names a WABA: the month's volume of a market and category of the WABA's portfolio
   * (portfolioOf) is at least `volume`.
   */
  reachedTier(wabaId: string, month: string, volumeKey: string, volume: number): Promise<void>;
}

/**
 * Where a charge counts toward a volume tier: the month, `<market>|<category>`, and the portfolio whose count it
 * joins (VolumeTiers.portfolioOf; absent: the WABA's own).
 */
export interface TierVolume {
  month: string;
  key: string;
  portfolio?: string;
}

/** A month's volume key: the market and the card's category. */
export const volumeKeyOf = (market: string, category: string) => `${market}|${category}`;

/**
 * Clients' price lists (decisions §27), versioned by `effective_from`: a list in force (its day today or before)
 * is never replaced, so what a past day was priced at stays true.
 */
export interface PriceLists {
  /** Every list of the client, oldest first. */
  lists(clientId: number): Promise<PriceList[]>;
  /**
   * Adds a list; a list not yet in force with the same effective_from is replaced; false when one in force has
   * it ("today" is the day of the new list's `created_at`, UTC).
   */
  put(list: PriceList): Promise<boolean>;
}

// A month's statement lines (decisions §27): lib/domain/money/statements/lines.ts makes them.

/** One line: a market × category × unit price of a currency, or the late charges of the month before. */
export interface StatementLine {
  kind: 'charge' | 'adjustment';
  market: string;
  category: string;
  /** An adjustment's month: the closed month whose late charges it bills. */
  of_month?: string;
  /** `outside`: messages the service did not send, charged to the number's owner (decisions §30). */
  origin?: 'outside';
  /** What the client pays a billable message, in micro-units of the statement's currency. */
  unit_price: number;
  messages: number;
  billable: number;
  /** What the client pays (its price where a list applied, Meta's cost elsewhere), micro-units. */
  amount_micros: number;
  /** Meta's cost of the same messages and its currency (BSP_CN sees them). */
  cost_micros: number;
  cost_currency: string;
  /** Whether a price list priced any of it. */
  priced: boolean;
}

/** The lines of one currency: a month with charges in two currencies has two statements. */
export interface CurrencyStatement {
  currency: string;
  lines: StatementLine[];
}

/** A closed month's statement as the close job kept it (decisions §30): never changed after. */
export interface StatementSnapshot {
  client_id: number;
  month: string;
  /** When it was taken: the close job's run that closed the month. */
  taken_at: string;
  statements: CurrencyStatement[];
  card_versions: string[];
  price_list_versions: string[];
  /** The rates those lists converted Meta's cost at (decisions §31), kept: absent from snapshots kept before them. */
  exchange_rates?: ExchangeRateApplied[];
  lines_sha256: string;
}

/** A price list's rate that priced a month's charges: `rate` units of `currency` (the list's) per unit of `per`. */
export interface ExchangeRateApplied {
  price_list: string;
  currency: string;
  per: string;
  rate: number;
}

/** Closed statements: one item a client and month, written once (by the close job, never by a read). */
export interface StatementStore {
  get(clientId: number, month: string): Promise<StatementSnapshot | null>;
  /** The client's last closed month, or null: its closed months run without a gap from the first to it. */
  latest(clientId: number): Promise<StatementSnapshot | null>;
  /** Keeps the snapshot unless the month has one already; the one kept (this, or the one that was first). */
  putOnce(snapshot: StatementSnapshot): Promise<StatementSnapshot>;
}

/** Meta's own figures of what a WABA's messages cost (upstream-facts §8: pricing_analytics, DAILY). */
export interface PricingUpstream {
  /** The WABA's cost and volume from `startUnix` to `endUnix`, by day, country and pricing category. */
  pricingAnalytics(wabaId: string, startUnix: number, endUnix: number): Promise<MetaCostEntry[]>;
}

/** What Graph says a WABA is billed in (upstream-facts §1.6): its currency and Meta's `timezone_id` ("71"). */
export interface BillingFields {
  currency: string;
  timezone_id?: string;
}

/** A WABA's billing as it is priced (decisions §31): its currency, and the IANA zone its days are counted in. */
export interface WabaBilling {
  currency: string;
  zone: string;
}

/** The currency Meta bills a WABA in (`GET /{waba}?fields=currency`, upstream-facts §9.D), ISO 4217, and its clock. */
export interface BillingCurrencies {
  currencyOf(wabaId: string): Promise<string>;
  /** Graph's answer to `fields=currency,timezone_id`, where the source reads Graph. */
  billingFieldsOf?(wabaId: string): Promise<BillingFields>;
  /** The currency and the zone of the WABA's days (decisions §31), where the source knows its zone. */
  billingOf?(wabaId: string): Promise<WabaBilling>;
}

/**
 * Each WABA's billing currency and Meta's `timezone_id` as last learned from Graph (decisions §30, §31), kept in
 * the table so that applying statuses never needs Graph: learned when the WABA is first seen, refreshed daily.
 */
export interface KnownCurrencies {
  /** The currency (and timezone id, once learned) last learned and when (ISO), or null for a WABA never seen. */
  get(wabaId: string): Promise<{ currency: string; timezone_id?: string; learned_at: string } | null>;
  put(wabaId: string, currency: string, learnedAt: string, timezoneId?: string): Promise<void>;
}

/** The charge of one message this service did not send (decisions §30), to the client that owns its number. */
export interface OutsideCharge {
  /** Meta's id of the message: it is charged once, however many of its statuses come. */
  message_id: string;
  waba_id: string;
  client_id: number;
  /** Its ledger entry: one message, `origin: 'outside'`. */
  entry: LedgerEntry;
  /** Where it counts toward its portfolio's volume tier (decisions §26, §31). */
  tierVolume?: TierVolume;
  /** The zone its statement month closes in (decisions §31; billing-zone.ts lateMarkZoneOf): UTC where absent. */
  statementZone?: string;
}

/** Charges of messages sent elsewhere on a client's number: each kept by Meta's message id, with its ledger entry. */
export interface OutsideCharges {
  /** Charges the message with its ledger entry in one write; false when it was charged already. */
  charge(charge: OutsideCharge): Promise<boolean>;
}

/** A send as usage by template or send reads it: its day, its template and what its messages cost (decisions §24). */
export interface ChargedSend {
  send_id: string;
  created_at: string;
  template: { name: string };
  currency?: string;
  /** The price list in force as the send was accepted: its prices are in this list's currency. */
  price_list?: { currency: string };
  charges?: Record<string, { messages: number; billable: number; micros: number; price_micros?: number }>;
}

/** A client's sends, newest first: the sends' store answers it. */
export interface ChargedSends {
  list(clientId: number, page: { offset: number; size: number }): Promise<{ sends: ChargedSend[]; total: number }>;
}
