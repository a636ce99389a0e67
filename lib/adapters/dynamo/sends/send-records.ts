import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { inParallel } from '#lib/domain/shared/parallel.ts';
import { NO_COUNTS } from '#lib/domain/sends/send-status.ts';
import type { SendCounts, SendRecord, SendRecords } from '#lib/domain/sends/ports.ts';
import type { ServiceTable } from '../client.ts';
import { queryFirst, stripKeys } from '../queries.ts';
import { outboxItem } from '../webhooks/outbox-store.ts';
import { cancellationCodes, type TransactItem } from '../transactions.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { keys, SORT } from '../table.ts';
import { MESSAGE_STATES } from './latest-states.ts';
import { COST, COUNT_FIELDS, ERROR, setOnce, TITLE, transact } from './send-items.ts';

/**
 * Sends by id, and a client's queued sends newest first on gsi1 (docs/data-model.md). The counts are the send
 * item's plus SEND_COUNT_SHARDS shards beside it, each written by whole blocks and batches of statuses.
 */
export class DynamoSendRecords implements SendRecords {
  constructor(private readonly table: ServiceTable) {}

  async begin(send: SendRecord) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: keys.send(send.send_id),
          sk: SORT.send,
          entity: 'send',
          ...send,
          // Its messages' states on its blocks' latest items, a third of a block each (latest-states.ts).
          message_states: MESSAGE_STATES.thirds,
          counts: { ...NO_COUNTS, ...send.counts },
          error_counts: {},
          error_titles: {},
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  /** `queued` also puts the send in its client's list and counts it there, together. */
  async settle(send: SendRecord, status: 'queued' | 'abandoned') {
    const sendId = send.send_id;
    const condition = {
      ConditionExpression: '#s = :queuing',
      ExpressionAttributeNames: { '#s': 'status' },
    };
    if (status === 'abandoned') {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET #s = :s',
          ...condition,
          ExpressionAttributeValues: { ':s': status, ':queuing': 'queuing' },
        }),
      );
      return;
    }
    // Concurrent sends of one client meet on its count: a conflict is tried again.
    await transact(this.table, () => [
      {
        Update: {
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET #s = :s, gsi1pk = :gpk, gsi1sk = :gsk',
          ...condition,
          ExpressionAttributeValues: {
            ':s': status,
            ':queuing': 'queuing',
            ':gpk': keys.clientSends(send.client_id),
            ':gsk': keys.sendOrder(send.created_at, sendId),
          },
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: { pk: keys.client(send.client_id), sk: SORT.sendCount },
          UpdateExpression: 'ADD #n :one',
          ExpressionAttributeNames: { '#n': 'sends' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ]);
  }

  /** The send and its count shards: one Query of the send's partition (they sort as `SEND…`). */
  async get(sendId: string) {
    const read = await sendWithShards(this.table, sendId);
    return read ? toSend(read.item, read.shards) : null;
  }

  /** One page: reads the page's items and the ones before it on the index, the client's count, and each send's counts. */
  async list(clientId: number, page: { offset: number; size: number }) {
    const count = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SORT.sendCount } }),
    );
    const total = Number(count.Item?.sends ?? 0);
    // A page past the end reads nothing more, however many sends the client has.
    if (page.offset >= total) return { sends: [], total };
    const items = await queryFirst(
      this.table,
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.clientSends(clientId) },
        ScanIndexForward: false,
        ProjectionExpression: 'pk',
      },
      page.offset + page.size,
    );
    const ids = items.slice(page.offset).map((item) => String(item.pk).slice('SEND#'.length));
    const sends = await inParallel(ids, 10, (id) => this.get(id));
    return { sends: sends.filter((s): s is SendRecord => s !== null), total };
  }

  async cancel(sendId: string, at: string) {
    await setOnce(this.table, sendId, 'cancelled_at', at);
  }

  /** `paused` set, with its event in the outbox, in one transaction; false when the send was paused already. */
  async pause(sendId: string, until: string, event: ServiceEvent) {
    return this.withEvent(event, {
      Key: { pk: keys.send(sendId), sk: SORT.send },
      UpdateExpression: 'SET paused = :p',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(paused)',
      ExpressionAttributeValues: { ':p': { since: event.occurred_at, until } },
    });
  }

  async resume(sendId: string, event: ServiceEvent) {
    return this.withEvent(event, {
      Key: { pk: keys.send(sendId), sk: SORT.send },
      UpdateExpression: 'REMOVE paused',
      ConditionExpression: 'attribute_exists(paused)',
    });
  }

  /** An update of the send and its event's outbox item together: false when the update's condition fails. */
  private async withEvent(event: ServiceEvent, update: Record<string, unknown>) {
    try {
      await transact(this.table, () => [
        { Update: { TableName: this.table.name, ...update } } as TransactItem,
        { Put: { TableName: this.table.name, Item: outboxItem(event) } },
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  /** `resent_as` gains the new send (a list: a send may be resent more than once). */
  async markResent(sendId: string, resentAs: string) {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: { pk: keys.send(sendId), sk: SORT.send },
        UpdateExpression: 'SET resent_as = list_append(if_not_exists(resent_as, :none), :one)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':none': [], ':one': [resentAs] },
      }),
    );
  }

  async isCancelled(sendId: string) {
    const result = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: { pk: keys.send(sendId), sk: SORT.send },
        ProjectionExpression: 'cancelled_at',
        ConsistentRead: true,
      }),
    );
    return result.Item?.cancelled_at !== undefined;
  }

  async stop(sendId: string, reason: { code: string; title: string }) {
    await setOnce(this.table, sendId, 'stopped', reason);
  }
}

