import { describe, expect, it } from 'vitest';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { readTemplateAnalytics as readGraphDay } from '#lib/adapters/graph/template-analytics.ts';
import { DAY_MS, dayOf, daysBefore, dayStartIn } from '#lib/domain/shared/calendar.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { daysToRead, readTemplateAnalytics } from '#lib/domain/templates/read-template-analytics.ts';
import { urlClicks } from '#lib/domain/templates/template-analytics.ts';
import { EmulatedTemplateAnalytics } from '../../local/standins/graph/template-analytics.ts';
import type { SentMessage } from '../../local/standins/graph/model.ts';
import {
  MemoryTemplateAnalytics,
  MemoryTemplateAnalyticsStore,
  MemoryTemplateAnalyticsTable,
} from '../support/memory/templates/template-analytics.ts';
import { memoryWorld } from '../support/memory/world.ts';

/**
 * Meta's template analytics (issue 56 item 2; docs/template-analytics.md): the emulator's `template_analytics` of
 * what it sent, the Graph adapter's groups of ten ids and pages, the daily reader's days, and the reader port.
 * In the demo fixture WABA 100200300 holds track_order (9010, UTILITY, a URL button "Track"), sent from 110001.
 */
const WABA = '100200300';
const today = () => dayOf(Date.now());
let serial = 0;

type World = ReturnType<typeof memoryWorld>;

/** A message the emulator accepted at `atMs` of the template, to `to`. */
function sentAt(world: World, template: string, to: string, atMs: number): SentMessage {
  const message = {
    id: `wamid.test-${++serial}`,
    phone_number_id: '110001',
    accepted_at: atMs,
    message: { to, type: 'template', template: { name: template, language: { code: 'en_US' } } },
  };
  world.emulator.model.sent.push(message);
  return message;
}

