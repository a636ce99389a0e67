import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { AssignmentConflict, type AssignmentChange, ChangeTooLarge, type TemplateRecords } from '#lib/domain/templates/ports.ts';
import { listingEntryOf } from '#lib/domain/templates/template-listing.ts';
import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import type { ServiceTable } from '../client.ts';
import { activeIdsOf, campaignHolders, countChanges, putEntry, type TransactItem } from './listing-items.ts';
import { outboxItem } from '../webhooks/outbox-store.ts';
import { batchGet, queryAll, stripKeys } from '../queries.ts';
import { assignmentKey, assignmentKeyItem, recordItem } from './record-items.ts';
import { keys, SORT } from '../table.ts';
import { isTransactionConflict, TRANSACTION_LIMIT } from '../transactions.ts';

// The writes the template records and their assignments share (lib/adapters/dynamo/templates/template-records.ts and
// template-assignments.ts): one (client, template)'s records, keys, listing entry and counts change together.

/** Tries of a read-modify-write of one (client, template) before a concurrent writer's win is reported. */
const REWRITE_TRIES = 8;
/** Aggregates rewritten at once by a change that reaches several (an edit's siblings, a sync's WABA). */
export const REWRITE_PARALLELISM = 8;

const isConditionFailure = (error: unknown) =>
  ['ConditionalCheckFailedException', 'TransactionCanceledException'].includes((error as Error)?.name);

/**
 * One transaction, all or nothing: too many items is ChangeTooLarge, a failed condition AssignmentConflict. A
 * cancellation by a concurrent transaction alone (two changes touching a listing count at once) is retried.
 */
export async function transactAtomically(table: ServiceTable, items: TransactItem[]) {
  if (items.length > TRANSACTION_LIMIT) throw new ChangeTooLarge(`${items.length} items exceed one transaction`);
  for (let attempt = 0; ; attempt++) {
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (isTransactionConflict(error) && attempt < 4) {
        await new Promise((r) => setTimeout(r, 10 * 2 ** attempt + Math.random() * 20));
        continue;
      }
      if (isConditionFailure(error)) throw new AssignmentConflict();
      throw error;
    }
  }
}

/**
 * Records updated in one transaction: each may take two items (the record, and its key when it moves between
 * the live and the deleted listing), with room left for the entry, the counts and an event.
 */
export const RECORDS_PER_REWRITE = 45;

export type RecordUpdate = AssignmentChange['update'][number];

/** Transactions one rewrite may take: a (client, template) of 10,000 records. */
const MAX_REWRITE_CHUNKS = Math.ceil(10_000 / RECORDS_PER_REWRITE);

/** JSON with object keys sorted: two values DynamoDB and the caller hold alike compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

export const chunked = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export const aggregateOf = (r: TemplateRecord) => ({ wabaId: r.waba_id, templateId: r.meta_template.id, clientId: r.client_id });

/** Registers each record alone; answers those whose (client, template) had records already. */
export async function registerOneByOne(store: Pick<TemplateRecords, 'register'>, records: TemplateRecord[]) {
  const refused: TemplateRecord[] = [];
  for (const record of records) {
    await store.register([record], []).catch((error: unknown) => {
      if (!(error instanceof AssignmentConflict)) throw error;
      refused.push(record);
    });
  }
  return refused;
}

/** The client's records of the template once the change is applied. */
function recordsAfter(change: AssignmentChange): TemplateRecord[] {
  const after = new Map(change.current.map((r) => [r.id, r]));
  for (const r of change.remove) after.delete(r.id);
  for (const { before, after: changed } of change.update) {
    after.delete(before.id);
    after.set(changed.id, changed);
  }
  for (const r of change.create) after.set(r.id, r);
  return [...after.values()];
}

/** Records by id (consistently, for a change built on them). */
export async function recordsById(table: ServiceTable, ids: string[], consistent = false) {
  const wanted = [...new Set(ids)].map((id) => ({ pk: keys.record(id), sk: SORT.record }));
  const found = new Map<string, TemplateRecord>();
  for (const item of await batchGet(table, wanted, consistent)) {
    const record = stripKeys<TemplateRecord>(item)!;
    found.set(record.id, record);
  }
  return found;
}

/**
 * Strongly consistent, from the base table: the (client, template)'s assignment keys and version in one
 * Query, then its records by key. A change built on this read cannot miss a sibling another request made.
 */
export async function readAssignmentsOf(table: ServiceTable, wabaId: string, templateId: string, clientId: number) {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :p',
    ExpressionAttributeValues: { ':p': keys.assignments(wabaId, templateId, clientId) },
    ConsistentRead: true,
  });
  const version = Number(items.find((item) => item.sk === SORT.assignmentsVersion)?.version ?? 0);
  const ids = items.filter((item) => typeof item.record_id === 'string').map((item) => String(item.record_id));
  const found = await recordsById(table, ids, true);
  return { records: ids.map((id) => found.get(id)).filter((r): r is TemplateRecord => r !== undefined), version };
}

