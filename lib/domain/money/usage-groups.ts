import type { LedgerEntry } from './ports.ts';
import { InvalidRequest } from '../shared/errors.ts';
import { fromMicros } from '../shared/money.ts';
import { addCost } from './meta-costs.ts';

/** What usage rows may be grouped by (decisions §27): a comma list of these, in any order. */
export const USAGE_GROUPS = ['day', 'month', 'market', 'category', 'did', 'template', 'send'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** The groups a send's own charges can be split by: a send keeps its charges by pricing category only. */
export const SEND_GROUPS: readonly UsageGroup[] = ['template', 'send', 'category'];

/**
 * `group_by` as a list (decisions §27), or 400 naming the rule it breaks: each name one of USAGE_GROUPS, none twice,
 * not `day` with `month`, and `template` or `send` with `category` only (the ledger has no template or send: those
 * rows come from the sends' own charges, which are kept by category, not by day, market or number). None is `day`.
 */
export function parseGroups(raw: string | undefined): UsageGroup[] {
  if (raw === undefined || raw.trim() === '') return ['day'];
  const names = raw.split(',').map((name) => name.trim());
  const groups: UsageGroup[] = [];
  for (const name of names) {
    if (!(USAGE_GROUPS as readonly string[]).includes(name))
      throw new InvalidRequest(`group_by: ${JSON.stringify(name)} is not one of ${USAGE_GROUPS.join(', ')}`);
    if (groups.includes(name as UsageGroup)) throw new InvalidRequest(`group_by names ${name} twice`);
    groups.push(name as UsageGroup);
  }
  if (groups.includes('day') && groups.includes('month')) throw new InvalidRequest('group_by takes day or month, not both');
  if (bySends(groups) && groups.some((group) => !SEND_GROUPS.includes(group)))
    throw new InvalidRequest('group_by template or send combines with category only (a send’s charges are kept by category)');
  return groups;
}

/** Whether rows come from the sends' own charges rather than the ledger. */
export const bySends = (groups: readonly UsageGroup[]) => groups.includes('template') || groups.includes('send');

/** What a row adds up, before who sees what of it is decided. */
export interface UsageTally {
  groups: Partial<Record<UsageGroup, string>>;
  currency: string;
  currency_mismatch?: true;
  /** The currency the client pays in: the price list's, else the cost's. */
  price_currency: string;
  messages: number;
  billable: number;
  micros: number;
  /** What the client pays: the price where a list was in force, the cost elsewhere. */
  price_micros: number;
  /** Whether any of it was priced by a price list. */
  priced: boolean;
  meta_micros?: number | null;
  /** The currency of Meta's figure (its WABA's), set with it: one currency, never a sum of two. */
  meta_currency?: string;
}

/** Meta's figure of a day, market and category as a row adds it: unknown once a part has no COST. */
export interface MetaPart {
  micros?: number;
  currency?: string;
}

/** A charge as a row adds it: the ledger's entries and the sends' charges alike. */
export type UsageCharge = Pick<
  LedgerEntry,
  'currency' | 'currency_mismatch' | 'messages' | 'billable' | 'micros' | 'price_micros' | 'price_currency'
>;

/** The rows of a usage answer, keyed by their groups and currencies: amounts of two currencies are never one sum. */
export class UsageTallies {
  readonly rows = new Map<string, UsageTally>();
  /** The rows of each set of groups, whatever their currencies: where Meta's figure of the groups goes. */
  private readonly byGroups = new Map<string, UsageTally[]>();

  constructor(private readonly order: readonly UsageGroup[]) {}

  row(groups: Partial<Record<UsageGroup, string>>, currency: string, priceCurrency = currency, mismatch?: true) {
    const groupsId = this.groupsIdOf(groups);
    const id = [groupsId, currency, priceCurrency, mismatch ? '!' : ''].join('|');
    const found = this.rows.get(id);
    if (found) return found;
    const known: UsageTally = {
      groups,
      currency,
      ...(mismatch && { currency_mismatch: mismatch }),
      price_currency: priceCurrency,
      messages: 0,
      billable: 0,
      micros: 0,
      price_micros: 0,
      priced: false,
    };
    this.rows.set(id, known);
    this.byGroups.set(groupsId, [...(this.byGroups.get(groupsId) ?? []), known]);
    return known;
  }

  /**
   * Meta's figure beside the row of its groups (decisions §31: in Meta's currency, never added to another's): the
   * row already holding Meta's figures in that currency, else the row in that currency, else one with none yet
   * (its `meta_currency` then says Meta's), else a row of its own in that currency.
   */
  addMeta(groups: Partial<Record<UsageGroup, string>>, part: MetaPart, baseCurrency: string) {
    const currency = part.currency ?? baseCurrency;
    const rows = this.byGroups.get(this.groupsIdOf(groups)) ?? [];
    const row =
      rows.find((r) => r.meta_currency === currency) ??
      rows.find((r) => r.meta_currency === undefined && r.currency === currency) ??
      rows.find((r) => r.meta_currency === undefined) ??
      this.row(groups, currency);
    row.meta_currency = currency;
    row.meta_micros = addCost(row.meta_micros, part);
  }

  private groupsIdOf(groups: Partial<Record<UsageGroup, string>>) {
    return this.order.map((group) => groups[group] ?? '').join('|');
  }

  add(groups: Partial<Record<UsageGroup, string>>, charge: UsageCharge) {
    const priced = charge.price_micros !== undefined;
    const row = this.row(groups, charge.currency, (priced && charge.price_currency) || charge.currency, charge.currency_mismatch);
    row.messages += charge.messages;
    row.billable += charge.billable;
    row.micros += charge.micros;
    row.price_micros += charge.price_micros ?? charge.micros;
    row.priced ||= priced;
  }

  /** The rows in order of their groups (each compared whole: `promo` before `promo_b`), then currencies. */
  sorted() {
    const partsOf = (row: UsageTally) => [
      ...this.order.map((group) => row.groups[group] ?? ''),
      row.currency,
      row.price_currency,
      row.currency_mismatch ? '!' : '',
    ];
    const compare = (a: string[], b: string[]) => a.reduce((found, part, i) => found || part.localeCompare(b[i]), 0);
    return [...this.rows.values()].sort((a, b) => compare(partsOf(a), partsOf(b)));
  }
}

/**
 * A row as the caller sees it (decisions §27, moneyShown): `amount` is Meta's cost, `price` what the client pays
 * and `margin` their difference. An agent of a client with a price list sees `price` only, in the price's
 * currency; BSP_CN sees all three where a price exists; an agent of a client without a list sees `amount`.
 */
export interface ShownUsage {
  currency: string;
  currency_mismatch?: true;
  messages: number;
  billable: number;
  amount?: number;
  price?: number;
  price_currency?: string;
  margin?: number;
  meta_amount?: number;
  /** The currency of `meta_amount` where it is not `currency`. */
  meta_currency?: string;
}

export function shownRow(row: UsageTally, shown: { cost: boolean; price: boolean; margin: boolean }): ShownUsage {
  const sameCurrency = row.price_currency === row.currency;
  if (!shown.cost)
    return { currency: row.price_currency, messages: row.messages, billable: row.billable, price: fromMicros(row.price_micros) };
  return {
    currency: row.currency,
    ...(row.currency_mismatch && { currency_mismatch: row.currency_mismatch }),
    messages: row.messages,
    billable: row.billable,
    amount: fromMicros(row.micros),
    ...(shown.price && row.priced && { price: fromMicros(row.price_micros) }),
    ...(shown.price && row.priced && !sameCurrency && { price_currency: row.price_currency }),
    ...(shown.margin && row.priced && sameCurrency && { margin: fromMicros(row.price_micros - row.micros) }),
    ...(typeof row.meta_micros === 'number' && { meta_amount: fromMicros(row.meta_micros) }),
    ...(typeof row.meta_micros === 'number' && row.meta_currency !== row.currency && { meta_currency: row.meta_currency }),
  };
}
