import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, graphUrl, token } from '../support/api.ts';
import { eventReceiver } from '../support/event-receiver.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { hexId, seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Meta's category changes on the running local stack (issue 55 item 3, decisions §34): the emulator announces,
 * then makes, a change of client 685's UTILITY template to MARKETING, with Meta's two `template_category_update`
 * webhooks. Its WABA is onboarded to the Marketing Messages API, so the change moves the template's next send
 * from `/messages` to `/marketing_messages`, and the client's webhook receives both events.
 */
const client = new OwnClient(685);
const TEMPLATE_ID = '685000101';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const to = (i: number) => `52685${run}${String(i).padStart(4, '0')}`;

type CategoryEvent = { type: string; client_id: number; data: Record<string, any> };
let receiver: Awaited<ReturnType<typeof eventReceiver<CategoryEvent>>>;

/** The client's listing entry of the template, as its agent (with a campaign) reads it. */
async function entry() {
  const answer = await call('GET', `/v1/templates?template_meta_id=${TEMPLATE_ID}`, {
    token: await token({ clientId: client.clientId, campaigns: [68501] }),
  });
  return answer.body.data?.[0] as Record<string, any> | undefined;
}

/** One message of the template, sent through the service; the API that carried it at the emulator. */
async function sendOne(i: number) {
  const accepted = await client.send('order_update', [to(i)]);
  expect(accepted.status).toBe(200);
  const { sent } = await until(
    () => emulator('GET', `sent?phone_number_id=${client.numberId}&to=${to(i)}`),
    (found) => found.sent.length === 1,
    30_000,
    250,
  );
  return (sent[0].api as string | undefined) ?? 'cloud';
}

const categoryEvents = () =>
  receiver.events.filter((e) => e.type.startsWith('template.category_') && e.data?.meta_template?.id === TEMPLATE_ID);

beforeAll(async () => {
  receiver = await eventReceiver<CategoryEvent>();
  const templates = [demoTemplateAs('order_update', { id: TEMPLATE_ID, status: 'APPROVED', category: 'UTILITY' })];
  await seedDirectory({
    clients: [{ client_id: client.clientId, client_name: 'Recategorised' }],
    wabas: [waba(client.waba, templates)],
    channels: [{ wa_id: client.did, client_id: client.clientId, waba_id: client.waba, phone_number_id: client.numberId }],
    campaigns: [{ campaign_id: 68501, campaign_name: 'main', client_id: client.clientId }],
    template_records: [{ id: hexId(685, 1), client_id: client.clientId, waba_id: client.waba, template_id: TEMPLATE_ID }],
  });
  await emulator('POST', 'wabas', {
    id: client.waba,
    templates,
    phone_numbers: [{ id: client.numberId, display_phone_number: client.did }],
  });
  await emulator('POST', `wabas/${client.waba}/marketing-messages`, { onboarded: true });
  const config = await call('PUT', '/v1/webhook/config', { token: await client.token(), body: { url: receiver.url, active: true } });
  expect(config.status).toBe(200);
}, 60_000);

afterAll(() => receiver?.close());

describe('Meta’s category changes (decisions §34)', () => {
  it('moves the next send from /messages to /marketing_messages only once the change is done, and tells the client’s webhook both', {
    timeout: 120_000,
  }, async () => {
    // Prepare: the change takes effect in a day, as Meta announces it
    const takesEffect = Math.floor(Date.now() / 1000) + 24 * 3600;
    // Act
    const before = await sendOne(1);
    const announced = await emulator('POST', `templates/${TEMPLATE_ID}/category`, { correct_category: 'MARKETING', at: takesEffect });
    const announcedEntry = await until(entry, (e) => e?.category_change?.impending !== undefined, 20_000);
    const whileAnnounced = await sendOne(2);
    const completed = await emulator('POST', `templates/${TEMPLATE_ID}/category/complete`, {});
    const doneEntry = await until(entry, (e) => e?.meta_template?.category === 'MARKETING', 20_000);
    const after = await sendOne(3);
    const events = await until(categoryEvents, (found) => found.length >= 2, 60_000);
    // Assess
    expect(announced).toMatchObject({ category: 'UTILITY', correct_category: 'MARKETING' });
    expect(completed).toMatchObject({ previous_category: 'UTILITY', category: 'MARKETING' });
    expect([before, whileAnnounced, after]).toEqual(['cloud', 'cloud', 'mm']);
    expect(announcedEntry?.meta_template.category).toBe('UTILITY');
    expect(announcedEntry?.category_change.impending).toMatchObject({
      category: 'UTILITY',
      correct_category: 'MARKETING',
      takes_effect_at: new Date(takesEffect * 1000).toISOString(),
    });
    expect(doneEntry?.category_change).toEqual({
      completed: { previous_category: 'UTILITY', new_category: 'MARKETING', at: expect.any(String) },
    });
    expect(events.map((e) => e.type)).toEqual(['template.category_changing', 'template.category_changed']);
    expect(events.every((e) => e.client_id === client.clientId)).toBe(true);
    expect(events[0].data.category_change.impending.correct_category).toBe('MARKETING');
    expect(events[1].data).toMatchObject({
      meta_template: { category: 'MARKETING' },
      category_change: { completed: { previous_category: 'UTILITY', new_category: 'MARKETING' } },
    });
  });

  it('answers the emulator’s category endpoints’ refusals: an unknown template 404, a bad category 400, nothing to complete 409', async () => {
    // Act
    const unknown = await fetchControl('templates/999999/category', { correct_category: 'MARKETING' });
    const bad = await fetchControl(`templates/${TEMPLATE_ID}/category`, { correct_category: 'PROMO' });
    const nothing = await fetchControl(`templates/${TEMPLATE_ID}/category/complete`, {});
    // Assess
    expect([unknown, bad, nothing]).toEqual([404, 400, 409]);
  });
});

/** A control call's status alone. */
async function fetchControl(path: string, body: unknown) {
  const response = await fetch(`${graphUrl()}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}
