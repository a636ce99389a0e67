import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { emptyMeter, meterDynamo, type RequestMeter } from '../../local/request-meter.ts';
import { ownStackTable, useStackTable } from '../support/seed.ts';

// A client of the file's own: the meter counts only this file's requests.
const table = ownStackTable();

/**
 * What a webhook delivery attempt and a page of the delivery log cost on the stack's DynamoDB Local (decisions
 * §15): an attempt reads the delivery and the configuration and writes once; a page reads the page's items (and
 * the ones before it) and at most 31 day counts, however many deliveries the client has.
 */
const CLIENT = 520;
let meter: RequestMeter | undefined;

beforeAll(async () => {
  useStackTable();
  meterDynamo(table.client, () => meter, 'deliveryCostMeter');
});

async function metered<T>(work: () => Promise<T>) {
  meter = emptyMeter();
  const value = await work();
  const used = meter;
  meter = undefined;
  return { value, used };
}

describe('the cost of webhook deliveries (decisions §15)', () => {
  it('an attempt is two reads and one write; a page of 5 of 40 deliveries is two Queries', async () => {
    // Prepare: 40 deliveries of the client, logged as skipped (no configuration)
    const { DynamoDeliveryLog } = await import('#lib/adapters/dynamo/webhooks/webhook-delivery-log.ts');
    const { DynamoWebhookConfigStore } = await import('#lib/adapters/dynamo/webhooks/webhook-store.ts');
    const { standardWebhookSender } = await import('#lib/adapters/https/webhook-transport.ts');
    const { deliverEvent, listDeliveries } = await import('#lib/domain/webhooks/webhook-delivery.ts');
    const deps = {
      configs: new DynamoWebhookConfigStore(table),
      log: new DynamoDeliveryLog(table),
      sender: standardWebhookSender(async () => 204),
    };
    const event = (n: number) =>
      ({
        id: `cost-${Date.now()}-${n}`,
        type: 'template.created',
        occurred_at: new Date().toISOString(),
        client_id: CLIENT,
        data: {},
      }) as unknown as ServiceEvent;
    const attempt = { receive: 1, maxReceives: 20, retryBaseSeconds: 30, now: new Date() };
    // Act
    const first = await metered(() => deliverEvent(deps, event(0), attempt));
    for (let n = 1; n < 40; n++) await deliverEvent(deps, event(n), { ...attempt, now: new Date() });
    const page = await metered(() =>
      listDeliveries(deps.log, { sub: 'c', clientId: CLIENT, isBsp: false, campaigns: [] } as never, { page: 2, size: 5 }),
    );
    // Assess
    expect(first.value).toEqual({ outcome: 'skipped' });
    expect(first.used.operations).toEqual(['GetItem', 'GetItem', 'TransactWriteItems']);
    expect(page.value).toMatchObject({ total: 40, page: 2, page_size: 5 });
    expect(page.value.data).toHaveLength(5);
    expect(page.used.operations).toEqual(['Query', 'Query']);
    expect(page.used.itemsRead).toBeLessThanOrEqual(10 + 31);
  });
});
