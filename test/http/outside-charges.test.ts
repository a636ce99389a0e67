import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { call } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { postMessagesChange } from '../support/meta-change.ts';
import { until } from '../support/until.ts';

/**
 * Charges of messages sent elsewhere (decisions §30, issue 51 item 5), on the running local stack: a priced
 * status of a message the service never sent (a reply in the customer-service window) is charged to the client
 * that owns the sending number, once however often Meta repeats it.
 */
const client = new OwnClient(733);
const run = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
const MEXICO = `52155${run}9`;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  await client.seed('Outside', [demoTemplateAs('order_update', { id: 't733' })]);
}, 60_000);

/** Meta's `messages` change with one status of a message sent from another tool on the client's number. */
function replyStatus(messageId: string) {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: client.did, phone_number_id: client.numberId },
    statuses: [
      {
        id: messageId,
        status: 'delivered',
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: MEXICO,
        pricing: { category: 'service', type: 'regular', pricing_model: 'PMP' },
      },
    ],
  };
  return postMessagesChange(client.waba, value);
}

const usageByCategory = async () => {
  const usage = await call('GET', `/v1/usage?from=${today()}&to=${today()}&group_by=category`, { token: await client.token() });
  return (usage.body.data ?? []) as { category: string; messages: number; amount: number }[];
};

describe('a message sent elsewhere on a client’s number (decisions §30)', () => {
  it('is charged to the number’s client once, a service message at the utility rate', async () => {
    // Prepare
    const messageId = `wamid.outside.${run}`;
    const { market } = rateCards.placeOf(MEXICO, today());
    const utility = rateCards.priceMicros(market, 'utility', today()) / 1e6;
    // Act: Meta sends the status, then sends it again
    const first = await replyStatus(messageId);
    const charged = await until(usageByCategory, (rows) => rows.some((r) => r.category === 'service'), 30_000, 200);
    const again = await replyStatus(messageId);
    await new Promise((r) => setTimeout(r, 3_000));
    const after = await usageByCategory();
    // Assess
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(charged.find((r) => r.category === 'service')).toMatchObject({ messages: 1 });
    expect(after.find((r) => r.category === 'service')).toMatchObject({ messages: 1 });
    expect(Math.round((after.find((r) => r.category === 'service')?.amount ?? 0) * 1e4)).toBe(Math.round(utility * 1e4));
    expect(utility).toBeGreaterThan(0);
  });
});
