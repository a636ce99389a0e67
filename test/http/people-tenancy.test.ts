import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Who sees what of the people map on the running local stack (decisions §32, issue 52 item 1). Clients 661 and
 * 662 each have a WABA and a number of one business portfolio, so the map keeps their pairs in one scope. 662's
 * number delivers to a person (the status pairs their phone number with their BSUID); 661 suppresses that BSUID
 * and dry-runs a MARKETING send to candidate numbers: its answer must not say which of them is the person.
 */
const acme = new OwnClient(661);
const beta = new OwnClient(662);
const PORTFOLIO = 'b66x';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const phoneOf = (n: number) => `52155${run}${String(n).padStart(3, '0')}`;
const userIdOf = (n: number) => `MX.66${run}${String(n).padStart(3, '0')}`;
const marketing = (id: string) => ({
  id,
  name: 'tenancy_offer',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'This week: {{1}}', example: { body_text: [['20% off']] } }],
});

/** The client's WABA in the shared portfolio, its number and templates, in the directory and at the emulator. */
async function seedInPortfolio(client: OwnClient, name: string, templates: Record<string, unknown>[]) {
  await seedDirectory({
    clients: [{ client_id: client.clientId, client_name: name }],
    wabas: [{ ...waba(client.waba, templates), business_id: PORTFOLIO, business_name: 'Shared portfolio' }],
    channels: [{ wa_id: client.did, client_id: client.clientId, waba_id: client.waba, phone_number_id: client.numberId }],
  });
  await emulator('POST', 'wabas', {
    id: client.waba,
    templates,
    phone_numbers: [{ id: client.numberId, display_phone_number: client.did }],
  });
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
}

const suppress = async (client: OwnClient, userId: string) =>
  call('POST', '/v1/suppressions', { token: await client.token(), body: { user_id: userId } });
const dryRun = (client: OwnClient, recipients: string[]) =>
  client.send('tenancy_offer', recipients, { query: '?dry_run=true', params: { body: ['20%'] } });
const suppressedOf = (dry: ApiResponse) => (dry.body as { suppressed?: unknown[] }).suppressed;

beforeAll(async () => {
  await seedInPortfolio(acme, 'Tenancy A', [marketing('t661m')]);
  await seedInPortfolio(beta, 'Tenancy B', [marketing('t662m'), demoTemplateAs('order_update', { id: 't662u' })]);
}, 60_000);

describe('a BSUID behind a number, learned from another client’s traffic (decisions §32)', () => {
  it('661 suppresses a BSUID 662’s number paired with a phone number; 661’s dry run to candidates names none of them', {
    timeout: 120_000,
  }, async () => {
    // Prepare: 662's number delivers to the person; 662 (control) finds them suppressed by its own pair
    const [phone, userId] = [phoneOf(1), userIdOf(1)];
    await emulator('POST', 'users', { phone, user_id: userId, username: `tenancy${run}` });
    const notice = await beta.send('order_update', [phone]);
    await beta.settled(notice.body.send_id, (s) => s.delivered === 1, 30_000);
    await suppress(beta, userId);
    const betaDry = await until(
      () => dryRun(beta, [`+${phone}`]),
      (dry) => suppressedOf(dry) !== undefined,
      20_000,
    );
    const added = await suppress(acme, userId);
    const candidates = [phoneOf(900), phone, phoneOf(902)].map((digits) => `+${digits}`);
    // Act
    const acmeDry = await dryRun(acme, candidates);
    // Assess: the map knows the pair (662 is served it); 661 is told nothing of it, and no number at all
    expect(added.status).toBe(200);
    expect(suppressedOf(betaDry)).toEqual([{ index: 0, to: `+${phone}` }]);
    expect(acmeDry.status).toBe(200);
    expect(acmeDry.body).toMatchObject({ dry_run: true, total: 3, valid: 3 });
    expect(suppressedOf(acmeDry)).toBeUndefined();
    expect(JSON.stringify(acmeDry.body)).not.toContain(phone);
  });
});
