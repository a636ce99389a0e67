import { beforeAll, describe, expect, it } from 'vitest';
import type { MetaNotification } from '#lib/domain/inbound/notifications.ts';
import { emptyMeter, meterDynamo, type RequestMeter } from '../../local/request-meter.ts';
import { hexId, ownStackTable, seedDirectory, template, waba } from '../support/seed.ts';

// A client of the file's own: the meter counts only this file's requests.
const table = ownStackTable();

/**
 * What applying one of Meta's notifications costs on the stack's DynamoDB Local: it grows with the records the
 * news reaches (one read of the template's records, then per client its records and one write with its event),
 * never with the clients' other data; a repeat writes nothing; a message status is one read and one write. The
 * notifications are applied in this process with the deployed adapters, so their DynamoDB calls can be metered.
 */
const WABA = 'w490';
const CLIENTS = [490, 491, 492];
const SHARED = '4900001';
const OTHER_TEMPLATES = 40;

let meter: RequestMeter | undefined;

beforeAll(async () => {
  const records: Record<string, unknown>[] = [];
  // Client 490: 12 pairs of the shared template; 491: one pair; 492: the placeholder. 490 also holds 40 other templates.
  for (let n = 0; n < 12; n++)
    records.push({ id: hexId(490, n), client_id: 490, waba_id: WABA, template_id: SHARED, channel_id: 4901, campaign_id: 4910 + n });
  records.push({ id: hexId(491, 1), client_id: 491, waba_id: WABA, template_id: SHARED, channel_id: 4911, campaign_id: 4931 });
  records.push({ id: hexId(492, 1), client_id: 492, waba_id: WABA, template_id: SHARED });
  for (let n = 0; n < OTHER_TEMPLATES; n++) records.push({ id: hexId(490, 100 + n), client_id: 490, waba_id: WABA, template_id: `49${n}` });
  await seedDirectory({
    clients: CLIENTS.map((client_id) => ({ client_id, client_name: `Cost ${client_id}` })),
    wabas: [
      waba(WABA, [
        template(SHARED, 'shared_cost', { status: 'PENDING' }),
        ...Array.from({ length: OTHER_TEMPLATES }, (_, n) => template(`49${n}`, `other_${n}`)),
      ]),
    ],
    channels: CLIENTS.map((client_id) => ({ wa_id: `${client_id}001`, client_id, waba_id: WABA })),
    campaigns: [
      ...Array.from({ length: 12 }, (_, n) => ({ campaign_id: 4910 + n, campaign_name: `c${n}`, client_id: 490 })),
      { campaign_id: 4931, campaign_name: 'd', client_id: 491 },
    ],
    contact_channels: [
      { channel_id: 4901, name: 'a', did: '490001', waba_id: WABA, client_id: 490 },
      { channel_id: 4911, name: 'b', did: '491001', waba_id: WABA, client_id: 491 },
    ],
    template_records: records,
  });
  meterDynamo(table.client, () => meter, 'notificationCostMeter');
});

async function applyMetered(notification: MetaNotification) {
  const { DynamoTemplateRecords } = await import('#lib/adapters/dynamo/templates/template-records.ts');
  const { DynamoSendRecords } = await import('#lib/adapters/dynamo/sends/send-records.ts');
  const { DynamoMessageStatuses } = await import('#lib/adapters/dynamo/sends/message-statuses.ts');
  const { DynamoOutboxStore } = await import('#lib/adapters/dynamo/webhooks/outbox-store.ts');
  const { DynamoThroughputStore } = await import('#lib/adapters/dynamo/sends/throughput-store.ts');
  const { DynamoSuppressionStore } = await import('#lib/adapters/dynamo/people/suppression-store.ts');
  const { DynamoDirectoryStore } = await import('#lib/adapters/dynamo/shared/directory-store.ts');
  const { silentLog } = await import('#lib/domain/shared/log.ts');
  const { applyNotification } = await import('#lib/domain/inbound/meta-notifications.ts');
  const published: unknown[] = [];
  meter = emptyMeter();
  const outcome = await applyNotification(
    {
      records: new DynamoTemplateRecords(table),
      sends: new DynamoSendRecords(table),
      messageStatuses: new DynamoMessageStatuses(table),
      suppressions: new DynamoSuppressionStore(table),
      directory: new DynamoDirectoryStore(table),
      levels: new DynamoThroughputStore(table),
      outbox: new DynamoOutboxStore(table),
      publisher: { publish: async (events) => void published.push(...events) },
      log: silentLog,
    },
    notification,
  );
  const used = meter;
  meter = undefined;
  return { outcome, used, published };
}

