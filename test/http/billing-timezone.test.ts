import { beforeAll, describe, expect, it } from 'vitest';
import { dayIn, monthAfter, monthOf } from '#lib/domain/shared/calendar.ts';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * A client's billing timezone (decisions §31, issue 53 item 3), on the running local stack: BSP_CN sets client
 * 678's to India's (+05:30) through the import, while its WABA counts in UTC. Its statement months close at 00:00
 * on the 3rd in India, 18:30 UTC on the 2nd, and its budget's month is India's.
 */
const client = new OwnClient(678);
const KOLKATA = 'Asia/Kolkata';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const MEXICO = `52155${run}0001`;
const templates = [demoTemplateAs('order_update', { id: 't678', category: 'MARKETING' })];

/** Client 678 in the directory with its billing timezone, its WABA, number and template. */
const directory = (billingTimezone: string) => ({
  clients: [{ client_id: client.clientId, client_name: 'Billed in India', billing_timezone: billingTimezone }],
  wabas: [waba(client.waba, templates)],
  channels: [{ wa_id: client.did, client_id: client.clientId, waba_id: client.waba, phone_number_id: client.numberId }],
});

beforeAll(async () => {
  await seedDirectory(directory(KOLKATA));
  await emulator('POST', 'wabas', {
    id: client.waba,
    templates,
    phone_numbers: [{ id: client.numberId, display_phone_number: client.did }],
  });
  // Meta reports only `sent` by itself: the test reports the delivery.
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent'] });
}, 60_000);

describe('a client billed in India’s timezone (decisions §31)', () => {
  it('shows its statement’s closes_at at 00:00 on the 3rd in India: 18:30 UTC on the 2nd', { timeout: 120_000 }, async () => {
    // Prepare: one message delivered, charged on the WABA's (UTC) day of now
    const delivered = await client.deliveredAt('order_update', MEXICO, Date.now());
    const month = monthOf(Date.now());
    // Act
    const read = await until(
      async () => call('GET', `/v1/clients/${client.clientId}/statements/${month}`, { token: await client.token() }),
      (answer) => answer.status === 200,
      30_000,
      500,
    );
    // Assess
    expect(delivered.delivered).toBe(1);
    expect(read.body).toMatchObject({ status: 'open', closes_at: `${monthAfter(month)}-02T18:30:00.000Z` });
  });

  it('answers its budget in India’s month', async () => {
    // Act
    const budget = await call('GET', `/v1/clients/${client.clientId}/budget`, { token: await client.token() });
    // Assess
    expect(budget.status).toBe(200);
    expect(budget.body.month).toBe(monthOf(dayIn(Date.now(), KOLKATA)));
  });

  it('refuses an import whose billing timezone Intl does not know, naming it, and changes nothing', async () => {
    // Act
    const refused = seedDirectory(directory('India/Mumbai'));
    // Assess
    await expect(refused).rejects.toThrow(/clients\[0\]\.billing_timezone: unknown time zone "India\/Mumbai"/);
    const read = await call('GET', `/v1/clients/${client.clientId}/statements/${monthOf(Date.now())}`, { token: await client.token() });
    expect(read.body.closes_at).toBe(`${monthAfter(monthOf(Date.now()))}-02T18:30:00.000Z`);
  });
});
