import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UnconfiguredVault } from '#lib/adapters/aws/secret-vault.ts';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphOnboarding } from '#lib/adapters/graph/graph-onboarding.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { Forbidden } from '#lib/domain/shared/errors.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { type OnboardingDeps, resumeOnboarding, startOnboarding } from '#lib/domain/shared/onboarding.ts';
import { onboardedTemplates } from '#lib/domain/templates/onboarded-templates.ts';
import { EMULATOR_TOKEN, GraphEmulator } from '../../local/standins/graph/emulator.ts';
import { EMULATOR_CREDIT_LINE } from '../../local/standins/graph/signup.ts';
import { MemoryDirectoryStore } from '../support/memory/shared/directory-store.ts';
import { MemoryDirectoryWriter, MemoryOnboardingStore, MemoryVault } from '../support/memory/shared/onboarding-store.ts';
import { MemoryTemplateRecords } from '../support/memory/templates/template-records.ts';
import { MemoryTemplateTable } from '../support/memory/templates/template-table.ts';
import { MemoryEventPublisher } from '../support/memory/webhooks/event-publisher.ts';
import { MemoryOutboxStore } from '../support/memory/webhooks/outbox-store.ts';
import { DEMO_FIXTURE } from '../support/memory/world.ts';

/**
 * Onboarding by Embedded Signup (issue 55 item 1): the use case on in-memory stores and the service's Graph adapter
 * on the emulator in process, which plays the popup (`POST /_emulator/embedded-signup`) and answers each call as
 * docs/platform-2027.md §1 gives Meta's words.
 */
const BSP: Caller = { sub: 'ops', clientId: 1, permissions: ['BSP_CN'], campaigns: [], isBsp: true };
const CLIENT = 7;

function world(settings: OnboardingDeps['settings'] = { providerPaysMeta: true, providerBusinessId: 'provider-business' }) {
  const emulator = new GraphEmulator(DEMO_FIXTURE);
  const options = {
    baseUrl: 'http://graph.emulator',
    token: async () => EMULATOR_TOKEN,
    fetch: emulator.fetch,
    log: silentLog,
    baseDelayMs: 1,
  };
  const client = new GraphClient(options);
  const writer = new MemoryDirectoryWriter();
  const vault = new MemoryVault();
  const onboardings = new MemoryOnboardingStore();
  const table = new MemoryTemplateTable();
  const directory = MemoryDirectoryStore.fromFile(DEMO_FIXTURE);
  const records = new MemoryTemplateRecords(table);
  const templates = onboardedTemplates({
    directory,
    records,
    outbox: new MemoryOutboxStore(table),
    publisher: new MemoryEventPublisher(),
    upstream: new GraphUpstream(client, 'local-app'),
    log: silentLog,
  });
  const deps: OnboardingDeps = {
    onboardings,
    upstream: new GraphOnboarding(client, { ...options, appId: 'local-app', appSecret: async () => 'local-app-secret' }),
    vault,
    directory,
    writer,
    templates,
    log: silentLog,
    sha256: (text) => createHash('sha256').update(text).digest('hex'),
    settings,
  };
  const control = async (path: string, body: unknown) =>
    (await emulator.fetch(`http://graph.emulator/_emulator/${path}`, { method: 'POST', body: JSON.stringify(body) })).json();
  const popup = (body: Record<string, unknown> = {}) =>
    control('embedded-signup', { currency: 'EUR', timezone_id: '100', ...body }) as Promise<{
      code: string;
      waba_id: string;
      phone_number_id: string;
    }>;
  const calls = (suffix: string) => emulator.calls.filter((c) => c.path.endsWith(suffix)).length;
  return { emulator, client, deps, writer, vault, onboardings, control, popup, calls, records };
}

const statuses = (answer: { steps: { step: string; status: string }[] }) => Object.fromEntries(answer.steps.map((s) => [s.step, s.status]));

