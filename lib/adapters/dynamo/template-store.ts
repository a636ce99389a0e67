import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type MetaTemplate, replacedRecord, type TemplateRecord } from '#lib/domain/template-record.ts';
import { revisedRecord } from '#lib/domain/meta-notifications.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import {
  AssignmentConflict,
  ChangeTooLarge,
  type ActiveFlip,
  type ActiveWrite,
  type Deadline,
  type AssignmentChange,
  type TemplateRecordStore,
  type TemplateRevision,
} from '#lib/domain/ports/templates.ts';
import { keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { type ListingCriteria, listingEntryOf } from '#lib/domain/template-listing.ts';
import type { ServiceTable } from './client.ts';
import { isTransactionConflict, TRANSACTION_LIMIT } from './transactions.ts';
import { batchGet, queryAll, stripKeys } from './queries.ts';
import { activeIdsOf, campaignHolders, countChanges, putEntry, type TransactItem } from './listing-items.ts';
import { readListingPage, readTemplateEntry, readWabaTemplates } from './listing-reader.ts';
import { inParallel } from '#lib/domain/parallel.ts';
import { recordStorageProblem } from './item-limits.ts';
import { flipInSharedTransactions } from './active-flips.ts';
import { outboxItem } from './outbox-store.ts';
import { assignmentKey, assignmentKeyItem, byAggregate, recordItem } from './record-items.ts';

/** Tries of a read-modify-write of one (client, template) before a concurrent writer's win is reported. */
const REWRITE_TRIES = 8;
/** Aggregates rewritten at once by a change that reaches several (an edit's siblings, a sync's WABA). */
const REWRITE_PARALLELISM = 8;

const isConditionFailure = (error: unknown) =>
  ['ConditionalCheckFailedException', 'TransactionCanceledException'].includes((error as Error)?.name);

/**
 * One transaction, all or nothing: too many items is ChangeTooLarge, a failed condition AssignmentConflict. A
 * cancellation by a concurrent transaction alone (two changes touching a listing count at once) is retried.
 */
async function transactAtomically(table: ServiceTable, items: TransactItem[]) {
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

/** First records registered in one transaction: each writes its record, its key and its entry, plus one count. */
const FIRST_RECORDS_PER_WRITE = 33;

/**
 * Records updated in one transaction: each may take two items (the record, and its key when it moves between
 * the live and the deleted listing), with room left for the entry, the counts and an event.
 */
const RECORDS_PER_REWRITE = 45;

type RecordUpdate = AssignmentChange['update'][number];

/** Transactions one rewrite may take: a (client, template) of 10,000 records. */
const MAX_REWRITE_CHUNKS = Math.ceil(10_000 / RECORDS_PER_REWRITE);

/** JSON with object keys sorted: two values DynamoDB and the caller hold alike compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

const chunked = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const aggregateOf = (r: TemplateRecord) => ({ wabaId: r.waba_id, templateId: r.meta_template.id, clientId: r.client_id });

/** Registers each record alone; answers those whose (client, template) had records already. */
export async function registerOneByOne(store: Pick<TemplateRecordStore, 'register'>, records: TemplateRecord[]) {
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

export class DynamoTemplateRecordStore implements TemplateRecordStore {
  constructor(private readonly table: ServiceTable) {}

  async get(id: string) {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.record(id), sk: SORT.record } }),
    );
    return stripKeys<TemplateRecord>(result.Item);
  }

  async getMany(ids: string[], consistent = false) {
    const wanted = [...new Set(ids)].map((id) => ({ pk: keys.record(id), sk: SORT.record }));
    const found = new Map<string, TemplateRecord>();
    for (const item of await batchGet(this.table, wanted, consistent)) {
      const record = stripKeys<TemplateRecord>(item)!;
      found.set(record.id, record);
    }
    return found;
  }

  async listForClient(clientId: number) {
    const items = await queryAll(this.table, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p',
      ExpressionAttributeValues: { ':p': keys.clientRecords(clientId) },
    });
    return items.map((item) => stripKeys<TemplateRecord>(item)!);
  }

  listingPage(clientId: number, criteria: ListingCriteria, page: { offset: number; size: number }) {
    return readListingPage(this.table, clientId, criteria, page);
  }

  templateEntry(clientId: number, wabaId: string, name: string, language: string) {
    return readTemplateEntry(this.table, clientId, wabaId, name, language);
  }

  templatesOfWaba(clientId: number, wabaId: string) {
    return readWabaTemplates(this.table, clientId, wabaId);
  }

  /**
   * Strongly consistent, from the base table: the (client, template)'s assignment keys and version in one
   * Query, then its records by key. A change built on this read cannot miss a sibling another request made.
   */
  async readAssignments(wabaId: string, templateId: string, clientId: number) {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': keys.assignments(wabaId, templateId, clientId) },
      ConsistentRead: true,
    });
    const version = Number(items.find((item) => item.sk === SORT.assignmentsVersion)?.version ?? 0);
    const ids = items.filter((item) => typeof item.record_id === 'string').map((item) => String(item.record_id));
    const found = await this.getMany(ids, true);
    return { records: ids.map((id) => found.get(id)).filter((r): r is TemplateRecord => r !== undefined), version };
  }

  async listForTemplate(wabaId: string, templateId: string, clientId?: number) {
    const items = await queryAll(this.table, {
      IndexName: 'gsi1',
      KeyConditionExpression: clientId === undefined ? 'gsi1pk = :p' : 'gsi1pk = :p AND begins_with(gsi1sk, :c)',
      ExpressionAttributeValues: {
        ':p': keys.template(wabaId, templateId),
        ...(clientId !== undefined && { ':c': keys.recordOfClient(clientId, '') }),
      },
    });
    return items.map((item) => stripKeys<TemplateRecord>(item)!);
  }

  /**
   * Enables or disables records (decisions §19: at most two items read per record). Every (client, template)'s
   * version item is read in one batch: it holds the entry and which records are active, so the flips move the
   * entry without reading the other records. The flips of several templates share a transaction (each record
   * on the `updated_at` read, each version item on its version), up to DynamoDB's 100 items; a transaction a
   * concurrent write cancelled is done again template by template from a fresh read of its records. Nothing is
   * begun when `deadline` says too little time is left: those flips answer `not_processed`, unwritten.
   */
  async setActive(flips: ActiveFlip[], now: string, deadline?: Deadline): Promise<ActiveWrite[]> {
    const { outcomes, alone, timeLeft } = await flipInSharedTransactions(this.table, flips, now, deadline);
    for (const indexes of alone) {
      if (!timeLeft()) break;
      const written = await this.rewriteActive(
        indexes.map((i) => flips[i]),
        now,
      );
      indexes.forEach((i, k) => {
        outcomes[i] = written[k];
      });
    }
    return outcomes;
  }

  /** One (client, template)'s flips from a fresh read of its records, in transactions of its records. */
  private async rewriteActive(flips: ActiveFlip[], now: string): Promise<ActiveWrite[]> {
    const outcomes = new Array<ActiveWrite>(flips.length);
    for (const indexes of chunked(
      flips.map((_, i) => i),
      RECORDS_PER_REWRITE,
    )) {
      const written = await this.rewrite(aggregateOf(flips[indexes[0]].record), (held) => {
        const update: RecordUpdate[] = [];
        const result = indexes.map((i): ActiveWrite => {
          const current = held.find((r) => r.id === flips[i].record.id);
          if (!current) return 'missing';
          if (current.active === flips[i].to) return 'changed_meanwhile';
          update.push({ before: current, after: { ...current, active: flips[i].to, updated_at: now } });
          return 'written';
        });
        return { update, result };
      });
      indexes.forEach((i, k) => {
        outcomes[i] = written[k];
      });
    }
    return outcomes;
  }

  /**
   * One transaction. Every record written or removed is conditioned on the `updated_at` that was read,
   * every assignment key on its absence, and the listing entry on the version read, so a concurrent change
   * makes the whole request fail cleanly.
   */
  applyAssignments(change: AssignmentChange) {
    return this.write(change, []);
  }

  private async write(change: AssignmentChange, events: ServiceEvent[]) {
    const tableName = this.table.name;
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
    items.push(
      putEntry(this.table.name, change.of, after, activeIdsOf(afterRecords)),
      ...countChanges(this.table.name, [{ before, after }]),
    );
    items.push(...events.map((event) => ({ Put: { TableName: tableName, Item: outboxItem(event) } })));
    await transactAtomically(this.table, items);
  }

  /**
   * Read-modify-write of one (client, template): its records and version read consistently, the planned
   * updates written on condition nothing changed meanwhile, planned again from a fresh read when something did.
   * More updates than one transaction holds are written a transaction at a time (each leaves the records and
   * their entry consistent), so plans must leave out what is already done.
   */
  private async rewrite<T>(
    of: { wabaId: string; templateId: string; clientId: number },
    plan: (
      records: TemplateRecord[],
      progress: { chunksWritten: number },
    ) => { update: RecordUpdate[]; result: T; events?: ServiceEvent[] },
  ): Promise<T> {
    let pending: ServiceEvent[] = [];
    let chunksWritten = 0;
    for (let attempt = 0; attempt < REWRITE_TRIES; attempt++) {
      const { records, version } = await this.readAssignments(of.wabaId, of.templateId, of.clientId);
      const planned = plan(records, { chunksWritten });
      // The events of a plan are of the records it read: they go with its first chunk, never without it.
      if (chunksWritten === 0) pending = planned.events ?? [];
      if (planned.update.length === 0) return planned.result;
      const update = planned.update.slice(0, RECORDS_PER_REWRITE);
      try {
        await this.write({ of: { ...of, version }, current: records, create: [], update, remove: [] }, pending);
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

  /**
   * Registers the first records of one or more (client, template)s in one transaction: records and keys
   * must not exist, nor the version items; each gets its listing entry, the counts move, the events go along.
   */
  async register(records: TemplateRecord[], events: ServiceEvent[]) {
    const tableName = this.table.name;
    const eventItems: TransactItem[] = events.map((event) => ({ Put: { TableName: tableName, Item: outboxItem(event) } }));
    if (records.length === 0) {
      // Events alone stand each by itself: write them in transactions of the largest size allowed.
      for (let i = 0; i < eventItems.length; i += TRANSACTION_LIMIT) {
        await this.table.client.send(new TransactWriteCommand({ TransactItems: eventItems.slice(i, i + TRANSACTION_LIMIT) }));
      }
      return;
    }
    const items: TransactItem[] = [];
    const holders = new Set([...byAggregate(records).values()].flatMap((group) => [...campaignHolders(group)]));
    for (const record of records) {
      items.push({ Put: { TableName: tableName, Item: recordItem(record), ConditionExpression: 'attribute_not_exists(pk)' } });
      items.push({
        Put: {
          TableName: tableName,
          Item: assignmentKeyItem(record, holders.has(record.id)),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
    }
    const entries = [...byAggregate(records).values()].map((group) => ({ group, entry: listingEntryOf(group) }));
    for (const { group, entry } of entries)
      items.push(putEntry(this.table.name, { ...aggregateOf(group[0]), version: 0 }, entry, activeIdsOf(group), true));
    items.push(
      ...countChanges(
        this.table.name,
        entries.map(({ entry }) => ({ before: null, after: entry })),
      ),
    );
    items.push(...eventItems);
    await transactAtomically(this.table, items);
  }

  /**
   * Batches of first records, one transaction after the other: they all move the client's listing count, so
   * running them at once only makes them cancel each other. A refused batch is written one record at a time.
   */
  async registerEach(records: TemplateRecord[]) {
    const refused: TemplateRecord[] = [];
    for (const chunk of chunked(records, FIRST_RECORDS_PER_WRITE)) {
      try {
        await this.register(chunk, []);
      } catch (error) {
        if (!(error instanceof AssignmentConflict)) throw error;
        // One of them was registered meanwhile (a create): the others one at a time.
        refused.push(...(await registerOneByOne(this, chunk)));
      }
    }
    return { refused };
  }

  storageProblem(record: TemplateRecord) {
    return recordStorageProblem(record);
  }

  async markDeleted(records: TemplateRecord[], deleted: boolean, now: string) {
    const ids = new Set(records.map((r) => r.id));
    await inParallel([...byAggregate(records).values()], REWRITE_PARALLELISM, (group) =>
      this.rewrite(aggregateOf(group[0]), (held) => ({
        update: held
          .filter((r) => ids.has(r.id) && Boolean(r.deleted) !== deleted)
          .map((r) => ({ before: r, after: { ...r, deleted, updated_at: now } })),
        result: undefined,
      })),
    );
  }

  /**
   * Every record of the (client, template) takes the revised template; the events go with the first write. A
   * (client, template) larger than one transaction is written a transaction at a time: once the first is
   * written, the revision decided then is carried to the records not yet revised (asking `revise` again would
   * see half of them revised already).
   */
  async reviseTemplate(
    of: { wabaId: string; templateId: string; clientId: number },
    revise: (records: TemplateRecord[]) => TemplateRevision | null,
    now: string,
    source: 'sync' | 'webhook',
  ) {
    let decided: TemplateRevision | null = null;
    return this.rewrite(of, (held, { chunksWritten }) => {
      // Until this call has written, every read is decided afresh (a concurrent writer may have brought the news).
      const revision = chunksWritten > 0 ? decided : held.length > 0 ? revise(held) : null;
      decided = revision;
      if (!revision) return { update: [], result: { revised: false, events: [] as ServiceEvent[] } };
      const target = canonical(revision.meta);
      const done = (r: TemplateRecord) => chunksWritten > 0 && r.updated_at === now && canonical(r.meta_template) === target;
      return {
        update: held.filter((r) => !done(r)).map((r) => ({ before: r, after: revisedRecord(r, revision, now, source) })),
        result: { revised: true, events: revision.events },
        events: revision.events,
      };
    });
  }

  /**
   * Each (client, template) of the records in one transaction with its listing entry; the events go with the
   * first, so a change and its event are never written one without the other.
   */
  async replaceMetaTemplate(records: TemplateRecord[], meta: MetaTemplate, source: 'edit' | 'sync', now: string, heldSince = now) {
    const ids = new Set(records.map((r) => r.id));
    const replaced = (r: TemplateRecord) => replacedRecord(r, meta, source, now, heldSince);
    const groups = [...byAggregate(records).values()];
    const target = canonical(meta);
    await inParallel(groups, REWRITE_PARALLELISM, (group) =>
      this.rewrite(aggregateOf(group[0]), (held) => ({
        update: held.filter((r) => ids.has(r.id) && canonical(r.meta_template) !== target).map((r) => ({ before: r, after: replaced(r) })),
        result: undefined,
      })),
    );
  }
}