/** A Graph read of the emulator in process: status and body. */
async function graphGet(world: World, path: string, query: Record<string, string>) {
  const url = new URL(`http://graph.emulator/v24.0/${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await world.emulator.fetch(url, { headers: { authorization: 'Bearer local-graph-access-token' } });
  return { status: response.status, body: (await response.json()) as any };
}

const dayQuery = (day: string, ids: string[], extra: Record<string, string> = {}) => ({
  start: day,
  end: dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS),
  granularity: 'DAILY',
  template_ids: JSON.stringify(ids),
  ...extra,
});

describe('the emulator’s template_analytics (docs/template-analytics.md §1)', () => {
  it('answers nothing until the WABA is confirmed, then what it sent, delivered and read, clicks and cost', async () => {
    // Prepare: three messages of track_order today; two delivered, one read; the read one's button tapped twice
    const world = memoryWorld();
    const now = Date.now();
    const [a, b] = [sentAt(world, 'track_order', '5215551000001', now), sentAt(world, 'track_order', '5215551000002', now)];
    sentAt(world, 'track_order', '5215551000003', now);
    world.emulator.reportStatus(a, 'delivered');
    world.emulator.reportStatus(a, 'read');
    world.emulator.reportStatus(b, 'delivered');
    world.emulator.templateAnalytics.click(a, 'Track');
    world.emulator.templateAnalytics.click(a);
    const before = await graphGet(world, `${WABA}/template_analytics`, dayQuery(today(), ['9010']));
    // Act: confirm, then read
    const confirmed = await world.emulator.fetch(`http://graph.emulator/v24.0/${WABA}?is_enabled_for_insights=true`, {
      method: 'POST',
      headers: { authorization: 'Bearer local-graph-access-token' },
    });
    const field = await graphGet(world, WABA, { fields: 'is_enabled_for_insights' });
    const after = await graphGet(world, `${WABA}/template_analytics`, dayQuery(today(), ['9010']));
    // Assess
    expect(before.status).toBe(400);
    expect(before.body.error.code).toBe(100);
    expect(await confirmed.json()).toEqual({ id: Number(WABA) });
    expect(field.body.is_enabled_for_insights).toBe(true);
    const [point] = after.body.data[0].data_points;
    expect(after.body.data[0]).toMatchObject({ granularity: 'DAILY', product_type: 'cloud_api' });
    expect(point).toMatchObject({ template_id: '9010', sent: 3, delivered: 2, read: 1 });
    expect(point.clicked).toEqual([
      { type: 'url_button', button_content: 'Track', count: 2 },
      { type: 'unique_url_button', button_content: 'Track', count: 1 },
    ]);
    const spent = point.cost.find((c: { type: string }) => c.type === 'amount_spent').value;
    const booked = world.emulator.pricing.delivered.reduce((sum, d) => sum + d.micros, 0) / 1e6;
    expect(spent).toBeCloseTo(booked, 6);
    expect(point.cost.map((c: { type: string }) => c.type)).toEqual(['amount_spent', 'cost_per_delivered', 'cost_per_url_button_click']);
  });

  it('refuses what Meta limits: more than 10 ids, a granularity but DAILY, a start over 90 days back, Unix times in the WABA’s zone', async () => {
    // Prepare
    const world = memoryWorld();
    world.emulator.model.wabas.get(WABA)!.is_enabled_for_insights = true;
    const ids = Array.from({ length: 11 }, (_, i) => String(9000 + i));
    // Act
    const answers = await Promise.all([
      graphGet(world, `${WABA}/template_analytics`, dayQuery(today(), ids)),
      graphGet(world, `${WABA}/template_analytics`, dayQuery(today(), ['9010'], { granularity: 'HALF_HOUR' })),
      graphGet(world, `${WABA}/template_analytics`, dayQuery(daysBefore(Date.now(), 91), ['9010'])),
      graphGet(world, `${WABA}/template_analytics`, { ...dayQuery(today(), ['9010']), start: '1790000000', use_waba_timezone: 'true' }),
      graphGet(world, `${WABA}/template_analytics`, { ...dayQuery(today(), ['9010']), template_ids: '' }),
    ]);
    // Assess: Graph's error envelope, code 100 (Meta's own codes are UNCONFIRMED, §1.5)
    for (const answer of answers) expect([answer.status, answer.body.error?.code]).toEqual([400, 100]);
    expect(answers[0].body.error.message).toContain('Maximum 10');
  });

  it('reads and clicks older than 7 days read as zero; an AUTHENTICATION template has no clicks', async () => {
    // Prepare: an emulator whose clock is 8 days after a message of track_order was read and clicked
    const world = memoryWorld();
    const sentMs = Date.parse('2026-11-10T12:00:00Z');
    const message = sentAt(world, 'track_order', '5215551000001', sentMs);
    const analytics = new EmulatedTemplateAnalytics(world.emulator.model, new Set(), () => sentMs + 8 * DAY_MS);
    analytics.reported(message, 'read', 1000);
    analytics.click(message);
    const waba = { ...world.emulator.model.wabas.get(WABA)!, is_enabled_for_insights: true };
    // Act
    const answer = analytics.analytics(waba, dayQuery('2026-11-10', ['9010', '9004']), (after) => after);
    // Assess
    const [trackOrder, loginCode] = answer.data[0].data_points as Record<string, unknown>[];
    expect(trackOrder).toMatchObject({ sent: 1, delivered: 1, read: 0 });
    expect((trackOrder.clicked as { count: number }[]).every((c) => c.count === 0)).toBe(true);
    expect(loginCode).toMatchObject({ template_id: '9004', sent: 0 });
    expect(loginCode.clicked).toBeUndefined();
  });

  it('counts a message on its day in the WABA’s timezone with use_waba_timezone=true (the day boundary)', async () => {
    // Prepare: the WABA in Asia/Kolkata (+05:30); a message at 19:00 UTC of the 20th is 00:30 of the 21st there
    const world = memoryWorld();
    const waba = world.emulator.model.wabas.get(WABA)!;
    waba.timezone_id = '71';
    waba.is_enabled_for_insights = true;
    sentAt(world, 'track_order', '5215551000001', Date.parse('2026-11-20T19:00:00Z'));
    const read = (day: string, zone: Record<string, string>) =>
      world.emulator.templateAnalytics.analytics(waba, dayQuery(day, ['9010'], zone), (after) => after).data[0];
    // Act
    const kolkata20 = read('2026-11-20', { use_waba_timezone: 'true' });
    const kolkata21 = read('2026-11-21', { use_waba_timezone: 'true' });
    const utc20 = read('2026-11-20', {});
    // Assess
    expect(kolkata20.data_points[0]).toMatchObject({ sent: 0, start: dayStartIn('2026-11-20', 'Asia/Kolkata') / 1000 });
    expect(kolkata21.data_points[0]).toMatchObject({ sent: 1 });
    expect(kolkata21).toMatchObject({ waba_timezone: 'Asia/Kolkata' });
    expect(utc20.data_points[0]).toMatchObject({ sent: 1, start: Date.parse('2026-11-20T00:00:00Z') / 1000 });
  });
});

