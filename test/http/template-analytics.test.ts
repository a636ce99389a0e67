import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateAnalytics, DynamoTemplateAnalyticsStore } from '#lib/adapters/dynamo/templates/template-analytics.ts';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { billingOfWaba } from '#lib/domain/money/billing-currencies.ts';
import { DAY_MS, dayOf } from '#lib/domain/shared/calendar.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { readTemplateAnalytics } from '#lib/domain/templates/read-template-analytics.ts';
import { urlClicks } from '#lib/domain/templates/template-analytics.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { emulator, graphUrl } from '../support/api.ts';
import { OwnClient } from '../support/own-client.ts';
import { bodyComponent, useStackTable } from '../support/seed.ts';
import { PAST_GRAPH_TIMEOUT_MS } from '../support/graph-timeouts.ts';

/**
 * Meta's template analytics read through the stack (issue 56 item 2): the service sends, the emulator's people read
 * and click, and the daily reader keeps on DynamoDB Local exactly what the emulator's `template_analytics` answers
 * for each template and day; a read Graph fails or times out keeps nothing and is read on the next run.
 * Client 720 and its WABA w720 are this file's alone; the reader is given only that client's channels, so it never
 * calls Graph for another file's WABA.
 */
const client = new OwnClient(720);
const run = String(Math.floor(Math.random() * 1e5)).padStart(5, '0');
/** A MARKETING template of this run, with a URL button: its figures are this run's alone. */
const SALE = { id: `720${run}`, name: `sale_${run}` };

