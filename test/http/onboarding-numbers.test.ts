import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, token, tokens } from '../support/api.ts';
import { demoTemplateAs } from '../support/own-client.ts';
import { seedDirectory } from '../support/seed.ts';

/**
 * An onboarding adds all of the WABA's numbers and its templates (issue 55), through the stack: the emulator's
 * popup makes a WABA of three numbers, the third on the WhatsApp Business app (coexistence), and two templates.
 * Client 690's admin onboards it; each number's registration is kept, the coexistence one skipped, each gets a
 * channel, and the templates are in the client's listing without a sync.
 */
const CLIENT = 690;
const admin = () => token({ clientId: CLIENT, campaigns: [], role: 'admin', sub: 'admin-690' });
const bsp = () => tokens.bsp();
const numbers = [{ display_phone_number: '+52 1 555 690 0202' }, { display_phone_number: '+52 1 555 690 0203', coexistence: true }];
const templates = [
  demoTemplateAs('order_update', { id: '690001', name: 'onboarded_690_ready' }),
  demoTemplateAs('order_update', { id: '690002', name: 'onboarded_690_late' }),
];

type Signup = { code: string; waba_id: string; phone_number_id: string };
const popup = (display: string, extra: Record<string, unknown> = {}) =>
  emulator('POST', 'embedded-signup', {
    display_phone_number: display,
    currency: 'MXN',
    timezone_id: '58',
    ...extra,
  }) as Promise<Signup>;

const onboard = async (signup: Signup) =>
  call('POST', `/v1/clients/${CLIENT}/onboardings`, { token: await admin(), body: { ...signup, pin: '123456' } });

const channelsOf = async (wabaId: string) =>
  (
    await call('GET', `/v1/client-msg-channels?client_id=${CLIENT}&size=100&fields=wa_id,waba_id,is_on_biz_app`, { token: await bsp() })
  ).body.data.filter((c: { waba_id: string }) => c.waba_id === wabaId);

/** The emulator's registrations of these numbers. */
const registrationsOf = async (ids: string[]) =>
  ((await emulator('GET', 'calls')).calls as { path: string }[]).filter(
    (c) => c.path.endsWith('/register') && ids.some((id) => c.path.includes(id)),
  );

beforeAll(async () => {
  await seedDirectory({ clients: [{ client_id: CLIENT, client_name: 'Many Numbers Co' }] });
});

describe('an onboarding adds every number and template of the WABA (issue 55)', () => {
  it('registers the numbers that need it, skips the coexistence one, adds a channel for each and lists the templates', async () => {
    // Prepare
    const signup = await popup('+52 1 555 690 0201', { numbers, templates });
    // Act
    const onboarded = await onboard(signup);
    const listed = await call('GET', `/v1/templates?client_id=${CLIENT}&size=50`, { token: await bsp() });
    // Assess
    expect(onboarded.status).toBe(200);
    expect(onboarded.body.status).toBe('completed');
    expect(
      onboarded.body.numbers.map((n: { is_on_biz_app: boolean; registration: { status: string } }) => [
        n.is_on_biz_app,
        n.registration.status,
      ]),
    ).toEqual([
      [false, 'done'],
      [false, 'done'],
      [true, 'skipped'],
    ]);
    expect(onboarded.body.templates_seen).toBe(2);
    const channels = await channelsOf(signup.waba_id);
    expect(channels.map((c: { wa_id: string; is_on_biz_app?: boolean }) => [c.wa_id, c.is_on_biz_app ?? false]).sort()).toEqual([
      ['5215556900201', false],
      ['5215556900202', false],
      ['5215556900203', true],
    ]);
    const names = listed.body.data.map((t: { meta_template?: { name: string } }) => t.meta_template?.name);
    expect(names).toEqual(expect.arrayContaining(['onboarded_690_ready', 'onboarded_690_late']));
  });

  it('resumes a registration that failed on one number, registering only that one, and adds nothing twice', async () => {
    // Prepare: the WABA's second number refuses its registration once
    const signup = await popup('+52 1 555 690 0301', {
      numbers: [{ phone_number_id: '969000000302', display_phone_number: '+52 1 555 690 0302' }],
    });
    await emulator('POST', 'faults', { status: 500, times: 1, path: '969000000302/register' });
    const failed = await onboard(signup);
    const ids = [signup.phone_number_id, '969000000302'];
    const before = (await registrationsOf(ids)).length;
    // Act
    const resumed = await call('POST', `/v1/clients/${CLIENT}/onboardings/${failed.body.onboarding_id}/resume`, {
      token: await admin(),
      body: {},
    });
    const again = await onboard(signup);
    // Assess
    expect(failed.body).toMatchObject({ status: 'failed', failed_at: 'register' });
    expect(failed.body.numbers.map((n: { registration: { status: string } }) => n.registration.status)).toEqual(['done', 'failed']);
    expect(resumed.body.status).toBe('completed');
    const after = await registrationsOf(ids);
    expect(after.length - before).toBe(1);
    expect(after.at(-1)?.path).toContain('969000000302/register');
    expect(again.body).toEqual(resumed.body);
    expect(await channelsOf(signup.waba_id)).toHaveLength(2);
  });
});
