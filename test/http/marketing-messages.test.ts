import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoMarketingOnboardings } from '#lib/adapters/dynamo/sends/marketing-onboardings.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { useStackTable } from '../support/seed.ts';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { call, emulator, expectErrorShape, graphUrl } from '../support/api.ts';
import { until } from '../support/until.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * The Marketing Messages API on the running local stack (decisions §28, issue 43): client 581's WABA accepts
 * the terms (Meta's MM_LITE_TERMS_SIGNED webhook), client 582's does not. Both numbers report sent and delivered.
 */
const onboarded = new OwnClient(581);
const cloudOnly = new OwnClient(582);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numberOf = (client: number, i: number) => `52${client}${run}${String(i).padStart(4, '0')}`;
const params = { header: ['Ana'], body: ['20%'] };
const promo = (client: OwnClient, i: number) => ({ to: numberOf(client.clientId, i), params });
const send = async (client: OwnClient, recipients: Record<string, unknown>[], extra: Record<string, unknown> = {}, query = '') =>
  call('POST', `/v1/template/messages/${client.did}${query}`, {
    token: await client.token(),
    body: {
      did: client.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'summer_promo', language: 'en_US' },
      recipients,
      ...extra,
    },
  });
const sentBy = async (client: OwnClient) =>
  (await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as { message: Record<string, unknown>; api?: string }[];
const graph = (path: string, body: unknown) =>
  fetch(`${graphUrl()}/v21.0/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${EMULATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  for (const client of [onboarded, cloudOnly]) {
    await client.seed(`Marketing ${client.clientId}`, [
      demoTemplateAs('summer_promo', { id: `t${client.clientId}m`, status: 'APPROVED' }),
      demoTemplateAs('order_update', { id: `t${client.clientId}` }),
    ]);
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  }
  await emulator('POST', `wabas/${onboarded.waba}/marketing-messages`, { onboarded: true });
}, 60_000);

describe('the Marketing Messages API (decisions §28)', () => {
  it('tells the service of the onboarding with Meta’s MM_LITE_TERMS_SIGNED webhook, and Graph’s field says ONBOARDED', async () => {
    // Prepare: the table the stack keeps each WABA's onboarding in
    useStackTable();
    const onboardings = new DynamoMarketingOnboardings(serviceTable());
    // Act
    const kept = await until(
      () => onboardings.get(onboarded.waba),
      (state) => state?.onboarded === true,
      20_000,
    );
    const field = await fetch(`${graphUrl()}/v21.0/${onboarded.waba}?fields=marketing_messages_onboarding_status`, {
      headers: { authorization: `Bearer ${EMULATOR_TOKEN}` },
    });
    // Assess
    expect(kept).toMatchObject({ onboarded: true, source: 'webhook' });
    expect(await field.json()).toMatchObject({ marketing_messages_onboarding_status: 'ONBOARDED' });
  });

  it('sends an onboarded WABA’s MARKETING send through /marketing_messages, priced as marketing, and says so on each row', {
    timeout: 90_000,
  }, async () => {
    // Prepare
    const recipients = [promo(onboarded, 1), promo(onboarded, 2)];
    // Act
    const accepted = await send(onboarded, recipients, { ttl_seconds: 86_400 });
    const status = await onboarded.settled(accepted.body.send_id, (s) => s.delivered === 2);
    const rows = await call('GET', `/v1/sends/${accepted.body.send_id}/recipients`, { token: await onboarded.token() });
    const sent = (await sentBy(onboarded)).filter((m) => recipients.some((r) => r.to === m.message.to));
    // Assess: Meta's category marketing_lite, at the card's marketing rate of the market
    const rate = rateCards.priceMicros('Mexico', 'marketing', new Date().toISOString().slice(0, 10)) / 1e6;
    expect(accepted.status).toBe(200);
    expect(sent.map((m) => m.api)).toEqual(['mm', 'mm']);
    expect(status).toMatchObject({ delivered: 2, cost: { by_category: { marketing_lite: { messages: 2 } } } });
    expect(status.cost.amount).toBeCloseTo(2 * rate, 6);
    expect(rows.body.data.map((r: { api: string; pricing: { category: string } }) => [r.api, r.pricing.category])).toEqual([
      ['mm', 'marketing_lite'],
      ['mm', 'marketing_lite'],
    ]);
  });

  it('sends a WABA’s MARKETING send through /messages when it is not onboarded; marketing_api mm or a ttl_seconds there is 400', {
    timeout: 90_000,
  }, async () => {
    // Prepare
    const recipients = [promo(cloudOnly, 1)];
    // Act
    const accepted = await send(cloudOnly, recipients);
    const status = await cloudOnly.settled(accepted.body.send_id, (s) => s.delivered === 1);
    const mm = await send(cloudOnly, recipients, { marketing_api: 'mm' });
    const mmDry = await send(cloudOnly, recipients, { marketing_api: 'mm' }, '?dry_run=true');
    const ttl = await send(cloudOnly, recipients, { ttl_seconds: 86_400 });
    const shortTtl = await send(onboarded, [promo(onboarded, 9)], { ttl_seconds: 60 });
    const unknownApi = await send(onboarded, [promo(onboarded, 9)], { marketing_api: 'whatsapp' });
    const [message] = (await sentBy(cloudOnly)).filter((m) => m.message.to === recipients[0].to);
    // Assess
    expect(message.api).toBeUndefined();
    expect(message.message.product_policy).toBeUndefined();
    expect(status).toMatchObject({ delivered: 1, cost: { by_category: { marketing: { messages: 1 } } } });
    for (const refused of [mm, mmDry, ttl, shortTtl, unknownApi]) expectErrorShape(refused, 400);
    expect(mm.body.details).toEqual([expect.objectContaining({ path: 'marketing_api' })]);
  });

  it('keeps an onboarded WABA’s MARKETING send on the Cloud API when asked (marketing_api cloud)', {
    timeout: 90_000,
  }, async () => {
    // Prepare
    const recipients = [promo(onboarded, 20)];
    // Act
    const accepted = await send(onboarded, recipients, { marketing_api: 'cloud' });
    await onboarded.settled(accepted.body.send_id, (s) => s.delivered === 1);
    const [message] = (await sentBy(onboarded)).filter((m) => m.message.to === recipients[0].to);
    // Assess
    expect(message.api).toBeUndefined();
  });

  it('emulates Meta’s product_policy: CLOUD_API_FALLBACK falls back where the terms are not signed, STRICT refuses', async () => {
    // Prepare
    const message = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: numberOf(582, 30),
      type: 'template',
      template: {
        name: 'summer_promo',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'Ana' }] },
          { type: 'body', parameters: [{ type: 'text', text: '20%' }] },
        ],
      },
    };
    // Act
    const fallback = await graph(`${cloudOnly.numberId}/marketing_messages`, { ...message, product_policy: 'CLOUD_API_FALLBACK' });
    const strict = await graph(`${cloudOnly.numberId}/marketing_messages`, { ...message, product_policy: 'STRICT' });
    const utility = await graph(`${onboarded.numberId}/marketing_messages`, {
      ...message,
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'x' }] }],
      },
    });
    // Assess
    expect(fallback.status).toBe(200);
    expect(strict.status).toBe(400);
    expect(utility.status).toBe(400);
  });
});
