import {
  BatchGetCommand,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchGetCommandInput,
  type BatchGetCommandOutput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { headerTypeOf, type MetaTemplate, type TemplateRecord } from '#lib/domain/template-record.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import {
  AssignmentConflict,
  ChangeTooLarge,
  type ActiveWrite,
  type AssignmentChange,
  type TemplateRecordStore,
} from '#lib/domain/ports.ts';
import { keys, OUTBOX_PARTITION, SORT } from '#lib/adapters/dynamo/table.ts';
import { dynamo, tableName } from './client.ts';
import { queryAll, stripKeys } from './directory-store.ts';
import { recordStorageProblem } from './item-limits.ts';
import { assignmentKey, assignmentKeyItem, recordItem } from './record-items.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit of items in one transaction. */
export const TRANSACTION_LIMIT = 100;

const isConditionFailure = (error: unknown) =>
  ['ConditionalCheckFailedException', 'TransactionCanceledException'].includes((error as Error)?.name);

/**
 * Moves a (client, template)'s version from the one read to the next, on condition it is still the one read
 * (a version never written counts as 0; `fresh` demands that none exists).
 */
function versionBump(wabaId: string, templateId: string, clientId: number, seen: number, fresh = false): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: { pk: keys.assignments(wabaId, templateId, clientId), sk: SORT.assignmentsVersion },
      UpdateExpression: 'SET version = :next, entity = :entity',
      ConditionExpression: fresh
        ? 'attribute_not_exists(pk)'
        : seen === 0
          ? 'attribute_not_exists(pk) OR version = :seen'
          : 'version = :seen',
      ExpressionAttributeValues: { ':next': seen + 1, ':entity': 'assignments_version', ...(!fresh && { ':seen': seen }) },
    },
  };
}

/** One transaction, all or nothing: too many items is ChangeTooLarge, a failed condition AssignmentConflict. */
async function transactAtomically(items: TransactItem[]) {
  if (items.length > TRANSACTION_LIMIT) throw new ChangeTooLarge(`${items.length} items exceed one transaction`);
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (isConditionFailure(error)) throw new AssignmentConflict();
    throw error;
  }
}

