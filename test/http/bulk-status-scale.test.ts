import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceTable } from '#lib/wiring/table.ts';
import { keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { batchGet } from '#lib/adapters/dynamo/queries.ts';
import { call, meterOf, token } from '../support/api.ts';
import { hexId, seedDirectory, template, useStackTable, waba } from '../support/seed.ts';

/**
 * A large bulk status change on the running local stack (decisions §19, issue 22): client 323 holds 500
 * templates with four records each (2,000 records); a request changes 1,000 of them. It reads at most two items
 * per record, and with its function's time cut short it answers 200 in time: what it could not reach is
 * `not_processed` and unwritten, everything else written whole (records, entries and their active records).
 */
const C = 323;
const WABA = 'w323';
const TEMPLATES = 500;
const CAMPAIGNS = [3231, 3232, 3233, 3234];
const recordId = (t: number, k: number) => hexId(C, t * 4 + k);
const templateId = (t: number) => `323${String(t).padStart(4, '0')}`;
/** The records of templates [from, to): four each. */
const recordsOf = (from: number, to: number) =>
  Array.from({ length: (to - from) * 4 }, (_, i) => recordId(from + Math.floor(i / 4), i % 4));

beforeAll(async () => {
  const records = Array.from({ length: TEMPLATES * 4 }, (_, i) => ({
    id: recordId(Math.floor(i / 4), i % 4),
    client_id: C,
    waba_id: WABA,
    template_id: templateId(Math.floor(i / 4)),
    channel_id: 3231,
    campaign_id: CAMPAIGNS[i % 4],
    active: false,
  }));
  await seedDirectory({
    clients: [{ client_id: C, client_name: 'Bulk Scale' }],
    wabas: [
      waba(
        WABA,
        Array.from({ length: TEMPLATES }, (_, t) => template(templateId(t), `bulk_${t}`)),
      ),
    ],
    channels: [{ wa_id: '323001', client_id: C, waba_id: WABA }],
    campaigns: CAMPAIGNS.map((campaign_id) => ({ campaign_id, campaign_name: `B${campaign_id}`, client_id: C })),
    contact_channels: [{ channel_id: 3231, name: 'L', did: '323001', waba_id: WABA, client_id: C }],
    template_records: records,
  });
  useStackTable();
}, 120_000);

const patch = async (body: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', '/v1/templates/status', { token: await token({ clientId: C, campaigns: CAMPAIGNS }), body, headers });

/** Each record's `active` as stored, and each template's version item as stored. */
async function stored(ids: string[], templates: number[]) {
  const table = serviceTable();
  const records = await batchGet(
    table,
    ids.map((id) => ({ pk: keys.record(id), sk: SORT.record })),
    true,
  );
  const versions = await Promise.all(
    templates.map(
      async (t) =>
        (
          await table.client.send(
            new GetCommand({ TableName: table.name, Key: { pk: keys.assignments(WABA, templateId(t), C), sk: SORT.assignmentsVersion } }),
          )
        ).Item,
    ),
  );
  return { active: new Map(records.map((r) => [String(r.id), r.active === true])), versions };
}

describe('PATCH /v1/templates/status at scale (decisions §19)', () => {
  it('changes 1,000 records of 250 templates reading at most two items a record, in few transactions', async () => {
    // Prepare
    const ids = recordsOf(0, 250);
    // Act
    const response = await patch({ action: 'enable', templates: ids });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.summary).toEqual({ total: 1000, succeeded: 1000, skipped: 0, failed: 0 });
    const meter = await meterOf(response);
    expect(meter.itemsRead).toBeLessThanOrEqual(2 * 1000);
    // 250 templates of 4 records and their version items: 1,250 writes, 100 to a transaction at most
    expect(meter.operations.filter((o) => o === 'TransactWriteItems').length).toBeLessThanOrEqual(Math.ceil(1250 / 100) + 1);
    const { active, versions } = await stored(ids, [0, 249]);
    expect([...active.values()].every(Boolean)).toBe(true);
    expect(versions.map((v) => [v?.active_ids?.length, v?.facets?.active])).toEqual([
      [4, true],
      [4, true],
    ]);
  }, 60_000);

  it('answers 200 before a shortened deadline: what it could not reach is not_processed and unwritten, the rest done whole', async () => {
    // Prepare: the same 1,000 records, with 7 s for the function on its own clock, where each DynamoDB call takes
    // 400 ms and nothing else takes any time (X-Local-Clock: dynamodb): the deadline is the test's arithmetic,
    // not what a loaded machine fits in real time. A part is 400 records; the first is begun with 7 s left and its
    // reads and transactions take more than 4 s of calls, so with 3 s or less left the second is never begun.
    const ids = recordsOf(0, 250);
    const timeoutMs = 7_000;
    const slow = { 'x-local-function-timeout-ms': String(timeoutMs), 'x-local-dynamodb-delay-ms': '400', 'x-local-clock': 'dynamodb' };
    // Act
    const response = await patch({ action: 'disable', templates: ids }, slow);
    // Assess: a 200, some records done and some not reached, the same split on any machine
    expect(response.status).toBe(200);
    const results = response.body.results as { id: string; success: boolean; reason?: string }[];
    const done = results.filter((r) => r.success).map((r) => r.id);
    const notProcessed = results.filter((r) => r.reason === 'not_processed').map((r) => r.id);
    expect(done).toHaveLength(400);
    expect(notProcessed).toHaveLength(600);
    expect(response.body.summary).toMatchObject({ total: 1000, succeeded: done.length, failed: notProcessed.length });
    // None half-written: each record as its answer says, and each template's entry as its records are
    const templates = Array.from({ length: 250 }, (_, t) => t);
    const { active, versions } = await stored(ids, templates);
    for (const id of done) expect(active.get(id)).toBe(false);
    for (const id of notProcessed) expect(active.get(id)).toBe(true);
    for (const t of templates) {
      const activeIds = [0, 1, 2, 3].map((k) => recordId(t, k)).filter((id) => active.get(id));
      expect([...(versions[t]?.active_ids ?? [])].sort()).toEqual(activeIds.sort());
      expect(versions[t]?.facets?.active).toBe(activeIds.length > 0);
    }
    // Sent again, the rest is done
    const again = await patch({ action: 'disable', templates: notProcessed });
    expect(again.body.summary).toMatchObject({ succeeded: notProcessed.length });
  }, 60_000);
});
