import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';
import { eventReceiver, sendEventTypes } from '../support/event-receiver.ts';

/**
 * A send whose template Meta pauses, on the running local stack (decisions §25, issue 35): the emulator pauses
 * the template mid-send (132015 while paused, its status events), and unpauses it by itself after a short period.
 * Client 545 has its own WABA, number, templates and webhook receiver.
 */
const client = new OwnClient(545);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numberOf = (batch: number, i: number) => `52${run}${batch}${String(i).padStart(4, '0')}`;
// Meta's template ids are numbers: the status events carry them so.
const pausable = demoTemplateAs('order_update', { id: '545001', name: 'pausable_offer' });
const disabled = demoTemplateAs('order_update', { id: '545002', name: 'disabled_offer' });
const accepted = async (template: string) =>
  (await emulator('GET', `sent?template=${template}&phone_number_id=${client.numberId}`)).sent as { message: { to: string } }[];

type ServiceEvent = { type: string; occurred_at: string; data: { send_id: string; status: string; pending: number } };
let events: ServiceEvent[] = [];
let receiver: Awaited<ReturnType<typeof eventReceiver<ServiceEvent>>>;

async function sendOf(template: string, batch: number, count: number) {
  const answer = await client.send(
    template,
    Array.from({ length: count }, (_, i) => numberOf(batch, i)),
  );
  expect(answer.status).toBe(200);
  return answer.body.send_id as string;
}

beforeAll(async () => {
  receiver = await eventReceiver<ServiceEvent>();
  events = receiver.events;
  await client.seed('Pauses', [pausable, disabled]);
  const url = receiver.url;
  expect((await call('PUT', '/v1/webhook/config', { token: await client.token(), body: { url, active: true } })).status).toBe(200);
}, 60_000);

afterAll(() => receiver?.close());

describe('a send whose template Meta pauses (decisions §25)', () => {
  it('pauses with the rest pending, resumes by itself when the pause ends, and sends every recipient once', {
    timeout: 300_000,
  }, async () => {
    // Prepare
    const sendId = await sendOf('pausable_offer', 1, 1_000);
    await until(
      () => accepted('pausable_offer'),
      (sent) => sent.length >= 300,
      60_000,
    );
    // Act: Meta pauses the template for 20 s: long enough that a loaded machine's stall never hides it
    await emulator('POST', `templates/${pausable.id}/pause`, { seconds: 20 });
    const paused = await until(
      () => client.status(sendId),
      (s) => s.status === 'paused',
      30_000,
    );
    const done = await until(
      () => client.status(sendId),
      (s) => s.status === 'completed',
      120_000,
    );
    const sent = await accepted('pausable_offer');
    const told = await until(
      () => sendEventTypes(events, sendId),
      (types) => types.includes('send.resumed'),
      30_000,
    );
    // Assess
    expect(paused.status).toBe('paused');
    expect(paused.pending).toBeGreaterThan(0);
    expect(paused.paused_until).toEqual(expect.any(String));
    expect(done).toMatchObject({ status: 'completed', total: 1_000, sent: 1_000, failed: 0, pending: 0 });
    expect(sent).toHaveLength(1_000);
    expect(new Set(sent.map((m) => m.message.to)).size).toBe(1_000);
    // Its send.completed (decisions §33) may come beside them: this test is of the pause's events
    expect(told.filter((type) => type !== 'send.completed')).toEqual(['send.paused', 'send.resumed']);
    expect(events.find((e) => e.type === 'send.paused' && e.data.send_id === sendId)?.data.status).toBe('paused');
  });

  it('fails the rest with 132016 when Meta disables the paused template', { timeout: 180_000 }, async () => {
    // Prepare
    const sendId = await sendOf('disabled_offer', 2, 300);
    await until(
      () => accepted('disabled_offer'),
      (sent) => sent.length >= 100,
      60_000,
    );
    await emulator('POST', `templates/${disabled.id}/pause`, { seconds: 3_600 });
    await until(
      () => client.status(sendId),
      (s) => s.status === 'paused',
      30_000,
    );
    // Act
    await emulator('POST', `templates/${disabled.id}/status`, { status: 'DISABLED' });
    const done = await until(
      () => client.status(sendId),
      (s) => s.pending === 0,
      60_000,
    );
    // Assess
    expect(done.failed).toBeGreaterThan(0);
    expect(done.sent + done.failed).toBe(300);
    expect(done.errors).toEqual([expect.objectContaining({ code: '132016', count: done.failed })]);
    expect((await accepted('disabled_offer')).length).toBe(done.sent);
  });
});
