import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateAnalyticsStore } from '#lib/adapters/dynamo/templates/template-analytics.ts';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { billingOfWaba } from '#lib/domain/money/billing-currencies.ts';
import { DAY_MS, dayOf } from '#lib/domain/shared/calendar.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { readTemplateAnalytics } from '#lib/domain/templates/read-template-analytics.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { call, emulator, graphUrl } from '../support/api.ts';
import { OwnClient } from '../support/own-client.ts';
import { bodyComponent, useStackTable } from '../support/seed.ts';

/**
 * Clicks in a template's and a send's performance (decisions §33): Meta's URL button clicks, as the daily reader keeps
 * its template_analytics (issue 56 item 2), beside the service's own counts of the same days. Client 703 is this
 * file's alone; the reader is given only its channels.
 */
const client = new OwnClient(703);
const run = String(Math.floor(Math.random() * 1e5)).padStart(5, '0');
const PROMO = { id: `703${run}`, name: `promo_${run}` };
let sendId: string;
let days: string[];

/** Each day of the run read as the daily job reads it, on the stack's table and the emulator. */
async function readDays() {
  const table = serviceTable();
  const upstream = new GraphUpstream(
    new GraphClient({ baseUrl: graphUrl(), token: async () => EMULATOR_TOKEN, log: silentLog, timeoutMs: 2000, baseDelayMs: 10 }),
    '',
  );
  const directory = new DynamoDirectoryStore(table);
  const deps = {
    directory: { listChannels: () => directory.listChannels(client.clientId) },
    store: new DynamoTemplateAnalyticsStore(table),
    upstream,
    billingOf: (wabaId: string) => billingOfWaba(upstream, wabaId),
    log: silentLog,
  };
  for (const day of days) await readTemplateAnalytics(deps, `${dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS)}T12:00:00.000Z`);
}

/** The emulator's own URL clicks of the template on a day, as its template_analytics answers. */
async function metaClicks(day: string) {
  const url = new URL(`${graphUrl()}/v24.0/${client.waba}/template_analytics`);
  const query = { start: day, end: dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS), granularity: 'DAILY', use_waba_timezone: 'true' };
  for (const [k, v] of Object.entries({ ...query, template_ids: `[${PROMO.id}]` })) url.searchParams.set(k, v);
  const answer = await (await fetch(url, { headers: { authorization: `Bearer ${EMULATOR_TOKEN}` } })).json();
  const point = answer.data[0]?.data_points?.[0] as { clicked?: { type: string; count: number }[] } | undefined;
  return point?.clicked?.find((c) => c.type === 'url_button')?.count ?? 0;
}

beforeAll(async () => {
  await client.seed('Clicks 703', [
    {
      id: PROMO.id,
      name: PROMO.name,
      language: 'en_US',
      status: 'APPROVED',
      category: 'MARKETING',
      components: [
        bodyComponent('Promo {{1}}', ['A-1']),
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example.com/promo' }] },
      ],
      quality_score: { score: 'GREEN' },
    },
  ]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  useStackTable();
  // Prepare: ten people get the template; four tap Shop, one of them twice; the days are read as the job does
  const accepted = await client.send(
    PROMO.name,
    Array.from({ length: 10 }, (_, i) => `5217030${run}${i}`),
  );
  expect(accepted.status).toBe(200);
  sendId = accepted.body.send_id;
  await client.settled(sendId, (s) => s.delivered === 10);
  const { sent } = await emulator('GET', `sent?phone_number_id=${client.numberId}&template=${PROMO.name}`);
  days = [...new Set((sent as { accepted_at: number }[]).map((m) => dayOf(m.accepted_at)))].sort();
  for (const i of [0, 0, 1, 2, 3]) await emulator('POST', `messages/${encodeURIComponent(sent[i].id)}/click`, {});
  await readDays();
}, 120_000);

describe('clicks in the performance (decisions §33)', () => {
  it('gives each template day Meta’s URL clicks beside the service’s own counts', async () => {
    // Act
    const answer = await call('GET', `/v1/templates/performance?from=${days[0]}&to=${days.at(-1)}`, { token: await client.token() });
    // Assess
    expect(answer.status).toBe(200);
    const rows = answer.body.data.filter((r: { template: string }) => r.template === PROMO.name);
    for (const row of rows) expect(row.clicks).toBe(await metaClicks(row.day));
    expect(rows.reduce((n: number, r: { clicks: number }) => n + r.clicks, 0)).toBe(5);
    expect(rows.reduce((n: number, r: { sent: number }) => n + r.sent, 0)).toBe(10);
    expect(answer.body.templates).toEqual([expect.objectContaining({ template: PROMO.name, clicks: 5, sent: 10, delivered: 10 })]);
  });

  it('gives a send’s variant its template’s clicks on the send’s days', async () => {
    // Act
    const answer = await call('GET', `/v1/sends/${sendId}/performance`, { token: await client.token() });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.variants[0]).toMatchObject({ template: { name: PROMO.name, language: 'en_US' }, sent: 10, template_clicks: 5 });
    expect(answer.body.days.reduce((n: number, d: { template_clicks: number }) => n + d.template_clicks, 0)).toBe(5);
  });
});