beforeAll(async () => {
  await client.seed('Analytics 720', [
    {
      id: SALE.id,
      name: SALE.name,
      language: 'en_US',
      status: 'APPROVED',
      category: 'MARKETING',
      components: [
        bodyComponent('Sale {{1}}', ['A-1']),
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example.com/sale' }] },
      ],
      quality_score: { score: 'GREEN' },
    },
  ]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  useStackTable();
});

/** The reader as the worker wires it, on the stack's table and the emulator, with Graph's timeout `timeoutMs`. */
function reader(timeoutMs = 1000) {
  const table = serviceTable();
  const graph = new GraphClient({ baseUrl: graphUrl(), token: async () => EMULATOR_TOKEN, log: silentLog, timeoutMs, baseDelayMs: 10 });
  const upstream = new GraphUpstream(graph, '');
  const directory = new DynamoDirectoryStore(table);
  const deps = {
    directory: { listChannels: () => directory.listChannels(client.clientId) },
    store: new DynamoTemplateAnalyticsStore(table),
    upstream,
    billingOf: (wabaId: string) => billingOfWaba(upstream, wabaId),
    log: silentLog,
  };
  /** A run as the schedule's at noon of the day after `day` (UTC, the WABA's zone): it reads `day`. */
  const runFor = (day: string) => readTemplateAnalytics(deps, `${dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS)}T12:00:00.000Z`);
  return { deps, runFor, analytics: new DynamoTemplateAnalytics(table, directory) };
}

/** The emulator's own template_analytics of the template's day, as Graph answers it. */
async function emulatorDay(day: string) {
  const url = new URL(`${graphUrl()}/v24.0/${client.waba}/template_analytics`);
  const next = dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
  for (const [k, v] of Object.entries({
    start: day,
    end: next,
    granularity: 'DAILY',
    use_waba_timezone: 'true',
    template_ids: `[${SALE.id}]`,
  }))
    url.searchParams.set(k, v);
  const answer = await (await fetch(url, { headers: { authorization: `Bearer ${EMULATOR_TOKEN}` } })).json();
  return answer.data[0].data_points[0] as { sent: number; delivered: number; read: number; clicked: { type: string; count: number }[] };
}

describe('Meta’s template analytics kept per template and day (issue 56 item 2)', () => {
  /** The days of this run's messages (UTC, the WABA's zone): one, unless the send crossed a midnight. */
  let days: string[] = [];
  let messages: { id: string; accepted_at: number }[] = [];

  it('keeps nothing of a day Graph fails or times out on, and keeps the day to read again', async () => {
    // Prepare: three people get the template; one reads it and taps Shop twice, another taps it once
    const people = [1, 2, 3].map((i) => `52155572${run}${i}`);
    const accepted = await client.send(SALE.name, people);
    expect(accepted.status).toBe(200);
    await client.settled(accepted.body.send_id, (s) => s.delivered === 3);
    ({ sent: messages } = await emulator('GET', `sent?phone_number_id=${client.numberId}&template=${SALE.name}`));
    days = [...new Set(messages.map((m) => dayOf(m.accepted_at)))].sort();
    await emulator('POST', `messages/${encodeURIComponent(messages[0].id)}/status`, { status: 'read' });
    for (const i of [0, 0, 1]) await emulator('POST', `messages/${encodeURIComponent(messages[i].id)}/click`, {});
    const { deps, runFor, analytics } = reader(300);
    const path = `/${client.waba}/template_analytics`;
    const runs = async () => {
      const outcomes = [];
      for (const day of days) outcomes.push(await runFor(day));
      return outcomes;
    };
    // Act: Graph answers 503 to every read (past the client's retries), then hangs past the client's timeout
    await emulator('POST', 'faults', { path, status: 503 });
    const failed = await runs();
    await emulator('DELETE', `faults?path=${encodeURIComponent(path)}`);
    await emulator('POST', 'faults', { path, delayMs: PAST_GRAPH_TIMEOUT_MS });
    const timedOut = await runs();
    await emulator('DELETE', `faults?path=${encodeURIComponent(path)}`);
    // Assess
    for (const outcome of [...failed, ...timedOut]) expect(outcome.runs[0]).toMatchObject({ wabaId: client.waba, read: [], written: 0 });
    expect(await analytics.templateDays(client.clientId, { from: days[0], to: days.at(-1)!, templateId: SALE.id })).toEqual([]);
    expect((await deps.store.readerState(client.waba)).failed_days).toEqual(expect.arrayContaining(days));
  });

  it('keeps what the emulator’s template_analytics says of each day, once however often it is read', async () => {
    // Prepare
    const { deps, runFor, analytics } = reader();
    // Act: the next runs read the failed days; the same runs again find nothing new
    for (const day of days) await runFor(day);
    const again = [];
    for (const day of days) again.push(await runFor(day));
    // Assess: each day as the emulator answers it; 3 sent and delivered, 1 read, 3 clicks by 2 people in all
    const kept = await analytics.templateDays(client.clientId, { from: days[0], to: days.at(-1)!, templateId: SALE.id });
    expect(kept.map((d) => d.day)).toEqual(days);
    for (const day of kept) {
      const meta = await emulatorDay(day.day);
      expect({ sent: day.sent, delivered: day.delivered, read: day.read, clicks: urlClicks(day) }).toEqual({
        sent: meta.sent,
        delivered: meta.delivered,
        read: meta.read,
        clicks: meta.clicked.find((c) => c.type === 'url_button')?.count,
      });
      expect(day).toMatchObject({ name: SALE.name, language: 'en_US', waba_id: client.waba, currency: 'USD' });
    }
    const total = (pick: (d: (typeof kept)[number]) => number) => kept.reduce((n, d) => n + pick(d), 0);
    expect([total((d) => d.sent), total((d) => d.delivered), total((d) => d.read), total(urlClicks)]).toEqual([3, 3, 1, 3]);
    expect(total((d) => d.clicked.find((c) => c.type === 'unique_url_button')?.count ?? 0)).toBe(2);
    expect(total((d) => d.cost?.find((c) => c.type === 'amount_spent')?.micros ?? 0)).toBeGreaterThan(0);
    expect(again.reduce((n, r) => n + r.written, 0)).toBe(0);
    expect((await deps.store.readerState(client.waba)).failed_days.filter((d) => days.includes(d))).toEqual([]);
  });

  it('replaces a day with what Meta says later (a late click)', async () => {
    // Prepare: the third person taps Shop after the day was kept
    const { runFor, analytics } = reader();
    const day = dayOf(messages[2].accepted_at);
    await emulator('POST', `messages/${encodeURIComponent(messages[2].id)}/click`, { button: 'Shop' });
    // Act
    const rerun = await runFor(day);
    // Assess
    const [kept] = await analytics.templateDays(client.clientId, { from: day, to: day, templateId: SALE.id });
    expect(rerun.written).toBe(1);
    expect(urlClicks(kept)).toBe((await emulatorDay(day)).clicked.find((c) => c.type === 'url_button')?.count);
    expect(kept.clicked.find((c) => c.type === 'unique_url_button')?.count).toBe(
      (await emulatorDay(day)).clicked.find((c) => c.type === 'unique_url_button')?.count,
    );
    const all = await analytics.templateDays(client.clientId, { from: days[0], to: days.at(-1)! });
    expect(all.reduce((n, d) => n + urlClicks(d), 0)).toBe(4);
  });

  it('refuses a click on a message whose template has no URL button, and of no message', async () => {
    // Act
    const none = await fetch(`${graphUrl()}/_emulator/messages/wamid.none/click`, { method: 'POST', body: '{}' });
    const noButton = await fetch(`${graphUrl()}/_emulator/messages/${encodeURIComponent(messages[0].id)}/click`, {
      method: 'POST',
      body: JSON.stringify({ button: 'Nope' }),
    });
    // Assess
    expect([none.status, noButton.status]).toEqual([404, 409]);
  });
});