const count = (m: RequestMeter, op: string) => m.operations.filter((o) => o === op).length;

describe('the cost of applying a notification (decisions §13)', () => {
  it('reads the template’s records once and writes each client’s records once, with its event; a repeat writes nothing', async () => {
    // Prepare
    const approved: MetaNotification = {
      kind: 'template_status',
      waba_id: WABA,
      template_id: SHARED,
      at: Date.now(),
      event: 'APPROVED',
      reason: 'NONE',
    };
    // Act
    const first = await applyMetered(approved);
    const repeat = await applyMetered(approved);
    // Assess: 1 Query of the template's 14 records; per client 1 Query (keys, version) + 1 BatchGetItem + 1
    // transaction (records, entry, event); then the published events leave the outbox in one batch
    expect(first.outcome).toBe('applied');
    expect(first.published).toHaveLength(CLIENTS.length);
    expect(count(first.used, 'Query')).toBe(1 + CLIENTS.length);
    expect(count(first.used, 'BatchGetItem')).toBe(CLIENTS.length);
    expect(count(first.used, 'TransactWriteItems')).toBe(CLIENTS.length);
    expect(count(first.used, 'BatchWriteItem')).toBe(1);
    expect(first.used.itemsWritten).toBe(14 + CLIENTS.length * 2 + CLIENTS.length);
    expect(first.used.itemsRead).toBeLessThan(2 * (14 + CLIENTS.length * 3));
    expect(repeat.published).toEqual([]);
    expect(repeat.used.itemsWritten).toBe(0);
  });

  it('applies a message status with one read (its block and state) and one write, and a repeat with one read; the send’s owner read once', async () => {
    // Prepare: a send with one recipient, sent
    const { DynamoSendRecords } = await import('#lib/adapters/dynamo/sends/send-records.ts');
    const { DynamoBlockLedger } = await import('#lib/adapters/dynamo/sends/block-ledger.ts');
    const { messageReference } = await import('#lib/domain/shared/message-status.ts');
    const sends = new DynamoSendRecords(table);
    const blocks = new DynamoBlockLedger(table);
    const sendId = `cost-${Date.now()}`;
    await sends.begin({
      send_id: sendId,
      client_id: 490,
      did: '490001',
      template: { name: 'x', language: 'en_US' },
      status: 'queuing',
      created_at: new Date().toISOString(),
      total: 1,
      jobs: 1,
    });
    const block = { first: 0, size: 1, sendable: 1 };
    const lease = { holder: 'h', untilMs: Date.now() + 60_000 };
    await blocks.claimBlock(sendId, block, lease, Date.now());
    await blocks.settleBlock(sendId, block, [{ kind: 'sent', message_id: 'wamid.cost' }], lease);
    const read: MetaNotification = {
      kind: 'message_status',
      message_id: 'wamid.cost',
      status: 'read',
      reference: messageReference(sendId, 0, 0),
      at: Date.now(),
    };
    // Act
    const first = await applyMetered(read);
    const repeat = await applyMetered(read);
    // Assess
    // (whose the send is and what it reserved, read the first time a process meets the send: decisions §27)
    expect(first.outcome).toBe('applied');
    expect(first.used.operations).toEqual(['GetItem', 'BatchGetItem', 'TransactWriteItems']);
    expect(repeat.outcome).toBe('unchanged');
    expect(repeat.used.operations).toEqual(['BatchGetItem']);
    expect((await sends.get(sendId))?.counts).toMatchObject({ sent: 1, delivered: 1, read: 1 });
  });
});
