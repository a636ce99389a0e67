import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { BULK_SAFETY_MS } from '#lib/domain/templates/bulk-status.ts';
import type { ActiveFlip, ActiveWrite, Deadline } from '#lib/domain/templates/ports.ts';
import { keys, SORT } from '../table.ts';
import type { ServiceTable } from '../client.ts';
import { entryFromItem, entryItem } from './listing-items.ts';
import { batchGet } from '../queries.ts';
import { aggregateKey } from './record-items.ts';
import { cancellationCodes, TRANSACTION_LIMIT, type TransactItem } from '../transactions.ts';

/**
 * A bulk status change's flips of `active` (decisions §19), several templates to a transaction: each record on
 * the `updated_at` read, each template's version item (its active records and listing entry) on its version,
 * up to DynamoDB's 100 items. Answers each flip's outcome, the templates to be done alone (a transaction a
 * concurrent write cancelled, a version item without its active records, more flips than one transaction
 * holds), and whether there is still time to begin a write.
 */
export async function flipInSharedTransactions(
  table: ServiceTable,
  flips: ActiveFlip[],
  now: string,
  deadline?: Deadline,
): Promise<{ outcomes: ActiveWrite[]; alone: number[][]; timeLeft: () => boolean }> {
  const outcomes = new Array<ActiveWrite>(flips.length).fill('not_processed');
  const groups = new Map<string, number[]>();
  flips.forEach(({ record }, i) => {
    groups.set(aggregateKey(record), [...(groups.get(aggregateKey(record)) ?? []), i]);
  });
  const versions = new Map(
    (
      await batchGet(
        table,
        [...groups.keys()].map((pk) => ({ pk, sk: SORT.assignmentsVersion })),
        true,
      )
    ).map((item) => [String(item.pk), item]),
  );
  // No write is begun with less time left than the margin, or than twice the slowest write so far (a table
  // slowed down by load): what was begun is done before the function's time is up (decisions §19).
  let slowestMs = 0;
  const timeLeft = () => !deadline || deadline.remainingMs() > Math.max(BULK_SAFETY_MS, 2 * slowestMs);
  const alone: number[][] = [];
  let pending: { indexes: number[]; items: TransactItem[] }[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    if (batch.length === 0 || !timeLeft()) return;
    const started = Date.now();
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: batch.flatMap((b) => b.items) }));
      slowestMs = Math.max(slowestMs, Date.now() - started);
      for (const { indexes } of batch) for (const i of indexes) outcomes[i] = 'written';
    } catch (error) {
      if (!cancellationCodes(error)) throw error;
      // Some record or template changed meanwhile: each template is done alone, from a fresh read.
      alone.push(...batch.map((b) => b.indexes));
    }
  };
  for (const [pk, indexes] of groups) {
    const item = versions.get(pk);
    const group = indexes.map((i) => flips[i]);
    // A version item written before it kept the active records, or more flips than one transaction holds.
    if (!item || !Array.isArray(item.active_ids) || indexes.length >= TRANSACTION_LIMIT) {
      alone.push(indexes);
      continue;
    }
    const active = new Set(item.active_ids as string[]);
    for (const { record, to } of group) {
      if (to) active.add(record.id);
      else active.delete(record.id);
    }
    const entry = entryFromItem(item);
    if (entry) {
      entry.facets = { ...entry.facets, active: active.size > 0 };
      entry.entry = { ...entry.entry, active: active.size > 0 };
    }
    const first = group[0].record;
    const of = { wabaId: first.waba_id, templateId: first.meta_template.id, clientId: first.client_id };
    const version = Number(item.version);
    const items: TransactItem[] = [
      ...group.map(({ record, to }) => ({
        Update: {
          TableName: table.name,
          Key: { pk: keys.record(record.id), sk: SORT.record },
          UpdateExpression: 'SET active = :to, updated_at = :now',
          ConditionExpression: 'updated_at = :seen AND active = :from',
          ExpressionAttributeValues: { ':to': to, ':from': !to, ':now': now, ':seen': record.updated_at },
        },
      })),
      {
        Put: {
          TableName: table.name,
          Item: entryItem(of, entry, version + 1, [...active]),
          ConditionExpression: 'version = :seen',
          ExpressionAttributeValues: { ':seen': version },
        },
      },
    ];
    if (pending.reduce((n, b) => n + b.items.length, 0) + items.length > TRANSACTION_LIMIT) await flush();
    pending.push({ indexes, items });
  }
  await flush();
  return { outcomes, alone, timeLeft };
}