/**
 * One transaction. Every record written or removed is conditioned on the `updated_at` that was read,
 * every assignment key on its absence, and the listing entry on the version read, so a concurrent change
 * makes the whole request fail cleanly. The events go to the outbox in the same transaction.
 */
export async function writeChange(table: ServiceTable, change: AssignmentChange, events: ServiceEvent[]) {
  const tableName = table.name;
  const items: TransactItem[] = [];
  const unchanged = (record: TemplateRecord) => ({
    ConditionExpression: 'updated_at = :seen',
    ExpressionAttributeValues: { ':seen': record.updated_at },
  });
  const afterRecords = recordsAfter(change);
  const heldBefore = campaignHolders(change.current);
  const heldAfter = campaignHolders(afterRecords);
  const keyItem = (record: TemplateRecord) => assignmentKeyItem(record, heldAfter.has(record.id));
  const keysWritten = new Set<string>();
  for (const record of change.create) {
    items.push({ Put: { TableName: tableName, Item: recordItem(record), ConditionExpression: 'attribute_not_exists(pk)' } });
    items.push({ Put: { TableName: tableName, Item: keyItem(record), ConditionExpression: 'attribute_not_exists(pk)' } });
    keysWritten.add(record.id);
  }
  for (const { before, after } of change.update) {
    items.push({ Put: { TableName: tableName, Item: recordItem(after), ...unchanged(before) } });
    const oldKey = assignmentKey(before);
    const newKey = assignmentKey(after);
    if (oldKey.sk !== newKey.sk) {
      items.push({ Delete: { TableName: tableName, Key: oldKey } });
      items.push({ Put: { TableName: tableName, Item: keyItem(after), ConditionExpression: 'attribute_not_exists(pk)' } });
      keysWritten.add(after.id);
    } else if (Boolean(before.deleted) !== Boolean(after.deleted)) {
      // The key's campaign facet moves between the live and the deleted listing with its record.
      items.push({ Put: { TableName: tableName, Item: keyItem(after) } });
      keysWritten.add(after.id);
    }
  }
  for (const record of change.remove) {
    items.push({ Delete: { TableName: tableName, Key: { pk: keys.record(record.id), sk: SORT.record }, ...unchanged(record) } });
    items.push({ Delete: { TableName: tableName, Key: assignmentKey(record) } });
  }
  if (items.length === 0) return;
  // A kept key whose record starts or stops holding its campaign's facet is written again.
  for (const record of afterRecords) {
    if (!keysWritten.has(record.id) && heldBefore.has(record.id) !== heldAfter.has(record.id)) {
      items.push({ Put: { TableName: tableName, Item: keyItem(record) } });
    }
  }
  const before = listingEntryOf(change.current);
  const after = listingEntryOf(afterRecords);
  items.push(putEntry(tableName, change.of, after, activeIdsOf(afterRecords)), ...countChanges(tableName, [{ before, after }]));
  items.push(...events.map((event) => ({ Put: { TableName: tableName, Item: outboxItem(event) } })));
  await transactAtomically(table, items);
}

/**
 * Read-modify-write of one (client, template): its records and version read consistently, the planned
 * updates written on condition nothing changed meanwhile, planned again from a fresh read when something did.
 * More updates than one transaction holds are written a transaction at a time (each leaves the records and
 * their entry consistent), so plans must leave out what is already done.
 */
export async function rewrite<T>(
  table: ServiceTable,
  of: { wabaId: string; templateId: string; clientId: number },
  plan: (records: TemplateRecord[], progress: { chunksWritten: number }) => { update: RecordUpdate[]; result: T; events?: ServiceEvent[] },
): Promise<T> {
  let pending: ServiceEvent[] = [];
  let chunksWritten = 0;
  for (let attempt = 0; attempt < REWRITE_TRIES; attempt++) {
    const { records, version } = await readAssignmentsOf(table, of.wabaId, of.templateId, of.clientId);
    const planned = plan(records, { chunksWritten });
    // The events of a plan are of the records it read: they go with its first chunk, never without it.
    if (chunksWritten === 0) pending = planned.events ?? [];
    if (planned.update.length === 0) return planned.result;
    const update = planned.update.slice(0, RECORDS_PER_REWRITE);
    try {
      await writeChange(table, { of: { ...of, version }, current: records, create: [], update, remove: [] }, pending);
    } catch (error) {
      if (!(error instanceof AssignmentConflict)) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * (attempt + 1)));
      continue;
    }
    pending = [];
    if (planned.update.length === update.length) return planned.result;
    // Progress made: the rest gets its own tries (a plan that never empties is a bug, not a reason to loop).
    if (++chunksWritten > MAX_REWRITE_CHUNKS) throw new Error('A rewrite planned more updates than the records it reads');
    attempt = -1;
  }
  throw new AssignmentConflict();
}
