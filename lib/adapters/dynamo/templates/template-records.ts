import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { revisedRecord } from '#lib/domain/templates/template-notifications.ts';
import { inParallel } from '#lib/domain/shared/parallel.ts';
import { AssignmentConflict, type TemplateRecords, type TemplateRevision } from '#lib/domain/templates/ports.ts';
import { listingEntryOf } from '#lib/domain/templates/template-listing.ts';
import { type MetaTemplate, replacedRecord, type TemplateRecord } from '#lib/domain/templates/template-record.ts';
import type { ServiceTable } from '../client.ts';
import { recordStorageProblem } from '../item-limits.ts';
import { activeIdsOf, campaignHolders, countChanges, putEntry, type TransactItem } from './listing-items.ts';
import { outboxItem } from '../webhooks/outbox-store.ts';
import { queryAll, stripKeys } from '../queries.ts';
import { assignmentKeyItem, byAggregate, recordItem } from './record-items.ts';
import { keys, SORT } from '../table.ts';
import {
  aggregateOf,
  canonical,
  chunked,
  REWRITE_PARALLELISM,
  recordsById,
  registerOneByOne,
  rewrite,
  transactAtomically,
} from './template-writes.ts';
import { TRANSACTION_LIMIT } from '../transactions.ts';

/** First records registered in one transaction: each writes its record, its key and its entry, plus one count. */
const FIRST_RECORDS_PER_WRITE = 33;

/** Template records (decisions §3) on the table: each change with its listing entry, counts and events. */
export class DynamoTemplateRecords implements TemplateRecords {
  constructor(private readonly table: ServiceTable) {}

  async get(id: string) {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.record(id), sk: SORT.record } }),
    );
    return stripKeys<TemplateRecord>(result.Item);
  }

  getMany(ids: string[]) {
    return recordsById(this.table, ids);
  }

  async listForClient(clientId: number) {
    const items = await queryAll(this.table, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p',
      ExpressionAttributeValues: { ':p': keys.clientRecords(clientId) },
    });
    return items.map((item) => stripKeys<TemplateRecord>(item)!);
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
      items.push(putEntry(tableName, { ...aggregateOf(group[0]), version: 0 }, entry, activeIdsOf(group), true));
    items.push(
      ...countChanges(
        tableName,
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
      rewrite(this.table, aggregateOf(group[0]), (held) => ({
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
    return rewrite(this.table, of, (held, { chunksWritten }) => {
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
      rewrite(this.table, aggregateOf(group[0]), (held) => ({
        update: held.filter((r) => ids.has(r.id) && canonical(r.meta_template) !== target).map((r) => ({ before: r, after: replaced(r) })),
        result: undefined,
      })),
    );
  }
}
