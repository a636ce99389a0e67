import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#lib/adapters/dynamo/table.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, emulator } from '../support/api.ts';
import { postMessagesChange } from '../support/meta-change.ts';
import { OwnClient } from '../support/own-client.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Volume tiers counted per business portfolio, on the running local stack (decisions §31, issue 53 item 2, "done
 * when"): clients 672 and 673 each have a WABA, both of one portfolio (one `business_id`, new each run, so its
 * counts start at zero). Meta's tier webhook names client 672's WABA; the next charged message of both WABAs is at
 * the new tier. Each message is a status of a message sent elsewhere on the client's number (decisions §30),
 * stamped in April 2026, when the 2026-04-01 card, which gives Brazil utility tiers, is in force.
 */
const first = new OwnClient(672);
const second = new OwnClient(673);
const run = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
const PORTFOLIO = `bp672-${run}`;
const DAY = '2026-04-15';
const AT_S = Math.floor(Date.parse(`${DAY}T12:00:00Z`) / 1000);
const TIERS = rateCards.on(DAY).tiers!.Brazil.utility!;
const micros = (amount: number) => Math.round(amount * 1e6);

beforeAll(async () => {
  const clients = [first, second];
  await seedDirectory({
    clients: clients.map((c) => ({ client_id: c.clientId, client_name: `Portfolio ${c.clientId}` })),
    wabas: clients.map((c) => ({ ...waba(c.waba, []), business_id: PORTFOLIO, business_name: 'One portfolio' })),
    channels: clients.map((c) => ({ wa_id: c.did, client_id: c.clientId, waba_id: c.waba, phone_number_id: c.numberId })),
  });
  for (const c of clients)
    await emulator('POST', 'wabas', { id: c.waba, templates: [], phone_numbers: [{ id: c.numberId, display_phone_number: c.did }] });
}, 60_000);

/** Meta's `delivered` of a utility message to Brazil sent from the client's number by another tool, in April 2026. */
function delivered(client: OwnClient, n: number) {
  return postMessagesChange(client.waba, {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: client.did, phone_number_id: client.numberId },
    statuses: [
      {
        id: `wamid.tiers.${run}.${client.clientId}.${n}`,
        status: 'delivered',
        timestamp: String(AT_S + n),
        recipient_id: `55119${run}${client.clientId % 10}${n}`,
        pricing: { billable: true, category: 'utility', type: 'regular', pricing_model: 'PMP' },
      },
    ],
  });
}

/** The client's utility usage of the day once it counts `messages`. */
async function utilityOnceCounted(client: OwnClient, messages: number) {
  const utility = async () => {
    const usage = await call('GET', `/v1/usage?from=${DAY}&to=${DAY}&group_by=category`, { token: await client.token() });
    return ((usage.body.data ?? []) as { category: string; messages: number; amount: number }[]).find((r) => r.category === 'utility');
  };
  return until(utility, (row) => row?.messages === messages, 30_000, 200);
}

/** Meta's tier item of the portfolio's April, once the worker has written it. */
async function portfolioTierItem() {
  const table = serviceTable();
  const read = async () =>
    (
      await table.client.send(
        new GetCommand({ TableName: table.name, Key: { pk: keys.volumeTiers(PORTFOLIO), sk: keys.ledgerMonth('2026-04') } }),
      )
    ).Item;
  return until(read, (item) => item !== undefined, 30_000, 200);
}

describe('volume tiers counted per business portfolio (decisions §31)', () => {
  it('moves the next charged message of both WABAs of a portfolio to the tier Meta’s webhook names for one', async () => {
    // Prepare: client 673's first message, priced on the portfolio's count at the first tier
    const before = await delivered(second, 0);
    const atFirstTier = await utilityOnceCounted(second, 1);
    // Act: Meta says client 672's WABA reached the second tier, then a message from each WABA
    const update = await emulator('POST', 'account-update', {
      waba_id: first.waba,
      volume_tier_info: {
        pricing_category: 'UTILITY',
        tier: `${TIERS[1].from}:${TIERS[1].to}`,
        effective_month: '2026-04',
        region: 'Brazil',
      },
    });
    const tierItem = await portfolioTierItem();
    const after = [await delivered(first, 1), await delivered(second, 2)];
    const [firstUsage, secondUsage] = [await utilityOnceCounted(first, 1), await utilityOnceCounted(second, 2)];
    // Assess: the tier is the portfolio's; each WABA's next message costs the second tier's rate
    expect([before.status, ...after.map((a) => a.status)]).toEqual([200, 200, 200]);
    expect(update).toMatchObject({ queued: true });
    expect(tierItem?.['V|Brazil|utility']).toBe(TIERS[1].from - 1);
    expect(micros(atFirstTier?.amount ?? 0)).toBe(micros(TIERS[0].rate));
    expect(micros(firstUsage?.amount ?? 0)).toBe(micros(TIERS[1].rate));
    expect(micros(secondUsage?.amount ?? 0)).toBe(micros(TIERS[0].rate + TIERS[1].rate));
  });
});
