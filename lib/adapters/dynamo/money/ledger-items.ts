import type { AdjustmentEntry, LedgerEntry } from '#lib/domain/money/ports.ts';
import { lateFiledUnder } from '#lib/domain/money/statements/months.ts';
import type { ChargeTally } from '#lib/domain/money/status-billing.ts';
import { monthOf } from '#lib/domain/shared/calendar.ts';
import type { LedgerOwner } from '#lib/domain/sends/ports.ts';
import { LEDGER, LEDGER_LATE, MISMATCH, PRICED_IN } from '../sends/send-items.ts';
import { keys, randomLedgerShard } from '../table.ts';
import type { TransactItem } from '../transactions.ts';

/**
 * A write's charges on the cost ledger, routed as they are applied at `appliedAtMs` (decisions §30): each day's on
 * its number's day items, one a category (ledgerUpdates), marked late where the day's month had closed by then in `zone` (decisions
 * §31: the client's billing timezone, or the WABA's; UTC where not given), and the late ones
 * also on one item filed under the month open then, whose statement bills them. Every day and category item as
 * before, and at most one item more, only for a write that brings late charges (they all file under the same month).
 */
export function ledgerWrites(
  tableName: string,
  owner: LedgerOwner,
  days: Map<string, Map<string, ChargeTally>>,
  appliedAtMs: number,
  zone?: string,
): TransactItem[] {
  const writes: TransactItem[] = [];
  const late = new Map<string, ChargeTally>();
  let filedUnder: string | undefined;
  for (const [day, entries] of days) {
    const month = lateFiledUnder(day, appliedAtMs, zone);
    writes.push(...ledgerUpdates(tableName, owner, day, entries, month !== undefined));
    if (month === undefined) continue;
    filedUnder = month;
    for (const [key, charge] of entries) {
      const id = `${monthOf(day)}|${key}`;
      const known = late.get(id) ?? { messages: 0, billable: 0, micros: 0 };
      known.messages += charge.messages;
      known.billable += charge.billable;
      known.micros += charge.micros;
      if (charge.price !== undefined) known.price = (known.price ?? 0) + charge.price;
      late.set(id, known);
    }
  }
  if (filedUnder !== undefined) writes.push(lateChargesUpdate(tableName, owner, filedUnder, late));
  return writes;
}

/**
 * Late charges added to a number's item of the month they are filed under, on one of the WABA's ledger shards
 * (at random, as the day items: a late batch of a busy number spreads): `N|`, `B|`, `A|` and `P|` then
 * `<client>|<month charged>|<market>|<category>|<currency>`. Rare, and one month's late charges of one number: small.
 */
