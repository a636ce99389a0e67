import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { hexId, seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Pause history (issue 55 item 4, decisions §34) on the running local stack: Meta pauses a template for its
 * quality 3 hours the first time, 6 the second, and disables it the third; the template's listing entry shows
 * each pause and that the next disables it, and a send waiting on the second pause stops with the reason once
 * the third comes. Client 684 has its own WABA, number and template.
 */
const client = new OwnClient(684);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const escalating = demoTemplateAs('order_update', { id: '684001', name: 'escalating_offer' });
const HOUR_MS = 3_600_000;

type Pauses = { count: number; history: { paused_at: string; until: string }[]; next_red_disables: boolean; disabled_at?: string };
type Listed = { meta_template: { status: string }; pauses?: Pauses };

/** The template's listing entry, as BSP_CN reads it. */
const listed = async (): Promise<Listed | undefined> =>
  (await call('GET', `/v1/templates?client_id=${client.clientId}&template_meta_id=${escalating.id}`, { token: await tokens.bsp() })).body
    .data?.[0];
const sentOf = async () =>
  (await emulator('GET', `sent?template=escalating_offer&phone_number_id=${client.numberId}`)).sent as { message: { to: string } }[];
const periodOf = (p: { paused_at: string; until: string }) => Date.parse(p.until) - Date.parse(p.paused_at);

beforeAll(async () => {
  await client.seed('Pause history', [escalating]);
  // The client's record of the template (its placeholder), which Meta's news reaches and the listing shows.
  await seedDirectory({
    clients: [{ client_id: client.clientId, client_name: 'Pause history' }],
    wabas: [waba(client.waba, [escalating])],
    template_records: [{ id: hexId(client.clientId, 1), client_id: client.clientId, waba_id: client.waba, template_id: escalating.id }],
  });
}, 60_000);

describe('a template’s pause history (decisions §34)', () => {
  it('shows two quality pauses and that the next disables it; the third disables it and stops the send waiting on it with the reason', {
    timeout: 180_000,
  }, async () => {
    // Prepare: Meta's first quality pause (let go after a second), then its second
    const firstAt = Date.now();
    await emulator('POST', `templates/${escalating.id}/pause`, { seconds: 1 });
    const afterFirst = await until(listed, (t) => t?.pauses?.count === 1 && t.meta_template.status === 'APPROVED', 30_000);
    // A send of 400 under way when Meta pauses the template the second time: the rest waits, pending
    const accepted = await client.send(
      'escalating_offer',
      Array.from({ length: 400 }, (_, i) => `52${run}${String(i).padStart(4, '0')}`),
    );
    expect(accepted.status).toBe(200);
    const sendId = accepted.body.send_id as string;
    await until(sentOf, (sent) => sent.length >= 40, 60_000);
    const secondAt = Date.now();
    await emulator('POST', `templates/${escalating.id}/pause`, { seconds: 3_600 });
    const waiting = await until(
      () => client.status(sendId),
      (s) => s.status === 'paused',
      30_000,
    );
    const afterSecond = await until(listed, (t) => t?.pauses?.count === 2, 30_000);
    const sentWhilePaused = (await sentOf()).length;
    // Act: Meta's third quality pause of the template disables it
    const third = await emulator('POST', `templates/${escalating.id}/pause`, {});
    const stopped = await client.settled(sendId, (s) => s.pending === 0, 60_000);
    const afterThird = await until(listed, (t) => t?.meta_template.status === 'DISABLED' && t.pauses?.disabled_at !== undefined, 30_000);
    const sent = await sentOf();
    // Assess: the first pause 3 hours, the second 6, both kept; the next disables, then it is disabled
    expect(afterFirst?.pauses).toMatchObject({ count: 1, next_red_disables: false });
    expect(afterFirst?.pauses?.history).toHaveLength(1);
    expect(periodOf(afterFirst!.pauses!.history[0])).toBe(3 * HOUR_MS);
    expect(Date.parse(afterFirst!.pauses!.history[0].paused_at)).toBeGreaterThanOrEqual(Math.floor(firstAt / 1000) * 1000);
    expect(afterSecond?.meta_template.status).toBe('PAUSED');
    expect(afterSecond?.pauses).toMatchObject({ count: 2, next_red_disables: true });
    expect(afterSecond?.pauses?.history.map(periodOf)).toEqual([3 * HOUR_MS, 6 * HOUR_MS]);
    expect(Date.parse(afterSecond!.pauses!.history[1].paused_at)).toBeGreaterThanOrEqual(Math.floor(secondAt / 1000) * 1000);
    expect(waiting.status).toBe('paused');
    expect(waiting.pending).toBeGreaterThan(0);
    expect(third).toMatchObject({ id: escalating.id, status: 'DISABLED' });
    expect(stopped).toMatchObject({
      total: 400,
      pending: 0,
      sent: sentWhilePaused,
      stopped: { code: '132016', title: 'The template is disabled' },
    });
    expect(stopped.failed).toBe(400 - sentWhilePaused);
    expect(stopped.errors).toContainEqual({ code: '132016', title: 'The template is disabled', count: expect.any(Number) });
    expect(stopped.status).not.toBe('paused');
    expect(afterThird?.pauses).toMatchObject({ count: 2, next_red_disables: false });
    expect(afterThird?.pauses?.history).toEqual(afterSecond?.pauses?.history);
    // Meta's event times are whole seconds: the third can come within the second pause's second
    const secondStart = Math.floor(Date.parse(afterSecond!.pauses!.history[1].paused_at) / 1000) * 1000;
    expect(Date.parse(afterThird!.pauses!.disabled_at!)).toBeGreaterThanOrEqual(secondStart);
    expect(sent).toHaveLength(sentWhilePaused);
  });
});