export class DynamoTemplateRecordStore implements TemplateRecordStore {
  async get(id: string) {
    const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: { pk: keys.record(id), sk: SORT.record } }));
    return stripKeys<TemplateRecord>(result.Item);
  }

  async getMany(ids: string[], consistent = false) {
    const found = new Map<string, TemplateRecord>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 100) {
      let request: BatchGetCommandInput['RequestItems'] = {
        [tableName()]: {
          Keys: unique.slice(i, i + 100).map((id) => ({ pk: keys.record(id), sk: SORT.record })),
          ConsistentRead: consistent,
        },
      };
      for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
        const result: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({ RequestItems: request }));
        for (const item of result.Responses?.[tableName()] ?? []) {
          const record = stripKeys<TemplateRecord>(item)!;
          found.set(record.id, record);
        }
        request = result.UnprocessedKeys;
        if (request && Object.keys(request).length > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      }
    }
    return found;
  }

  async listForClient(clientId: number) {
    const items = await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p',
      ExpressionAttributeValues: { ':p': keys.clientRecords(clientId) },
    });
    return items.map((item) => stripKeys<TemplateRecord>(item)!);
  }

  /**
   * Strongly consistent, from the base table: the (client, template)'s assignment keys and version in one
   * Query, then its records by key. A change built on this read cannot miss a sibling another request made.
   */
  async readAssignments(wabaId: string, templateId: string, clientId: number) {
    const items = await queryAll({
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
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: clientId === undefined ? 'gsi1pk = :p' : 'gsi1pk = :p AND begins_with(gsi1sk, :c)',
      ExpressionAttributeValues: {
        ':p': keys.template(wabaId, templateId),
        ...(clientId !== undefined && { ':c': keys.recordOfClient(clientId, '') }),
      },
    });
    return items.map((item) => stripKeys<TemplateRecord>(item)!);
  }

  async setActive(id: string, from: boolean, to: boolean, now: string): Promise<ActiveWrite> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: keys.record(id), sk: SORT.record },
          UpdateExpression: 'SET active = :to, updated_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND active = :from',
          ExpressionAttributeValues: { ':to': to, ':from': from, ':now': now },
        }),
      );
      return 'written';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get(id)) ? 'changed_meanwhile' : 'missing';
    }
  }

  /**
   * One transaction. Every record written or removed is conditioned on the `updated_at` that was read,
   * and every assignment key on its absence, so a concurrent change makes the whole request fail cleanly.
   */
  async applyAssignments(change: AssignmentChange) {
    const table = tableName();
    const items: TransactItem[] = [];
    const unchanged = (record: TemplateRecord) => ({
      ConditionExpression: 'updated_at = :seen',
      ExpressionAttributeValues: { ':seen': record.updated_at },
    });
    for (const record of change.create) {
      items.push({ Put: { TableName: table, Item: recordItem(record), ConditionExpression: 'attribute_not_exists(pk)' } });
      items.push({ Put: { TableName: table, Item: assignmentKeyItem(record), ConditionExpression: 'attribute_not_exists(pk)' } });
    }
    for (const { before, after } of change.update) {
      items.push({ Put: { TableName: table, Item: recordItem(after), ...unchanged(before) } });
      const oldKey = assignmentKey(before);
      const newKey = assignmentKey(after);
      if (oldKey.sk !== newKey.sk) {
        items.push({ Delete: { TableName: table, Key: oldKey } });
        items.push({ Put: { TableName: table, Item: assignmentKeyItem(after), ConditionExpression: 'attribute_not_exists(pk)' } });
      }
    }
    for (const record of change.remove) {
      items.push({ Delete: { TableName: table, Key: { pk: keys.record(record.id), sk: SORT.record }, ...unchanged(record) } });
      items.push({ Delete: { TableName: table, Key: assignmentKey(record) } });
    }
    if (items.length === 0) return;
    items.push(versionBump(change.of.wabaId, change.of.templateId, change.of.clientId, change.of.version));
    await transactAtomically(items);
  }

  async register(records: TemplateRecord[], events: ServiceEvent[]) {
    const table = tableName();
    const items: TransactItem[] = [];
    for (const record of records) {
      items.push({ Put: { TableName: table, Item: recordItem(record), ConditionExpression: 'attribute_not_exists(pk)' } });
      items.push({ Put: { TableName: table, Item: assignmentKeyItem(record), ConditionExpression: 'attribute_not_exists(pk)' } });
    }
    const eventItems: TransactItem[] = events.map((event) => ({ Put: { TableName: table, Item: outboxItem(event) } }));
    if (records.length === 0) {
      // Events alone stand each by itself: write them in transactions of the largest size allowed.
      for (let i = 0; i < eventItems.length; i += TRANSACTION_LIMIT) {
        await dynamo().send(new TransactWriteCommand({ TransactItems: eventItems.slice(i, i + TRANSACTION_LIMIT) }));
      }
      return;
    }
    // The first records of a (client, template): its version must not exist yet.
    const groups = new Map(records.map((r) => [keys.assignments(r.waba_id, r.meta_template.id, r.client_id), r]));
    for (const r of groups.values()) items.push(versionBump(r.waba_id, r.meta_template.id, r.client_id, 0, true));
    items.push(...eventItems);
    await transactAtomically(items);
  }

  storageProblem(record: TemplateRecord) {
    return recordStorageProblem(record);
  }

  markDeleted(records: TemplateRecord[], deleted: boolean, now: string) {
    return updateEach(records, 'SET deleted = :d, updated_at = :now', { ':d': deleted, ':now': now });
  }

  async replaceMetaTemplate(
    records: TemplateRecord[],
    meta: MetaTemplate,
    source: 'edit' | 'sync',
    now: string,
    events: ServiceEvent[] = [],
  ) {
    // headerType derives from the components, so it changes with them (never left stale by an edit or a sync).
    const expression = 'SET meta_template = :m, headerType = :h, syncMeta = :s, updated_at = :now';
    const values = { ':m': meta, ':h': headerTypeOf(meta.components), ':s': { synced_at: now, source }, ':now': now };
    if (events.length === 0) return updateEach(records, expression, values);
    // With events: the records and the events in one transaction (a record removed meanwhile fails it, and
    // the next run retries).
    await transactAtomically([
      ...records.map((record) => ({
        Update: {
          TableName: tableName(),
          Key: { pk: keys.record(record.id), sk: SORT.record },
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: values,
        },
      })),
      ...events.map((event) => ({ Put: { TableName: tableName(), Item: outboxItem(event) } })),
    ]);
  }
}

/**
 * One UpdateItem per record: each record is whole at every moment and a retry converges. A record removed
 * meanwhile (its condition fails) needs no update.
 */
async function updateEach(records: TemplateRecord[], expression: string, values: Record<string, unknown>) {
  await Promise.all(
    records.map((record) =>
      dynamo()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: keys.record(record.id), sk: SORT.record },
            UpdateExpression: expression,
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: values,
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        }),
    ),
  );
}

export function outboxItem(event: ServiceEvent): Record<string, unknown> {
  return {
    pk: keys.outbox(event.id),
    sk: SORT.outbox,
    entity: 'outbox_event',
    gsi1pk: OUTBOX_PARTITION,
    gsi1sk: keys.outboxOrder(event.occurred_at, event.id),
    event,
  };
}
