import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * Max price on the Marketing Messages API (issue 55 item 5, decisions §34), on the running local stack. Client 688's
 * WABA is onboarded; its price list resells Meta's cost at +20 % and max-price charges at +10 %; Meta (the emulator)
 * charges a max-price message 60 % of its max. A MARKETING send with a max price of 30 USD per 1,000 deliveries is
 * reserved at the max, charged at the emulator's price and on the month's statement as a line of its own, to the
 * micro-unit.
 */
const client = new OwnClient(688);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const recipients = [1, 2, 3].map((i) => ({ to: `52155${run}688${i}`, params: { header: ['Ana'], body: ['20%'] } }));
const MAX = { amount_per_1000: 30, currency: 'USD' };
const MAX_MICROS = 30_000;
const CHARGED_MICROS = 18_000;
const today = () => new Date().toISOString().slice(0, 10);
const micros = (amount: number) => Math.round(amount * 1e6);
const send = async (extra: Record<string, unknown>, template = 'summer_promo') =>
  call('POST', `/v1/template/messages/${client.did}`, {
    token: await client.token(),
    body: {
      did: client.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: template, language: 'en_US' },
      // order_update takes one body value and no header
      recipients: template === 'summer_promo' ? recipients : recipients.map(({ to }) => ({ to, params: { body: ['A'] } })),
      ...extra,
    },
  });
const sendAsBsp = async (sendId: string) => (await call('GET', `/v1/sends/${sendId}`, { token: await tokens.bsp() })).body;
const budget = async () => (await call('GET', `/v1/clients/${client.clientId}/budget`, { token: await tokens.bsp() })).body;

beforeAll(async () => {
  await client.seed('Max price', [
    demoTemplateAs('summer_promo', { id: 't688m', status: 'APPROVED' }),
    demoTemplateAs('order_update', { id: 't688u' }),
  ]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent'] });
  await emulator('POST', `wabas/${client.waba}/marketing-messages`, { onboarded: true });
  await emulator('POST', `wabas/${client.waba}/max-price-clearing`, { ratio: 0.6 });
  const list = await call('PUT', `/v1/clients/${client.clientId}/price-list`, {
    token: await tokens.bsp(),
    body: { effective_from: today(), currency: 'USD', markup_percent: 20, max_price_markup_percent: 10 },
  });
  expect(list.status).toBe(200);
}, 60_000);

describe('a max-price send (decisions §34)', () => {
  it('is reserved at its max, charged at the emulator’s price, and on the statement as its own line', { timeout: 120_000 }, async () => {
    // Prepare
    const before = await budget();
    // Act: accepted and sent; the reservation read while Meta has reported nothing but `sent`; then delivered
    const accepted = await send({ max_price: MAX });
    const sendId = accepted.body.send_id as string;
    const { sent } = await until(
      () => emulator('GET', `sent?phone_number_id=${client.numberId}&template=summer_promo`),
      (found) => found.sent.length === 3,
      60_000,
    );
    const reserved = await budget();
    for (const message of sent) await emulator('POST', `messages/${encodeURIComponent(message.id)}/status`, { status: 'delivered' });
    const status = await until(
      () => sendAsBsp(sendId),
      (s) => s.delivered === 3 && s.cost?.billable === 3,
      30_000,
    );
    const after = await until(budget, (b) => micros(b.spent) - micros(before.spent) === 3 * Math.round(CHARGED_MICROS * 1.1), 20_000);
    const books = (await emulator('GET', `pricing?waba_id=${client.waba}`)).delivered as { micros: number; max_price?: unknown }[];
    const month = after.month as string;
    const statement = await call('GET', `/v1/clients/${client.clientId}/statements/${month}`, { token: await tokens.bsp() });
    // Assess: Meta was given the bid, and charged 60 % of it
    expect(accepted.status).toBe(200);
    expect(accepted.body.estimate).toMatchObject({ currency: 'USD', amount: 0.099, max_price: MAX });
    expect(sent.map((m: { message: Record<string, unknown> }) => m.message.optimization_spec)).toEqual([
      { bid_amount: 30 },
      { bid_amount: 30 },
      { bid_amount: 30 },
    ]);
    expect(books.filter((d) => d.max_price).map((d) => d.micros)).toEqual([CHARGED_MICROS, CHARGED_MICROS, CHARGED_MICROS]);
    // Reserved at the max resold at +10 %, then spent at the charged price resold at +10 %, nothing left reserved
    expect(micros(reserved.reserved) - micros(before.reserved)).toBe(3 * Math.round(MAX_MICROS * 1.1));
    expect(micros(after.reserved)).toBe(micros(before.reserved));
    expect(micros(status.cost.amount)).toBe(3 * CHARGED_MICROS);
    expect(status.cost.by_category).toMatchObject({ marketing_max_price: { messages: 3 } });
    // The statement's own line: cost and price to the micro-unit
    const line = statement.body.statements[0].lines.find((l: { category: string }) => l.category === 'marketing_max_price');
    expect(statement.status).toBe(200);
    expect(line).toMatchObject({
      kind: 'charge',
      market: 'Mexico',
      messages: 3,
      billable: 3,
      unit_price: Math.round(CHARGED_MICROS * 1.1),
    });
    expect(micros(line.amount)).toBe(3 * Math.round(CHARGED_MICROS * 1.1));
    expect(micros(line.cost)).toBe(3 * CHARGED_MICROS);
  });

  it('refuses a max price off MARKETING, off the Marketing Messages API or in another currency than the WABA’s, naming it', async () => {
    // Act
    const utility = await send({ max_price: MAX }, 'order_update');
    const cloud = await send({ max_price: MAX, marketing_api: 'cloud' });
    const euro = await send({ max_price: { amount_per_1000: 30, currency: 'EUR' } });
    const fraction = await send({ max_price: { amount_per_1000: 30.0001, currency: 'USD' } });
    // Assess
    for (const refused of [utility, cloud, euro, fraction]) expectErrorShape(refused, 400);
    expect(utility.body.details).toEqual([expect.objectContaining({ path: 'max_price' })]);
    expect(cloud.body.details).toEqual([expect.objectContaining({ path: 'max_price' })]);
    expect(euro.body.details).toEqual([expect.objectContaining({ path: 'max_price.currency' })]);
    expect(fraction.body.details).toEqual([expect.objectContaining({ path: 'max_price.amount_per_1000' })]);
  });
});
