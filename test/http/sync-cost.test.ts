import { beforeAll, describe, expect, it } from 'vitest';
import { emptyMeter, meterDynamo, type RequestMeter } from '../../local/request-meter.ts';
import { call, emulator, graphUrl, token } from '../support/api.ts';
import { ownStackTable, seedDirectory } from '../support/seed.ts';

// A client of the file's own: the meter counts only this file's requests.
const table = ownStackTable();

/**
 * Issue 10's counts for a sync, on the stack's DynamoDB Local and Graph emulator: the fewest Graph pages,
 * new templates written in batches, and a re-sync of an unchanged upstream writing nothing. The sync runs in
 * this process, with the deployed adapters, so its DynamoDB calls can be metered.
 */
const CLIENT = 350;
const WABA = 'w350';
const TEMPLATES = 1234;

let meter: RequestMeter | undefined;

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: CLIENT, client_name: 'Sync Cost' }],
    wabas: [{ waba_id: WABA, waba_name: WABA, business_id: 'b', business_name: 'b', namespace: `ns_${WABA}`, templates: [] }],
    channels: [{ wa_id: '350001', client_id: CLIENT, waba_id: WABA }],
  });
  const templates = Array.from({ length: TEMPLATES }, (_, i) => ({
    id: `35${String(i).padStart(6, '0')}`,
    name: `cost_${String(i).padStart(5, '0')}`,
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hello' }],
  }));
  await emulator('POST', 'wabas', { id: WABA, templates });
  meterDynamo(table.client, () => meter, 'syncCostMeter');
});

async function sync(leaseId: string) {
  const { DynamoDirectoryStore } = await import('#lib/adapters/dynamo/shared/directory-store.ts');
  const { DynamoTemplateRecords } = await import('#lib/adapters/dynamo/templates/template-records.ts');
  const { DynamoSyncLeaseStore } = await import('#lib/adapters/dynamo/templates/lease-store.ts');
  const { DynamoOutboxStore } = await import('#lib/adapters/dynamo/webhooks/outbox-store.ts');
  const { GraphClient } = await import('#lib/adapters/graph/graph-client.ts');
  const { GraphUpstream } = await import('#lib/adapters/graph/graph-upstream.ts');
  const { silentLog } = await import('#lib/domain/shared/log.ts');
  const { runSync } = await import('#lib/domain/templates/sync.ts');
  const { EMULATOR_TOKEN } = await import('../../local/standins/graph/emulator.ts');
  const leases = new DynamoSyncLeaseStore(table);
  expect(await leases.acquire(CLIENT, leaseId, Date.now(), 60_000)).toBe(true);
  const upstream = new GraphUpstream(new GraphClient({ baseUrl: graphUrl(), token: async () => EMULATOR_TOKEN, log: silentLog }), 'test');
  const callsTo = async () =>
    ((await emulator('GET', 'calls')) as { calls: { path: string }[] }).calls.filter((c) => c.path.includes(`/${WABA}/`)).length;
  const callsBefore = await callsTo();
  meter = emptyMeter();
  const counts = await runSync(
    {
      directory: new DynamoDirectoryStore(table),
      records: new DynamoTemplateRecords(table),
      leases,
      outbox: new DynamoOutboxStore(table),
      publisher: { publish: async () => undefined },
      upstream,
      log: silentLog,
    },
    { client_id: CLIENT, lease_id: leaseId },
  );
  const used = meter;
  meter = undefined;
  return { counts, used, graphRequests: (await callsTo()) - callsBefore };
}

const writes = (m: RequestMeter) =>
  m.operations.filter((op) => ['TransactWriteItems', 'BatchWriteItem', 'PutItem', 'UpdateItem', 'DeleteItem'].includes(op)).length;

describe('the cost of a sync (issue 10)', () => {
  it('pages the upstream at its largest page, writes new templates in batches, and writes nothing when nothing changed', async () => {
    // Act
    const first = await sync('first');
    const again = await sync('again');
    // Assess: 2 pages of up to 1,000; 3 items per template (record, assignment key, listing entry) in
    // transactions of 33 templates, a page at a time, then the lease given back (one transaction). The run's
    // progress goes on its lease (decisions §14): once when the WABAs are known, after each page and each WABA.
    const pages = Math.ceil(TEMPLATES / 1000);
    const progressReports = 1 + pages + 1;
    expect(first.counts).toMatchObject({ created: TEMPLATES, templates_seen: TEMPLATES });
    expect(first.graphRequests).toBe(pages);
    expect(writes(first.used)).toBe(Math.ceil(1000 / 33) + Math.ceil((TEMPLATES - 1000) / 33) + 1 + progressReports);
    expect(writes(first.used)).toBeLessThanOrEqual(1.1 * Math.ceil((3 * TEMPLATES) / 25));
    expect(again.counts).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    expect(writes(again.used)).toBe(1 + progressReports);
    expect(again.used.itemsWritten).toBe(2 + progressReports);
    const listing = await call('GET', `/v1/templates?client_id=${CLIENT}&size=1`, { token: await token({ clientId: 1, bsp: true }) });
    expect(listing.body.total).toBe(TEMPLATES);
  }, 90_000); // about 10 s alone; a loaded full run took over 30 s (counts are asserted, not the time)
});