/**
 * The stored send as the domain's send: the counts the send item holds (sends recorded before the count
 * shards kept them there) plus every shard's, and the error tally as a list.
 */
/** A send's item and its count shards, in one consistent Query of its partition (they sort as `SEND…`); null when absent. */
export async function sendWithShards(table: ServiceTable, sendId: string) {
  const result = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :send)',
      ExpressionAttributeValues: { ':pk': keys.send(sendId), ':send': SORT.send },
      ConsistentRead: true,
    }),
  );
  const items = result.Items ?? [];
  const item = items.find((i) => i.sk === SORT.send);
  return item ? { item, shards: items.filter((i) => i.sk !== SORT.send) } : null;
}

export function toSend(item: Record<string, unknown>, shards: Record<string, unknown>[]): SendRecord {
  const {
    counts,
    error_counts,
    error_titles,
    gsi1pk: _p,
    gsi1sk: _s,
    message_states: _m,
    ...rest
  } = stripKeys<Record<string, unknown>>(item) ?? {};
  const total: SendCounts = { ...NO_COUNTS, ...(counts as Partial<SendCounts>) };
  const tallies = new Map(Object.entries((error_counts ?? {}) as Record<string, number>));
  const titles = new Map(Object.entries((error_titles ?? {}) as Record<string, string>));
  const charges: NonNullable<SendRecord['charges']> = {};
  const chargeOf = (category: string) => {
    charges[category] ??= { messages: 0, billable: 0, micros: 0 };
    return charges[category];
  };
  for (const shard of shards) {
    for (const field of COUNT_FIELDS) total[field] += Number(shard[field] ?? 0);
    for (const [name, value] of Object.entries(shard)) {
      if (name.startsWith(COST.messages)) chargeOf(name.slice(COST.messages.length)).messages += Number(value);
      else if (name.startsWith(COST.billable)) chargeOf(name.slice(COST.billable.length)).billable += Number(value);
      else if (name.startsWith(COST.micros)) chargeOf(name.slice(COST.micros.length)).micros += Number(value);
      else if (name.startsWith(COST.price)) {
        const charge = chargeOf(name.slice(COST.price.length));
        charge.price_micros = (charge.price_micros ?? 0) + Number(value);
      } else if (name.startsWith(ERROR))
        tallies.set(name.slice(ERROR.length), (tallies.get(name.slice(ERROR.length)) ?? 0) + Number(value));
      else if (name.startsWith(TITLE)) titles.set(name.slice(TITLE.length), String(value));
    }
  }
  return {
    ...(rest as unknown as SendRecord),
    counts: total,
    ...(Object.keys(charges).length > 0 && { charges }),
    errors: [...tallies.entries()]
      // A failure taken back (the message was delivered after all) leaves its code at 0.
      .filter(([, count]) => count > 0)
      .map(([code, count]) => ({ code, title: titles.get(code) ?? code, count }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}
