import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, token, tokens } from '../support/api.ts';
import { demoTemplateAs } from '../support/own-client.ts';
import { reconcileAt } from '../support/scheduled-workers.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * GET /v1/usage/gaps for a client whose WABAs bill in two currencies (decisions §26, §31), on the running local
 * stack: client 680 sends to India from a USD WABA and from an INR one (the 2026-10-01 INR card prices India);
 * Meta's COST is 5 % over on the first and 5 % under on the second. Each currency is compared apart: two gaps,
 * where one sum of rupees and dollars would have shown none.
 */
const CLIENT = 680;
const today = () => new Date().toISOString().slice(0, 10);
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
/** Each WABA, its number and its currency. */
const WABAS = [
  { waba: 'w680', numberId: 'p680001', did: '52155568001', currency: 'USD', skew: 1.05 },
  { waba: 'w680r', numberId: 'p680002', did: '52155568002', currency: 'INR', skew: 0.95 },
];
const notice = (waba: string) => demoTemplateAs('order_update', { id: `t${waba}` });
const owner = () => token({ clientId: CLIENT, campaigns: [] });

/** Five messages to India from one number, each delivered; the send once they are. */
async function sendToIndia({ did }: (typeof WABAS)[number], batch: number) {
  const accepted = await call('POST', `/v1/template/messages/${did}`, {
    token: await owner(),
    body: {
      did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      recipients: Array.from({ length: 5 }, (_, i) => ({ to: `91${batch}${run}${String(i).padStart(5, '0')}`, params: { body: ['A-1'] } })),
    },
  });
  expect(accepted.status).toBe(200);
  return until(
    async () => (await call('GET', `/v1/sends/${accepted.body.send_id}`, { token: await owner() })).body,
    (s) => s.delivered === 5,
    60_000,
  );
}

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: CLIENT, client_name: 'Two currencies' }],
    wabas: WABAS.map((w) => waba(w.waba, [notice(w.waba)])),
    channels: WABAS.map((w) => ({ wa_id: w.did, client_id: CLIENT, waba_id: w.waba, phone_number_id: w.numberId })),
  });
  for (const w of WABAS) {
    await emulator('POST', 'wabas', {
      id: w.waba,
      templates: [notice(w.waba)],
      phone_numbers: [{ id: w.numberId, display_phone_number: w.did }],
    });
    await emulator('POST', `wabas/${w.waba}/currency`, { currency: w.currency });
    await emulator('POST', `numbers/${w.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  }
  for (const [i, w] of WABAS.entries()) await sendToIndia(w, i + 1);
}, 120_000);

describe('the gaps of a client billed in two currencies (decisions §31)', () => {
  it('lists a USD gap and an opposite INR one apart, each in its currency, where their sum would cancel', async () => {
    // Prepare: Meta's COST 5 % over on the USD WABA, 5 % under on the INR one
    for (const w of WABAS) await emulator('POST', `wabas/${w.waba}/pricing-skew`, { day: today(), factor: w.skew });
    // Act
    await reconcileAt(dayAfter(today(), 1));
    const gaps = await call('GET', `/v1/usage/gaps?from=${today()}&to=${today()}`, { token: await tokens.bsp() });
    // Assess
    expect(gaps.status).toBe(200);
    const own = (gaps.body.data as { client_id: number; currency: string; market: string; share: number }[])
      .filter((g) => g.client_id === CLIENT)
      .sort((a, b) => a.currency.localeCompare(b.currency));
    expect(own.map((g) => [g.market, g.currency])).toEqual([
      ['India', 'INR'],
      ['India', 'USD'],
    ]);
    expect(own[0].share).toBeCloseTo(0.05, 2);
    expect(own[1].share).toBeCloseTo(0.05 / 1.05, 2);
    // The daily reconciliation reads every WABA of the shared stack, each test's: its time grows with the suite.
  }, 180_000);
});
