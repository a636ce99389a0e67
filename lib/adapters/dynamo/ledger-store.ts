import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CostLedger, LedgerEntry, MetaCostEntry } from '#lib/domain/ports/costs.ts';
import { inParallel } from '#lib/domain/parallel.ts';
import type { ServiceTable } from './client.ts';
import { queryAll } from './queries.ts';
import { LEDGER } from './sends/send-items.ts';
import { keys, LEDGER_SHARDS } from './table.ts';

/**
 * The cost ledger's reads (decisions §24): a WABA's days are LEDGER_SHARDS items each (the status path adds to
 * one at random), so a client's usage reads each shard's days in one Query; cost grows with the days and WABAs
 * asked, not with the messages sent. Meta's own figures are one item a WABA's day.
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
        ExpressionAttributeValues: { ':pk': pk, ':from': keys.ledgerDay(from), ':to': keys.ledgerDay(to) },
      }),
    );
    return read.flat();
  }

  async metaCosts(wabaIds: string[], from: string, to: string) {
    const read = await inParallel(wabaIds, 8, (waba) =>
      queryAll(this.table, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.metaCost(waba), ':from': keys.ledgerDay(from), ':to': keys.ledgerDay(to) },
      }),
    );
    return read.flat().flatMap((item) => (item.entries ?? []) as MetaCostEntry[]);
  }

  async putMetaCosts(wabaId: string, day: string, entries: MetaCostEntry[], readAt: string) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: keys.metaCost(wabaId),
          sk: keys.ledgerDay(day),
          entity: 'meta_cost_day',
          waba_id: wabaId,
          day,
          entries,
          read_at: readAt,
        },
      }),
    );
  }
}

/** A ledger item's entries: `n|`, `b|` and `a|` then `<client>|<did>|<market>|<category>` (send-items.ts). */
function entriesOf(item: Record<string, unknown>): { client_id: number; entry: LedgerEntry }[] {
  const found = new Map<string, { client_id: number; entry: LedgerEntry }>();
  const day = String(item.day);
  for (const [name, value] of Object.entries(item)) {
    const field = name.startsWith(LEDGER.messages)
      ? 'messages'
      : name.startsWith(LEDGER.billable)
        ? 'billable'
        : name.startsWith(LEDGER.micros)
          ? 'micros'
          : undefined;
    if (!field) continue;
    const key = name.slice(2);
    const [client, did, market, category] = key.split('|');
    const known = found.get(key) ?? {
      client_id: Number(client),
      entry: { day, did, market, category, messages: 0, billable: 0, micros: 0 },
    };
    known.entry[field] += Number(value);
    found.set(key, known);
  }
  return [...found.values()];
}