describe('the Graph adapter’s reads (groups of ten ids, every page)', () => {
  it('asks the WABA’s templates ten ids a read and reads every page of each', async () => {
    // Prepare: the fixture's WABA holds 11 templates; Meta answers two points a page
    const world = memoryWorld();
    world.emulator.model.wabas.get(WABA)!.is_enabled_for_insights = true;
    world.emulator.templateAnalytics.pageSizes.set(WABA, 2);
    sentAt(world, 'track_order', '5215551000001', Date.now());
    // Act
    const days = await world.upstream.templateAnalytics(WABA, today());
    // Assess: 11 ids in two reads, of 10 (5 pages) and 1 (1 page); every template once
    const reads = world.emulator.calls.filter((c) => c.path.endsWith('/template_analytics'));
    expect(reads.map((c) => JSON.parse(c.query.template_ids).length).filter((_, i, all) => i === 0 || all[i] !== all[i - 1])).toEqual([
      10, 1,
    ]);
    expect(reads).toHaveLength(6);
    expect(days.map((d) => d.template_id).sort()).toEqual(
      world.emulator.model.wabas
        .get(WABA)!
        .templates.map((t) => t.id)
        .sort(),
    );
    expect(days.find((d) => d.template_id === '9010')).toMatchObject({ name: 'track_order', language: 'en_US', day: today(), sent: 1 });
  });

  it('fails the day, never takes part of it, when the pages never end', async () => {
    // Prepare: a next page that names itself
    const again = 'https://graph.test/v23.0/100200300/template_analytics?after=same';
    let calls = 0;
    const fetch = (async (url: URL) => {
      calls++;
      const body = String(url).includes('message_templates')
        ? { data: [{ id: '9010' }] }
        : {
            data: [{ data_points: [{ template_id: '9010', start: Date.parse(`${today()}T00:00:00Z`) / 1000, sent: 1 }] }],
            paging: { next: again },
          };
      return new Response(JSON.stringify(body), { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const graph = new GraphClient({ baseUrl: 'https://graph.test', token: async () => 't', fetch, baseDelayMs: 1, log: silentLog });
    // Act
    const read = readGraphDay(graph, WABA, today());
    // Assess
    await expect(read).rejects.toThrow(/pages do not end/);
    expect(calls).toBe(3);
  });
});

/** The daily reader on the memory stores and the emulator in process. */
function reader(world = memoryWorld()) {
  const table = new MemoryTemplateAnalyticsTable();
  const store = new MemoryTemplateAnalyticsStore(table);
  let zone = 'UTC';
  const deps = {
    directory: world.directory,
    store,
    upstream: world.upstream,
    billingOf: async () => ({ zone, currency: 'USD' }),
    log: silentLog,
  };
  return { world, table, store, deps, setZone: (z: string) => (zone = z) };
}

describe('the daily reader (in memory)', () => {
  it('confirms the WABA once, reads yesterday in the WABA’s timezone, and keeps a day read twice once', async () => {
    // Prepare: a WABA in Asia/Kolkata; a run at 20:00 UTC is 01:30 of the next day there; a message of its yesterday
    const { world, table, deps, setZone } = reader();
    setZone('Asia/Kolkata');
    const runAt = `${today()}T20:00:00.000Z`;
    const kolkataYesterday = today();
    world.emulator.model.wabas.get(WABA)!.timezone_id = '71';
    sentAt(world, 'track_order', '5215551000001', dayStartIn(kolkataYesterday, 'Asia/Kolkata') + 3_600_000);
    // Act: two runs
    const first = await readTemplateAnalytics(deps, runAt);
    const second = await readTemplateAnalytics(deps, runAt);
    // Assess: Kolkata's yesterday is UTC's today; the second run writes nothing; the confirmation once
    const kept = [...table.days.values()].filter((d) => d.waba_id === WABA);
    expect(kept).toEqual([expect.objectContaining({ template_id: '9010', day: kolkataYesterday, sent: 1, currency: 'USD' })]);
    expect(first.written).toBeGreaterThanOrEqual(1);
    expect(second.written).toBe(0);
    expect(world.emulator.calls.filter((c) => c.method === 'POST' && c.path.endsWith(`/${WABA}`))).toHaveLength(1);
  });

  it('overwrites a day with Meta’s late correction', async () => {
    // Prepare: yesterday's message read after the first run
    const { world, table, deps } = reader();
    const message = sentAt(world, 'track_order', '5215551000001', Date.now() - DAY_MS);
    await readTemplateAnalytics(deps, new Date().toISOString());
    world.emulator.reportStatus(message, 'read');
    world.emulator.templateAnalytics.click(message);
    // Act
    await readTemplateAnalytics(deps, new Date().toISOString());
    // Assess
    const day = [...table.days.values()].find((d) => d.template_id === '9010')!;
    expect(day).toMatchObject({ sent: 1, delivered: 1, read: 1 });
    expect(urlClicks(day)).toBe(1);
  });

  it('keeps a day whose read failed and reads it on the next run; nothing of it is kept meanwhile', async () => {
    // Prepare: Graph answers 503 to every template_analytics read of the WABA (past the client's retries)
    const { world, table, deps } = reader();
    sentAt(world, 'track_order', '5215551000001', Date.now() - DAY_MS);
    world.emulator.faults.add({ path: `/${WABA}/template_analytics`, status: 503 });
    // Act
    const failed = await readTemplateAnalytics(deps, new Date().toISOString());
    const state = await deps.store.readerState(WABA);
    world.emulator.faults.clear(`/${WABA}/template_analytics`);
    const retried = await readTemplateAnalytics(deps, new Date().toISOString());
    // Assess
    expect(failed.runs.find((r) => r.wabaId === WABA)?.failed).toEqual([daysBefore(Date.now(), 6), daysBefore(Date.now(), 1)].sort());
    expect(state.failed_days).toHaveLength(2);
    expect(retried.runs.find((r) => r.wabaId === WABA)?.failed).toEqual([]);
    expect((await deps.store.readerState(WABA)).failed_days).toEqual([]);
    expect([...table.days.values()].find((d) => d.template_id === '9010')).toMatchObject({ sent: 1 });
  });

  it('keeps the day failed when the store fails, and writes it whole on the next run', async () => {
    // Prepare
    const { world, table, deps } = reader();
    sentAt(world, 'track_order', '5215551000001', Date.now() - DAY_MS);
    table.failPuts = 99;
    // Act
    await readTemplateAnalytics(deps, new Date().toISOString());
    table.failPuts = 0;
    const failedDays = (await deps.store.readerState(WABA)).failed_days;
    await readTemplateAnalytics(deps, new Date().toISOString());
    // Assess
    expect(failedDays).toContain(daysBefore(Date.now(), 1));
    expect([...table.days.values()].filter((d) => d.template_id === '9010')).toHaveLength(1);
  });

  it('reads yesterday, the settled day, and failed days while Meta keeps their reads; older ones are given up', () => {
    // Act
    const days = daysToRead('2026-11-20', ['2026-11-10', '2026-11-14', '2026-11-16', '2026-11-20']);
    // Assess: the 14th is the oldest day Meta still keeps reads of (6 days back), the 10th is given up
    expect(days).toEqual(['2026-11-14', '2026-11-16', '2026-11-19']);
  });
});

describe('the reader port: the templates of a client’s WABAs only', () => {
  it('answers a client the days of its WABAs’ templates, one or all, between two days', async () => {
    // Prepare: clients 7 and 8 share WABA 100200300 in the fixture, client 9 has 100200400; a day of two templates
    // of the shared WABA kept, and one of a WABA of nobody's
    const world = memoryWorld();
    const table = new MemoryTemplateAnalyticsTable();
    const store = new MemoryTemplateAnalyticsStore(table);
    const reader = new MemoryTemplateAnalytics(table, world.directory);
    const figures = { sent: 2, delivered: 2, read: 1, clicked: [], read_at: '2026-11-20T00:00:00Z' };
    const day = (wabaId: string, templateId: string) => ({ ...figures, waba_id: wabaId, template_id: templateId, day: '2026-11-19' });
    await store.putDay(WABA, '2026-11-19', [day(WABA, '9004'), day(WABA, '9001')]);
    await store.putDay('w-other', '2026-11-19', [day('w-other', '9004')]);
    // Act
    const all = await reader.templateDays(7, { from: '2026-11-01', to: '2026-11-30' });
    const one = await reader.templateDays(7, { from: '2026-11-19', to: '2026-11-19', templateId: '9004' });
    const outside = await reader.templateDays(7, { from: '2026-11-20', to: '2026-11-30' });
    const sharer = await reader.templateDays(8, { from: '2026-11-01', to: '2026-11-30' });
    const stranger = await reader.templateDays(9, { from: '2026-11-01', to: '2026-11-30' });
    // Assess: in template order; Meta's figures are the template's, the same to both clients of the WABA
    expect(all.map((d) => [d.waba_id, d.template_id, d.sent])).toEqual([
      [WABA, '9001', 2],
      [WABA, '9004', 2],
    ]);
    expect(one).toEqual([all[1]]);
    expect(outside).toEqual([]);
    expect(sharer).toEqual(all);
    expect(stranger).toEqual([]);
  });
});
