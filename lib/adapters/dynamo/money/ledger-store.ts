import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CostLedger, LedgerEntry, MetaCostEntry, MetaShare } from '#lib/domain/money/ports.ts';
import { inParallel } from '#lib/domain/shared/parallel.ts';
import type { ServiceTable } from '../client.ts';
import { queryAll } from '../queries.ts';
import { LEDGER, LEDGER_BEFORE_CURRENCIES, LEDGER_LATE } from '../sends/send-items.ts';
import { keys, LEDGER_SHARDS } from '../table.ts';
import { adjustmentsOf, keyFieldsOf } from './ledger-items.ts';
import { metaCostItems, metaCostsOf, olderParts, partsPrefix } from './meta-cost-items.ts';

/**
 * The cost ledger's reads (decisions §24, §32): a client's charges on a WABA are LEDGER_SHARDS partitions of its
 * own (the status path adds to one at random), so a client's usage reads each of its partitions' days in one Query:
 * cost grows with the days and WABAs asked, never with another client's traffic on a shared WABA. Late charges
 * (decisions §30) are marked on their days and filed under the month open when they came (./ledger-items.ts), read
 * a month range a partition in one Query. Meta's own figures are one item a WABA's day, or parts of it when large.
 */
export class DynamoCostLedger implements CostLedger {
  constructor(private readonly table: ServiceTable) {}

  async charges(wabaIds: string[], clientId: number, from: string, to: string) {
    const items = await this.between(wabaIds, [clientId], keys.ledgerDay(from), keys.ledgerDayEnd(to));
    return items.flatMap(entriesOf).map((e) => e.entry);
  }

  async adjustments(wabaIds: string[], clientId: number, from: string, to: string) {
    const items = await this.between(wabaIds, [clientId], keys.ledgerLate(from, ''), keys.ledgerLateEnd(to));
    return items.flatMap(adjustmentsOf).map((e) => e.entry);
  }

  async wabaDay(wabaId: string, clientIds: number[], day: string) {
    return (await this.between([wabaId], clientIds, keys.ledgerDay(day), keys.ledgerDayEnd(day))).flatMap(entriesOf);
  }

  /** The items of every ledger partition of these clients on these WABAs whose sort keys are from `from` to `to`. */
  private async between(wabaIds: string[], clientIds: number[], from: string, to: string) {
    const partitions = wabaIds.flatMap((waba) =>
      clientIds.flatMap((client) => Array.from({ length: LEDGER_SHARDS }, (_, shard) => keys.clientLedger(waba, client, shard))),
    );
    const read = await inParallel(partitions, 8, (pk) =>
      queryAll(this.table, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
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

  async putMetaShares(clientId: number, wabaId: string, day: string, shares: MetaShare[]) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: keys.metaShare(clientId),
          sk: keys.metaShareDay(day, wabaId),
          entity: 'meta_share_day',
          client_id: clientId,
          waba_id: wabaId,
          day,
          shares,
        },
      }),
    );
  }

  /** One Query of the client's own partition, whatever its WABAs and numbers (decisions §32). */
  async metaShares(clientId: number, from: string, to: string) {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.metaShare(clientId), ':from': keys.ledgerDay(from), ':to': keys.ledgerDayEnd(to) },
    });
    return items.map((item) => ({ waba_id: String(item.waba_id), day: String(item.day), shares: item.shares as MetaShare[] }));
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
  ['messages', LEDGER.messages, LEDGER_BEFORE_CURRENCIES.messages, LEDGER_LATE.messages],
  ['billable', LEDGER.billable, LEDGER_BEFORE_CURRENCIES.billable, LEDGER_LATE.billable],
  ['micros', LEDGER.micros, LEDGER_BEFORE_CURRENCIES.micros, LEDGER_LATE.micros],
  ['price_micros', LEDGER.price, LEDGER.price, LEDGER_LATE.price],
] as const;

/**
 * A ledger item's entries (send-items.ts ledgerUpdates): `N|`, `B|`, `A|` and `P|` then `<market>|<currency>` on a
 * number's item of a day and category (issue 54: the item names its client and category), or
 * `<client>|<market>|<category>|<currency>` on a number's item of a day written before, and the part of them applied
 * late beside them (`LN|`, `LB|`, `LA|`, `LP|`: decisions §30); items of before issue 41 hold `n|`, `b|`, `a|` then
 * `<client>|<did>|<market>|<category>` in USD.
 */
function entriesOf(item: Record<string, unknown>): { client_id: number; entry: LedgerEntry }[] {
  const found = new Map<string, { client_id: number; entry: LedgerEntry }>();
  const day = String(item.day);
  // An item of a category says its client and category once: its names as an older item's would be.
  const named = (rest: string) => {
    if (typeof item.category !== 'string') return rest;
    const [market, ...currencies] = rest.split('|');
    return [item.client_id, market, item.category, ...currencies].join('|');
  };
  for (const [name, value] of Object.entries(item)) {
    const field = FIELDS.find(([, now, before, late]) => name.startsWith(now) || name.startsWith(before) || name.startsWith(late));
    if (!field) continue;
    const late = name.startsWith(field[3]);
    const rest = named(name.slice(late ? 3 : 2));
    const current = late || name.startsWith(field[1]);
    const key = `${current ? 'N' : 'n'}${rest}`;
    const known = found.get(key) ?? { client_id: Number(rest.split('|')[0]), entry: entryOf(rest, current, day, String(item.did)) };
    if (late) {
      known.entry.late ??= { messages: 0, billable: 0, micros: 0 };
      known.entry.late[field[0]] = (known.entry.late[field[0]] ?? 0) + Number(value);
    } else known.entry[field[0]] = (known.entry[field[0]] ?? 0) + Number(value);
    found.set(key, known);
  }
  return [...found.values()];
}

function entryOf(rest: string, current: boolean, day: string, itemDid: string): LedgerEntry {
  const parts = rest.split('|');
  const [did, key] = current ? [itemDid, parts.slice(1)] : [parts[1], [parts[2], parts[3], 'USD']];
  return { day, did, ...keyFieldsOf(key), messages: 0, billable: 0, micros: 0 };
}
