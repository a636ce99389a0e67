import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DAY_MS, DAY_SECONDS, dayOf, dayStartMs } from '#lib/domain/shared/calendar.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { DeliveryLog } from '#lib/domain/webhooks/ports.ts';
import { DELIVERY_STATUSES, DeliveryChanged, type DeliveryStatus, type WebhookDelivery } from '#lib/domain/webhooks/webhook.ts';
import type { ServiceTable } from '../client.ts';
import { queryFirst, stripKeys } from '../queries.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';
import { cancellationCodes, type TransactItem, transactWrite } from '../transactions.ts';

/** Deliveries are kept for this many whole days after the day they were made, then expire (their counts with them). */
export const DELIVERY_DAYS = 30;
/** An event larger than this is not kept with its delivery (an item holds 400 KB): such a delivery cannot be replayed. */
const MAX_KEPT_EVENT_BYTES = 300_000;
/** The end of the delivery's retention: whole days, so a day's count item and its deliveries leave together. */
const expiresAt = (createdAt: string, extraDays = 0) =>
  Math.floor(dayStartMs(dayOf(createdAt)) / 1000) + (DELIVERY_DAYS + 1 + extraDays) * DAY_SECONDS;

/**
 * The delivery log (docs/data-model.md): `DELIVERY#<id>` items on gsi1 (the client's, newest first) and gsi2
 * (the client's of one status), and per client and day the counts by status, moved in the same transaction as
 * the status, so a page's total is a read of at most 31 small items, never of the deliveries. Expired items
 * (TTL deletes them within days) are filtered out of every read.
 */
export class DynamoDeliveryLog implements DeliveryLog {
  constructor(private readonly table: ServiceTable) {}

  async get(id: string) {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.delivery(id), sk: SORT.delivery }, ConsistentRead: true }),
    );
    const item = result.Item;
    if (!item || Number(item[TTL_ATTRIBUTE]) <= Date.now() / 1000) return null;
    const { event, ...delivery } = stripKeys<WebhookDelivery & { event?: ServiceEvent }>(item)!;
    return { delivery, ...(event && { event }) };
  }

  async save(delivery: WebhookDelivery, event: ServiceEvent, previous: WebhookDelivery | null) {
    const order = keys.deliveryOrder(delivery.created_at, delivery.id);
    const kept = Buffer.byteLength(JSON.stringify(event)) <= MAX_KEPT_EVENT_BYTES;
    const item: Record<string, unknown> = {
      pk: keys.delivery(delivery.id),
      sk: SORT.delivery,
      entity: 'webhook_delivery',
      gsi1pk: keys.clientDeliveries(delivery.client_id),
      gsi1sk: order,
      gsi2pk: keys.clientDeliveries(delivery.client_id, delivery.status),
      gsi2sk: order,
      [TTL_ATTRIBUTE]: expiresAt(delivery.created_at),
      ...Object.fromEntries(Object.entries(delivery).filter(([, v]) => v !== undefined)),
      ...(kept && { event }),
    };
    const put: TransactItem = {
      Put: {
        TableName: this.table.name,
        Item: item,
        ...(previous
          ? {
              ConditionExpression: 'attempts = :attempts AND #status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':attempts': previous.attempts, ':status': previous.status },
            }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    };
    const moves: Partial<Record<DeliveryStatus, number>> = {};
    if (!previous || previous.status !== delivery.status) {
      moves[delivery.status] = 1;
      if (previous) moves[previous.status] = -1;
    }
    const items = [put];
    if (Object.keys(moves).length > 0) {
      const names = Object.fromEntries(Object.keys(moves).map((status) => [`#${status}`, status]));
      const values = Object.fromEntries(Object.entries(moves).map(([status, n]) => [`:${status}`, n]));
      items.push({
        Update: {
          TableName: this.table.name,
          Key: { pk: keys.client(delivery.client_id), sk: keys.deliveryCounts(dayOf(delivery.created_at)) },
          UpdateExpression: `ADD ${Object.keys(moves)
            .map((status) => `#${status} :${status}`)
            .join(', ')} SET #ttl = :ttl, entity = :entity`,
          ExpressionAttributeNames: { ...names, '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ...values, ':ttl': expiresAt(delivery.created_at, 1), ':entity': 'delivery_counts' },
        },
      });
    }
    try {
      await transactWrite(this.table, items);
    } catch (error) {
      if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw new DeliveryChanged();
      throw error;
    }
  }

  /**
   * The day counts for the total, then (unless the page lies past it) the page's keys and the ones before it on
   * the index, newest first: a page past the end reads the counts alone, however many deliveries the client has.
   */
  async list(clientId: number, status: DeliveryStatus | undefined, page: { offset: number; size: number }) {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const counts = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.client(clientId),
          ':from': keys.deliveryCounts(dayOf(Date.now() - DELIVERY_DAYS * DAY_MS)),
          ':to': keys.deliveryCounts(dayOf(Date.now())),
        },
      }),
    );
    const total = (counts.Items ?? []).reduce(
      (sum, day) => sum + (status ? Number(day[status] ?? 0) : DELIVERY_STATUSES.reduce((all, s) => all + Number(day[s] ?? 0), 0)),
      0,
    );
    if (page.offset > 0 && page.offset >= total) return { deliveries: [], total };
    const found = await queryFirst(
      this.table,
      {
        IndexName: status ? 'gsi2' : 'gsi1',
        KeyConditionExpression: `${status ? 'gsi2pk' : 'gsi1pk'} = :pk`,
        FilterExpression: '#ttl > :now',
        ProjectionExpression:
          'id, client_id, event_id, #type, #status, attempts, last_status_code, last_error, next_attempt_at, created_at, delivered_at',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE, '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: { ':pk': keys.clientDeliveries(clientId, status), ':now': nowSeconds },
        ScanIndexForward: false,
      },
      page.offset + page.size,
    );
    return { deliveries: found.slice(page.offset) as unknown as WebhookDelivery[], total };
  }
}
