// What messages cost: the ledger, Meta's own figures and budgets (decisions §24).

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
}

/** Meta's own figure of a WABA's day (pricing_analytics), by country and pricing category. */
export interface MetaCostEntry {
  day: string;
  country: string;
  category: string;
  volume: number;
  micros: number;
  /** The WABA's currency Meta's figure is in; USD when not said. */
  currency?: string;
}

/**
 * The cost ledger (decisions §24): charges are added by the status path (DeliveryStatuses); this reads them, and
 * keeps Meta's own figures beside them.
 */
export interface CostLedger {
  /** A client's charges on days `from`–`to` (inclusive) on numbers of these WABAs. */
  charges(wabaIds: string[], clientId: number, from: string, to: string): Promise<LedgerEntry[]>;
  /** Every client's charges of one WABA's day, by client. */
  wabaDay(wabaId: string, day: string): Promise<{ client_id: number; entry: LedgerEntry }[]>;
  metaCosts(wabaIds: string[], from: string, to: string): Promise<MetaCostEntry[]>;
  /** Meta's figures of a WABA's day, as read (a later read replaces them). */
  putMetaCosts(wabaId: string, day: string, entries: MetaCostEntry[], readAt: string): Promise<void>;
}

/**
 * Clients' monthly budgets (decisions §24), and what each month's accepted sends reserved of them: a send's
 * check and reservation are one conditional write, so two sends at once never both pass a budget with room
 * for one.
 */
export interface BudgetStore {
  get(clientId: number): Promise<{ monthly_micros: number; updated_at: string } | null>;
  /** Sets the monthly budget; null removes it (nothing is refused then). */
  set(clientId: number, monthlyMicros: number | null, at: string): Promise<void>;
  reserved(clientId: number, month: string): Promise<number>;
  /** Adds `micros` to the month's reservations if they stay within `limitMicros`; the total after, or null. */
  reserve(clientId: number, month: string, micros: number, limitMicros: number): Promise<number | null>;
  /** Gives back a reservation whose send was never queued. */
  release(clientId: number, month: string, micros: number): Promise<void>;
}

/**
 * Each WABA's billable volume of a month by market and category (decisions §26): where a card gives volume
 * tiers, a message is priced at the tier its month's volume places it in. The status path adds to the count as
 * it charges (DeliveryStatuses); Meta's tier webhook says where the month is at least.
 */
export interface VolumeTiers {
  /** The month's (YYYY-MM) volume so far by `<market>|<category>`: the larger of the count and Meta's tier. */
  monthVolumes(wabaId: string, month: string): Promise<Map<string, number>>;
  /** Meta's tier update: the month's volume of a market and category is at least `volume`. */
  reachedTier(wabaId: string, month: string, volumeKey: string, volume: number): Promise<void>;
}

/** A month's volume key: the market and the card's category. */
export const volumeKeyOf = (market: string, category: string) => `${market}|${category}`;