describe('onboarding by Embedded Signup (issue 55 item 1)', () => {
  it('exchanges, registers, subscribes, shares the credit line, reads the WABA and adds it with its number and channel', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup();
    // Act
    const answer = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Assess
    expect(answer.status).toBe('completed');
    expect(statuses(answer)).toEqual({
      exchange: 'done',
      register: 'done',
      subscribe: 'done',
      credit_line: 'done',
      read_waba: 'done',
      add_to_directory: 'done',
      templates: 'done',
    });
    expect(w.emulator.model.signup.allocations[signup.waba_id]).toMatchObject({ currency: 'EUR' });
    expect(w.emulator.model.signup.subscribed).toContain(signup.waba_id);
    expect(w.emulator.model.signup.registered).toContain(signup.phone_number_id);
    const [channel] = [...w.writer.channels.values()];
    expect(channel).toMatchObject({
      client_id: CLIENT,
      waba_id: signup.waba_id,
      phone_number_id: signup.phone_number_id,
      is_on_biz_app: false,
    });
    expect(answer.channels).toEqual([channel.wa_id]);
    expect(w.writer.wabas.get(signup.waba_id)).toMatchObject({ namespace: `ns_${signup.waba_id}`, credentials_ref: expect.any(String) });
    expect(w.writer.currencies.get(signup.waba_id)).toEqual({ currency: 'EUR', timezone_id: '100' });
    expect(answer.allocation_config_id).toEqual(expect.any(String));
  });

  it('never answers or keeps the business token or the PIN outside the vault', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup();
    // Act
    const answer = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Assess
    const secret = JSON.parse([...w.vault.kept.values()][0]) as { token: string; pin: string };
    expect(secret.token).toMatch(/^EAAB/);
    for (const text of [JSON.stringify(answer), JSON.stringify([...w.onboardings.items.values()])]) {
      expect(text).not.toContain(secret.token);
      expect(text).not.toContain(signup.code);
      expect(text).not.toContain('123456');
    }
  });

  it('adds nothing twice for the same code twice', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup();
    const first = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Act
    const second = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Assess
    expect(second).toEqual(first);
    expect(w.writer.writes).toBe(1);
    expect(w.calls('/oauth/access_token')).toBe(1);
    expect(w.calls('/register')).toBe(1);
  });

  it('leaves a failed registration failed_at register, and the resume goes on from it without a second exchange', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup();
    await w.control('faults', { status: 500, times: 1, path: `${signup.phone_number_id}/register` });
    const failed = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    const writesWhenFailed = w.writer.writes;
    // Act
    const resumed = await resumeOnboarding(w.deps, BSP, CLIENT, failed.onboarding_id, {});
    // Assess
    expect(failed).toMatchObject({ status: 'failed', failed_at: 'register' });
    expect(statuses(failed)).toMatchObject({ exchange: 'done', register: 'failed', subscribe: 'pending' });
    expect(failed.steps[1].error).toEqual(expect.any(String));
    expect(writesWhenFailed).toBe(0);
    expect(resumed.status).toBe('completed');
    expect(resumed).not.toHaveProperty('failed_at');
    expect(w.calls('/oauth/access_token')).toBe(1);
    expect(w.calls('/register')).toBe(2);
    expect(w.writer.channels.size).toBe(1);
  });

  it('fails a wrong PIN with Meta’s 133005 and resumes with the right one', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup({ pin: '654321' });
    const failed = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Act
    const resumed = await resumeOnboarding(w.deps, BSP, CLIENT, failed.onboarding_id, { pin: '654321' });
    // Assess
    expect(failed.failed_at).toBe('register');
    expect(failed.steps[1].error).toContain('133005');
    expect(resumed.status).toBe('completed');
  });

  it('skips registering a coexistence number, marks its channel and paces it at 20 a second', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup({ coexistence: true });
    // Act
    const answer = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, coexistence: true });
    // Assess
    expect(statuses(answer)).toMatchObject({ register: 'skipped', add_to_directory: 'done' });
    expect(w.calls('/register')).toBe(0);
    expect([...w.writer.channels.values()][0].is_on_biz_app).toBe(true);
    expect(await new GraphUpstream(w.client, 'app').throughputOf(signup.phone_number_id)).toBe('COEXISTENCE');
  });

  it('skips the credit line where the client pays Meta', async () => {
    // Prepare
    const w = world({ providerPaysMeta: false });
    const signup = await w.popup();
    // Act
    const answer = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Assess
    expect(statuses(answer).credit_line).toBe('skipped');
    expect(w.calls('/whatsapp_credit_sharing_and_attach')).toBe(0);
    expect(answer.status).toBe('completed');
  });

  it('fails the exchange, keeping no token, where the deployment has nowhere to keep one', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup();
    // Act
    const answer = await startOnboarding({ ...w.deps, vault: new UnconfiguredVault() }, BSP, CLIENT, { ...signup, coexistence: true });
    // Assess
    expect(answer).toMatchObject({ status: 'failed', failed_at: 'exchange' });
    expect(answer.steps[0].error).toContain('ONBOARDING_SECRET_PREFIX');
    expect(w.writer.writes).toBe(0);
  });

  it('lets a client’s admin onboard for its own client only, and no agent', async () => {
    // Prepare
    const w = world();
    const signup = await w.popup();
    const admin: Caller = { sub: 'a', clientId: CLIENT, permissions: [], campaigns: [], role: 'admin', isBsp: false };
    const agent: Caller = { ...admin, role: undefined };
    // Act
    const refusals = await Promise.allSettled([
      startOnboarding(w.deps, agent, CLIENT, { ...signup, pin: '123456' }),
      startOnboarding(w.deps, admin, 8, { ...signup, pin: '123456' }),
    ]);
    const own = await startOnboarding(w.deps, admin, CLIENT, { ...signup, pin: '123456' });
    // Assess
    for (const refusal of refusals) expect(refusal).toMatchObject({ status: 'rejected', reason: expect.any(Forbidden) });
    expect(own.status).toBe('completed');
  });
});

