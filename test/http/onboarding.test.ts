import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, token, tokens } from '../support/api.ts';
import { demoTemplateAs } from '../support/own-client.ts';
import { seedDirectory } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Onboarding by Embedded Signup through the stack (issue 55 item 1, its Done-when): the emulator plays the popup
 * (`POST /_emulator/embedded-signup`), the service exchanges the code, registers, subscribes, shares the credit line,
 * reads the WABA and adds it, its number and a channel to client 689's directory; a send from it reaches the emulator.
 */
const CLIENT = 689;
const TEMPLATE = demoTemplateAs('order_update', { id: '689001', name: 'onboarded_order' });
const bsp = () => tokens.bsp();
const admin = () => token({ clientId: CLIENT, campaigns: [], role: 'admin', sub: 'admin-689' });

/** The popup, as the client went through it: its WABA and number (display digits `52155568902<n>`) and the code. */
const popup = (n: number, extra: Record<string, unknown> = {}) =>
  emulator('POST', 'embedded-signup', {
    display_phone_number: `+52 1 555 689 02${n}`,
    currency: 'MXN',
    timezone_id: '58',
    templates: [TEMPLATE],
    ...extra,
  }) as Promise<{ code: string; waba_id: string; phone_number_id: string; business_id: string }>;

const onboard = async (body: Record<string, unknown>, t?: string) =>
  call('POST', `/v1/clients/${CLIENT}/onboardings`, { token: t ?? (await admin()), body });

const channelsOf = async () =>
  (await call('GET', `/v1/client-msg-channels?client_id=${CLIENT}&size=100`, { token: await bsp() })).body.data;

/** The emulator's calls naming the onboarded WABA or number. */
const callsOf = async (signup: { waba_id: string; phone_number_id: string }) =>
  ((await emulator('GET', 'calls')).calls as { path: string }[]).filter(
    (c) => c.path.includes(signup.phone_number_id) || c.path.includes(signup.waba_id),
  ).length;

beforeAll(async () => {
  await seedDirectory({ clients: [{ client_id: CLIENT, client_name: 'Onboarded Co' }] });
});

describe('POST /v1/clients/{client_id}/onboardings (issue 55 item 1)', () => {
  it('adds the WABA, its number and a channel, and a send from it reaches the emulator', async () => {
    // Prepare
    const signup = await popup(1);
    // Act
    const onboarded = await onboard({ ...signup, pin: '123456' });
    const send = await call('POST', '/v1/template/messages/521555689021', {
      token: await admin(),
      body: {
        did: '521555689021',
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'onboarded_order', language: 'en_US' },
        recipients: [{ to: '5215550689999', params: { body: ['A-1'] } }],
      },
    });
    // Assess
    expect(onboarded.status).toBe(200);
    expect(onboarded.body).toMatchObject({ status: 'completed', waba_id: signup.waba_id, channels: ['521555689021'] });
    expect(onboarded.body.steps.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'done', 'done', 'done', 'done', 'done']);
    expect(JSON.stringify(onboarded.body)).not.toContain(signup.code);
    expect(await channelsOf()).toContainEqual(
      expect.objectContaining({ wa_id: '521555689021', waba_id: signup.waba_id, client_id: CLIENT }),
    );
    expect(send.status).toBe(200);
    const { sent } = await until(
      () => emulator('GET', `sent?phone_number_id=${signup.phone_number_id}`),
      (found) => found.sent.length === 1,
      30_000,
      250,
    );
    expect(sent[0].message).toMatchObject({ to: '5215550689999', template: { name: 'onboarded_order' } });
  });

  it('leaves a registration that failed failed_at register, and the resume completes it', async () => {
    // Prepare
    const signup = await popup(2);
    await emulator('POST', 'faults', { status: 500, times: 1, path: `${signup.phone_number_id}/register` });
    const failed = await onboard({ ...signup, pin: '123456' });
    // Act
    const resumed = await call('POST', `/v1/clients/${CLIENT}/onboardings/${failed.body.onboarding_id}/resume`, {
      token: await admin(),
      body: {},
    });
    const read = await call('GET', `/v1/clients/${CLIENT}/onboardings/${failed.body.onboarding_id}`, { token: await bsp() });
    // Assess
    expect(failed.body).toMatchObject({ status: 'failed', failed_at: 'register' });
    expect(failed.body.steps.map((s: { status: string }) => s.status)).toEqual([
      'done',
      'failed',
      'pending',
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
    expect(resumed.body.status).toBe('completed');
    expect(read.body).toEqual(resumed.body);
    expect((await channelsOf()).map((c: { wa_id: string }) => c.wa_id)).toContain('521555689022');
  });

  it('adds nothing twice for the same code twice', async () => {
    // Prepare
    const signup = await popup(3);
    const first = await onboard({ ...signup, pin: '123456' });
    const before = await channelsOf();
    const callsBefore = await callsOf(signup);
    // Act
    const second = await onboard({ ...signup, pin: '123456' });
    // Assess
    expect(second.body).toEqual(first.body);
    expect(await channelsOf()).toEqual(before);
    expect(await callsOf(signup)).toBe(callsBefore);
  });

  it('refuses an agent of the client, and another client’s admin', async () => {
    // Prepare
    const signup = await popup(4);
    // Act
    const agent = await onboard({ ...signup, pin: '123456' }, await token({ clientId: CLIENT, campaigns: [1] }));
    const other = await onboard({ ...signup, pin: '123456' }, await token({ clientId: 7, campaigns: [], role: 'admin' }));
    // Assess
    expectErrorShape(agent, 403);
    expectErrorShape(other, 403);
  });
});