function lateChargesUpdate(tableName: string, owner: LedgerOwner, month: string, late: Map<string, ChargeTally>): TransactItem {
  const names: Record<string, string> = { '#month': 'month' };
  const values: Record<string, unknown> = { ':entity': 'ledger_late', ':month': month, ':waba': owner.waba_id, ':did': owner.did };
  const adds: string[] = [];
  for (const [key, charge] of late)
    for (const [prefix, amount] of [
      [LEDGER.messages, charge.messages],
      [LEDGER.billable, charge.billable],
      [LEDGER.micros, charge.micros],
      ...(charge.price === undefined ? [] : [[LEDGER.price, charge.price] as const]),
    ] as const) {
      const n = adds.length;
      names[`#l${n}`] = `${prefix}${owner.client_id}|${key}`;
      values[`:l${n}`] = amount;
      adds.push(`#l${n} :l${n}`);
    }
  return {
    Update: {
      TableName: tableName,
      Key: { pk: keys.clientLedger(owner.waba_id, owner.client_id, randomLedgerShard()), sk: keys.ledgerLate(month, owner.did) },
      UpdateExpression: `SET entity = :entity, #month = :month, waba_id = :waba, did = :did ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

const FIGURES = [
  ['messages', LEDGER.messages],
  ['billable', LEDGER.billable],
  ['micros', LEDGER.micros],
  ['price_micros', LEDGER.price],
] as const;

/** A late charges item's entries, by client (lateChargesUpdate). */
export function adjustmentsOf(item: Record<string, unknown>): { client_id: number; entry: AdjustmentEntry }[] {
  const found = new Map<string, { client_id: number; entry: AdjustmentEntry }>();
  for (const [name, value] of Object.entries(item)) {
    const figure = FIGURES.find(([, prefix]) => name.startsWith(prefix));
    if (!figure) continue;
    const [client, ofMonth, ...key] = name.slice(2).split('|');
    const id = name.slice(2);
    const known = found.get(id) ?? {
      client_id: Number(client),
      entry: {
        month: String(item.month),
        of_month: ofMonth,
        did: String(item.did),
        ...keyFieldsOf(key),
        messages: 0,
        billable: 0,
        micros: 0,
      },
    };
    known.entry[figure[0]] = (known.entry[figure[0]] ?? 0) + Number(value);
    found.set(id, known);
  }
  return [...found.values()];
}

/**
 * What a ledger key says (send-items.ts ledgerEntryKey): `<market>|<category>|<currency>[!][><price currency>]`,
 * then `|outside` for a message sent elsewhere on the number (decisions §30).
 */
export function keyFieldsOf([market, category, currencies, origin]: string[]) {
  const [priced, priceCurrency] = currencies.split(PRICED_IN);
  const mismatch = priced.endsWith(MISMATCH);
  const fields: Pick<LedgerEntry, 'market' | 'category' | 'currency' | 'currency_mismatch' | 'price_currency' | 'origin'> = {
    market,
    category: category.replace(/-/g, '_'),
    currency: mismatch ? priced.slice(0, -1) : priced,
    ...(mismatch && { currency_mismatch: true as const }),
    ...(priceCurrency && { price_currency: priceCurrency }),
    ...(origin === 'outside' && { origin: 'outside' as const }),
  };
  return fields;
}

/**
 * A day's charges on one number added to one of the client's ledger shards on the WABA (decisions §26), in the
 * status transaction: an item for each of Meta's pricing categories among them (issue 54), each figure `N|`, `B|`,
 * `A|` (messages, billable, micro-units) and `P|` (the client's price) then `<market>|<currency>`, the client and
 * the category said once on the item. An item holds at most the card's markets × their currencies: a few KB
 * however busy the day (test/unit/status-transactions.test.ts), where one item of every category grew to 23 KB.
 */
export function ledgerUpdates(
  tableName: string,
  owner: LedgerOwner,
  day: string,
  entries: Map<string, ChargeTally>,
  late = false,
): TransactItem[] {
  const byCategory = new Map<string, Map<string, ChargeTally>>();
  for (const [key, charge] of entries) {
    const [market, category, ...rest] = key.split('|');
    const own = byCategory.get(category) ?? new Map<string, ChargeTally>();
    byCategory.set(category, own.set([market, ...rest].join('|'), charge));
  }
  return [...byCategory].map(([category, own]) => categoryDayUpdate(tableName, owner, day, category, own, late));
}

function categoryDayUpdate(
  tableName: string,
  owner: LedgerOwner,
  day: string,
  category: string,
  entries: Map<string, ChargeTally>,
  late: boolean,
): TransactItem {
  const names: Record<string, string> = { '#day': 'day' };
  const values: Record<string, unknown> = {
    ':entity': 'ledger_day',
    ':day': day,
    ':waba': owner.waba_id,
    ':did': owner.did,
    ':client': owner.client_id,
    ':category': category,
  };
  const adds: string[] = [];
  for (const [key, charge] of entries) {
    for (const [prefix, amount] of [
      [LEDGER.messages, charge.messages],
      [LEDGER.billable, charge.billable],
      [LEDGER.micros, charge.micros],
      ...(charge.price === undefined ? [] : [[LEDGER.price, charge.price] as const]),
      // Applied after the day's month closed (decisions §30): marked late too, beside the day's figures.
      ...(late ? lateMarks(charge) : []),
    ] as const) {
      const n = adds.length;
      names[`#l${n}`] = `${prefix}${key}`;
      values[`:l${n}`] = amount;
      adds.push(`#l${n} :l${n}`);
    }
  }
  return {
    Update: {
      TableName: tableName,
      Key: {
        pk: keys.clientLedger(owner.waba_id, owner.client_id, randomLedgerShard()),
        sk: keys.ledgerCategoryDay(day, owner.did, category),
      },
      UpdateExpression: `SET entity = :entity, #day = :day, waba_id = :waba, did = :did, client_id = :client, category = :category ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The late part of a charge (decisions §30), beside its day's figures. */
const lateMarks = (charge: ChargeTally) => [
  [LEDGER_LATE.messages, charge.messages] as const,
  [LEDGER_LATE.billable, charge.billable] as const,
  [LEDGER_LATE.micros, charge.micros] as const,
  ...(charge.price === undefined ? [] : [[LEDGER_LATE.price, charge.price] as const]),
];
