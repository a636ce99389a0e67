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
  const templates = flipsByTemplate(flips);
  const versions = await versionItems(table, [...templates.keys()]);
  const transactions = new SharedTransactions(table, flips.length, deadline);
  for (const [pk, indexes] of templates) {
    const items = templateFlipItems(
      table,
      indexes.map((i) => flips[i]),
      versions.get(pk),
      now,
    );
    if (items) await transactions.add(indexes, items);
    else transactions.alone.push(indexes);
  }
  await transactions.flush();
  return { outcomes: transactions.outcomes, alone: transactions.alone, timeLeft: () => transactions.timeLeft() };
}

/** The flips' indexes by their template's aggregate key, in the order the flips came. */
function flipsByTemplate(flips: ActiveFlip[]): Map<string, number[]> {
  const templates = new Map<string, number[]>();
  flips.forEach(({ record }, i) => {
    templates.set(aggregateKey(record), [...(templates.get(aggregateKey(record)) ?? []), i]);
  });
  return templates;
}

/** Each template's version item, by its aggregate key, read consistently. */
async function versionItems(table: ServiceTable, pks: string[]): Promise<Map<string, Record<string, unknown>>> {
  const items = await batchGet(
    table,
    pks.map((pk) => ({ pk, sk: SORT.assignmentsVersion })),
    true,
  );
  return new Map(items.map((item) => [String(item.pk), item]));
}

/**
 * One template's writes: its records' flips and its version item, or nothing when the template is to be done
 * alone (a version item written before it kept the active records, or more flips than one transaction holds).
 */
function templateFlipItems(
  table: ServiceTable,
  group: ActiveFlip[],
  version: Record<string, unknown> | undefined,
  now: string,
): TransactItem[] | undefined {
  if (!version || !Array.isArray(version.active_ids) || group.length >= TRANSACTION_LIMIT) return undefined;
  return [...group.map((flip) => recordFlip(table, flip, now)), versionPut(table, group, version)];
}

/** A record's flip, on the `updated_at` read and the value it is flipped from. */
function recordFlip(table: ServiceTable, { record, to }: ActiveFlip, now: string): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: { pk: keys.record(record.id), sk: SORT.record },
      UpdateExpression: 'SET active = :to, updated_at = :now',
      ConditionExpression: 'updated_at = :seen AND active = :from',
      ExpressionAttributeValues: { ':to': to, ':from': !to, ':now': now, ':seen': record.updated_at },
    },
  };
}

/** The template's version item after the flips: its active records and listing entry, on the version read. */
function versionPut(table: ServiceTable, group: ActiveFlip[], item: Record<string, unknown>): TransactItem {
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
  return {
    Put: {
      TableName: table.name,
      Item: entryItem(of, entry, version + 1, [...active]),
      ConditionExpression: 'version = :seen',
      ExpressionAttributeValues: { ':seen': version },
    },
  };
}

/** The templates' writes gathered into transactions of at most TRANSACTION_LIMIT items, and what became of each flip. */
class SharedTransactions {
  readonly outcomes: ActiveWrite[];
  readonly alone: number[][] = [];
  private pending: { indexes: number[]; items: TransactItem[] }[] = [];
  private slowestMs = 0;

  constructor(
    private readonly table: ServiceTable,
    flipCount: number,
    private readonly deadline?: Deadline,
  ) {
    this.outcomes = new Array<ActiveWrite>(flipCount).fill('not_processed');
  }

  /**
   * No write is begun with less time left than the margin, or than twice the slowest write so far (a table
   * slowed down by load): what was begun is done before the function's time is up (decisions §19).
   */
  timeLeft(): boolean {
    return !this.deadline || this.deadline.remainingMs() > Math.max(BULK_SAFETY_MS, 2 * this.slowestMs);
  }

  /** Adds a template's writes, writing what is pending first when they would not fit beside it. */
  async add(indexes: number[], items: TransactItem[]): Promise<void> {
    if (this.pending.reduce((n, b) => n + b.items.length, 0) + items.length > TRANSACTION_LIMIT) await this.flush();
    this.pending.push({ indexes, items });
  }

  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0 || !this.timeLeft()) return;
    const started = Date.now();
    try {
      await this.table.client.send(new TransactWriteCommand({ TransactItems: batch.flatMap((b) => b.items) }));
      this.slowestMs = Math.max(this.slowestMs, Date.now() - started);
      for (const { indexes } of batch) for (const i of indexes) this.outcomes[i] = 'written';
    } catch (error) {
      if (!cancellationCodes(error)) throw error;
      // Some record or template changed meanwhile: each template is done alone, from a fresh read.
      this.alone.push(...batch.map((b) => b.indexes));
    }
  }
}
