import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CostLedger, LedgerEntry, MetaCostEntry } from '#lib/domain/money/ports.ts';
import { inParallel } from '#lib/domain/shared/parallel.ts';
import type { ServiceTable } from '../client.ts';
import { queryAll } from '../queries.ts';
import { LEDGER, LEDGER_BEFORE_CURRENCIES, MISMATCH, PRICED_IN } from '../sends/send-items.ts';
import { keys, LEDGER_SHARDS } from '../table.ts';
import { metaCostItems, metaCostsOf, olderParts, partsPrefix } from './meta-cost-items.ts';

/**
 * The cost ledger's reads (decisions §24): a WABA's days are LEDGER_SHARDS items each (the status path adds to
 * one at random), so a client's usage reads each shard's days in one Query; cost grows with the days and WABAs
 * asked, not with the messages sent. Meta's own figures are one item a WABA's day, or parts of it when large.
 */
export class DynamoCostLedger implements CostLedger {
  constructor(private readonly table: ServiceTable) {}

  async charges(wabaIds: string[], clientId: number, from: string, to: string) {
    const items = await this.days(wabaIds, from, to);
    return items.flatMap((item) =>
      entriesOf(item)
        .filter((e) => e.client_id === clientId)
        .map((e) => e.entry),
    );
  }

  async wabaDay(wabaId: string, day: string) {
    return (await this.days([wabaId], day, day)).flatMap(entriesOf);
  }

  private async days(wabaIds: string[], from: string, to: string) {
    const shards = wabaIds.flatMap((waba) => Array.from({ length: LEDGER_SHARDS }, (_, shard) => keys.ledger(waba, shard)));
    const read = await inParallel(shards, 8, (pk) =>
      queryAll(this.table, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': keys.ledgerDay(from), ':to': keys.ledgerDayEnd(to) },
      }),
    );
    return read.flat();
  }

  async metaCosts(wabaIds: string[], from: string, to: string) {
    const read = await inParallel(wabaIds, 8, (waba) =>
      queryAll(this.table, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.metaCost(waba), ':from': keys.ledgerDay(from), ':to': keys.ledgerDayEnd(to) },
      }),
    );
    return read.flatMap(metaCostsOf);
  }

  /**
   * The day's figures replace the earlier read's (./meta-cost-items.ts): its other parts first, then the head that
   * names them (unless a later read's is there already), then the parts of older reads go.
   */
  async putMetaCosts(wabaId: string, day: string, entries: MetaCostEntry[], readAt: string) {
    const { head, parts } = metaCostItems(wabaId, day, entries, readAt);
    const put = (Item: Record<string, unknown>, newer?: true) =>
      this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item,
          ...(newer && {
            ConditionExpression: 'attribute_not_exists(read_at) OR read_at <= :read_at',
            ExpressionAttributeValues: { ':read_at': readAt },
          }),
        }),
      );
    await inParallel(parts, 4, (part) => put(part));
    const kept = await put(head, true).then(
      () => true,
      (error: unknown) => {
        if ((error as Error).name === 'ConditionalCheckFailedException') return false;
        throw error;
      },
    );
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :parts)',
      ExpressionAttributeValues: { ':pk': head.pk, ':parts': partsPrefix(day) },
    });
    // A later read's head is there: this read's parts are named by no head.
    const gone = kept ? olderParts(items, readAt) : items.filter((item) => item.read_at === readAt);
    await inParallel(gone, 4, (item) =>
      this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: { pk: item.pk, sk: item.sk } })),
    );
  }
}

const FIELDS = [
  ['messages', LEDGER.messages, LEDGER_BEFORE_CURRENCIES.messages],
  ['billable', LEDGER.billable, LEDGER_BEFORE_CURRENCIES.billable],
  ['micros', LEDGER.micros, LEDGER_BEFORE_CURRENCIES.micros],
  ['price_micros', LEDGER.price, LEDGER.price],
] as const;

/**
 * A ledger item's entries (send-items.ts ledgerUpdate): `N|`, `B|` and `A|` then
 * `<client>|<market>|<category>|<currency>` on a number's item; items of before issue 41 hold `n|`, `b|`, `a|`
 * then `<client>|<did>|<market>|<category>` in USD.
 */
function entriesOf(item: Record<string, unknown>): { client_id: number; entry: LedgerEntry }[] {
  const found = new Map<string, { client_id: number; entry: LedgerEntry }>();
  const day = String(item.day);
  for (const [name, value] of Object.entries(item)) {
    const field = FIELDS.find(([, now, before]) => name.startsWith(now) || name.startsWith(before));
    if (!field) continue;
    const key = `${name.startsWith(field[1]) ? 'N' : 'n'}${name.slice(2)}`;
    const known = found.get(key) ?? { client_id: Number(name.slice(2).split('|')[0]), entry: entryOf(name, day, String(item.did)) };
    known.entry[field[0]] = (known.entry[field[0]] ?? 0) + Number(value);
    found.set(key, known);
  }
  return [...found.values()];
}

function entryOf(name: string, day: string, itemDid: string): LedgerEntry {
  const parts = name.slice(2).split('|');
  const current = FIELDS.some(([, now]) => name.startsWith(now));
  const [did, market, category, currencies] = current ? [itemDid, parts[1], parts[2], parts[3]] : [parts[1], parts[2], parts[3], 'USD'];
  const [priced, priceCurrency] = currencies.split(PRICED_IN);
  const mismatch = priced.endsWith(MISMATCH);
  return {
    day,
    did,
    market,
    category: category.replace(/-/g, '_'),
    currency: mismatch ? priced.slice(0, -1) : priced,
    ...(mismatch && { currency_mismatch: true as const }),
    ...(priceCurrency && { price_currency: priceCurrency }),
    // A message sent elsewhere on the number (decisions §30): `|outside` after the currencies.
    ...(current && parts[4] === 'outside' && { origin: 'outside' as const }),
    messages: 0,
    billable: 0,
    micros: 0,
  };
}