describe('onboarding every number and template of the WABA (issue 55)', () => {
  const approved = (name: string) => ({
    id: `tpl_${name}`,
    name,
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: `Hello from ${name}` }],
  });

  it('registers each number that needs it, skips the coexistence one, and adds a channel for each and the templates', async () => {
    // Prepare: a WABA of three numbers, the third on the WhatsApp Business app, and two templates
    const w = world();
    const signup = await w.popup({
      numbers: [{ display_phone_number: '+1 555 0100002' }, { display_phone_number: '+1 555 0100003', coexistence: true }],
      templates: [approved('order_ready'), approved('order_late')],
    });
    // Act
    const answer = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Assess
    expect(answer.status).toBe('completed');
    expect(answer.numbers?.map((n) => [n.is_on_biz_app, n.registration?.status])).toEqual([
      [false, 'done'],
      [false, 'done'],
      [true, 'skipped'],
    ]);
    expect(w.calls('/register')).toBe(2);
    expect([...w.writer.channels.values()].map((c) => c.is_on_biz_app)).toEqual([false, false, true]);
    expect(answer.channels).toHaveLength(3);
    expect(answer.templates_seen).toBe(2);
    const names = (await w.records.listForClient(CLIENT)).filter((r) => r.waba_id === signup.waba_id).map((r) => r.meta_template.name);
    expect(names.sort()).toEqual(['order_late', 'order_ready']);
  });

  it('reads every page of the WABA’s numbers', async () => {
    // Prepare: 104 numbers, more than one page of 100
    const w = world();
    const more = Array.from({ length: 103 }, (_, i) => ({
      display_phone_number: `+1 555 02${String(i).padStart(5, '0')}`,
      coexistence: true,
    }));
    const signup = await w.popup({ numbers: more });
    // Act
    const answer = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Assess
    expect(answer.numbers).toHaveLength(104);
    expect(w.calls('/phone_numbers')).toBe(2);
    expect(w.writer.channels.size).toBe(104);
  });

  it('keeps each number’s outcome: a resume registers only the one that failed, and adds nothing twice', async () => {
    // Prepare: the second number's registration fails once
    const w = world();
    const signup = await w.popup({ numbers: [{ phone_number_id: '977000000002', display_phone_number: '+1 555 0100012' }] });
    await w.control('faults', { status: 500, times: 1, path: '977000000002/register' });
    const failed = await startOnboarding(w.deps, BSP, CLIENT, { ...signup, pin: '123456' });
    // Act
    const resumed = await resumeOnboarding(w.deps, BSP, CLIENT, failed.onboarding_id, {});
    // Assess
    expect(failed).toMatchObject({ status: 'failed', failed_at: 'register' });
    expect(failed.numbers?.map((n) => n.registration?.status)).toEqual(['done', 'failed']);
    expect(failed.steps[1].error).toContain('+1 555 0100012');
    expect(resumed.status).toBe('completed');
    expect(w.emulator.calls.filter((c) => c.path.endsWith(`${signup.phone_number_id}/register`))).toHaveLength(1);
    expect(w.calls('/register')).toBe(3);
    expect(w.writer.channels.size).toBe(2);
  });
});

describe('the emulator’s onboarding calls (docs/platform-2027.md §1.3)', () => {
  it('exchanges a code once and refuses it the second time', async () => {
    // Prepare
    const w = world();
    const { code } = await w.popup();
    const exchange = () => w.emulator.fetch(`http://graph.emulator/v24.0/oauth/access_token?client_id=a&client_secret=s&code=${code}`);
    // Act
    const first = await exchange();
    const second = await exchange();
    // Assess
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ access_token: expect.any(String), token_type: 'bearer' });
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: { code: 100, error_subcode: 36009 } });
  });

  it('blocks a number after 10 registrations in 72 hours with 133016', async () => {
    // Prepare
    const w = world();
    const { phone_number_id: id } = await w.popup();
    const register = () =>
      w.emulator.fetch(`http://graph.emulator/v24.0/${id}/register`, {
        method: 'POST',
        headers: { authorization: `Bearer ${EMULATOR_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', pin: '123456' }),
      });
    for (let i = 0; i < 10; i++) await register();
    // Act
    const eleventh = await register();
    // Assess
    expect(eleventh.status).toBe(400);
    expect(await eleventh.json()).toMatchObject({ error: { code: 133016 } });
  });

  it('lists the provider’s credit line and the WABA’s numbers with platform_type and is_on_biz_app', async () => {
    // Prepare
    const w = world();
    const { waba_id } = await w.popup({ coexistence: true });
    // Act
    const lines = await w.client.request('GET', 'provider-business/extendedcredits');
    const numbers = await w.client.request('GET', `${waba_id}/phone_numbers`);
    const waba = await w.client.request('GET', waba_id, { query: { fields: 'currency,timezone_id,owner_business_info' } });
    // Assess
    expect(lines).toEqual({ data: [EMULATOR_CREDIT_LINE] });
    expect(numbers).toMatchObject({ data: [{ platform_type: 'CLOUD_API', is_on_biz_app: true, code_verification_status: 'VERIFIED' }] });
    expect(waba).toMatchObject({ currency: 'EUR', timezone_id: '100', owner_business_info: { id: expect.any(String) } });
  });
});
