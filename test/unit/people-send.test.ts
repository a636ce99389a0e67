import { describe, expect, it } from 'vitest';
import { cloudMessage } from '#lib/domain/sends/cloud-message.ts';
import { statusChange } from '#lib/domain/shared/message-status.ts';
import { InvalidRequest } from '#lib/domain/shared/errors.ts';
import type { MessageAnswer } from '#lib/domain/sends/dispatch/ports.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { isResent } from '#lib/domain/sends/accept/resend.ts';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { marketingApiOf, onboardedByMeta } from '#lib/domain/sends/marketing-messages.ts';
import { refusesBsuid } from '#lib/domain/people/bsuid-refusals.ts';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { EMULATOR_TOKEN, GraphEmulator } from '../../local/standins/graph/emulator.ts';
import { DEMO_FIXTURE } from '../support/memory/world.ts';
import { recipientStatus, recipientsIn } from '#lib/domain/sends/operations/send-recipients.ts';
import { NO_COUNTS } from '#lib/domain/sends/send-status.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { markRepeats } from '#lib/domain/sends/dispatch/job.ts';
import { launchOne } from '#lib/domain/sends/dispatch/launch.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { encode, decode, sentMessageOf, tally } from '#lib/adapters/dynamo/sends/send-items.ts';
import { jobOf, templateOf } from '../support/dispatch-jobs.ts';
import { EventClock } from '../support/event-clock.ts';
import { MemoryPeopleMap } from '../support/memory/people/people-map.ts';
import { MemoryMarketingOnboardings } from '../support/memory/sends/marketing-onboardings.ts';
import { MemoryPacer } from '../support/memory/sends/pacer.ts';
import { callerOf, memoryWorld } from '../support/memory/world.ts';

/** People, not only phone numbers (decisions §28): recipients by BSUID, repeats per person, 131062, 131049, the MM API. */
const agent = callerOf(7);
const AT = '2026-11-26T10:00:00.000Z';
const BSUID_1 = 'MX.13491208655302741918';
const BSUID_2 = 'BR.ENT.11815799212886844830';

const sendBody = (template: { name: string; language: string }, recipients: Record<string, unknown>[], extra = {}) => ({
  did: '5215550001',
  type: 'template' as const,
  channel: 'MSGCHAN' as const,
  template,
  recipients: recipients as never,
  ...extra,
});

function approvePromo(world: ReturnType<typeof memoryWorld>) {
  world.emulator.model.findTemplate('9003')!.template.status = 'APPROVED';
  for (const record of world.templateTable.records.values())
    if (record.meta_template.id === '9003') record.meta_template = { ...record.meta_template, status: 'APPROVED' };
}

describe('recipients by number, BSUID or both (decisions §28)', () => {
  it('finds repeats per person: the same digits, the same BSUID, or a pair known to be one person', () => {
    // Prepare: +52 1 555 000 0001 is known to be BSUID_1
    const pairs = new Map([
      ['p:5215550000001', { phone: '5215550000001', user_id: BSUID_1 }],
      [`u:${BSUID_1}`, { phone: '5215550000001', user_id: BSUID_1 }],
    ]);
    const recipients = [
      { to: '+52 1 555 000 0001' },
      { user_id: BSUID_1 },
      { user_id: BSUID_2 },
      { to: '5215550000002', user_id: BSUID_2 },
      { to: '5215550000003' },
    ];
    // Act
    const known = markRepeats(recipients, false, pairs);
    const unknown = markRepeats(recipients, false);
    // Assess
    expect(known.recipients.map((r) => r.duplicate_of)).toEqual([undefined, 0, undefined, 2, undefined]);
    expect(known.recipients[1]).toEqual({ user_id: BSUID_1, duplicate_of: 0 });
    expect(unknown.recipients.map((r) => r.duplicate_of)).toEqual([undefined, undefined, undefined, 2, undefined]);
  });

  it('sends a person named by number and by BSUID once when the people map pairs them', async () => {
    // Prepare
    const world = memoryWorld();
    const peopleMap = new MemoryPeopleMap();
    await peopleMap.learn('555', [{ phone: '5215550000001', user_id: BSUID_1, at: AT, taught_by: 7 }]);
    // Act
    await sendTemplate({ ...world, peopleMap, now: () => AT }, agent, {
      pathDid: '5215550001',
      sendId: 's-pair',
      body: sendBody({ name: 'order_update', language: 'en_US' }, [
        { to: '+52 1 555 000 0001', params: { body: ['A-1'] } },
        { user_id: BSUID_1, params: { body: ['A-1'] } },
        { user_id: BSUID_2, params: { body: ['A-2'] } },
      ]),
    });
    // Assess
    const [job] = world.queue.sent as unknown as DispatchJob[];
    expect(job.recipients.map((r) => r.duplicate_of)).toEqual([undefined, 0, undefined]);
    expect(world.sendTable.sends.get('s-pair')?.counts).toMatchObject({ duplicates_removed: 1 });
    expect(peopleMap.reads).toEqual([3]);
  });

  it('sends to a BSUID by `recipient`, to a number (or both) by `to`', () => {
    // Prepare
    const job = jobOf([{ user_id: BSUID_1 }, { to: '5215550000001', user_id: BSUID_1 }], { template: templateOf('UTILITY') });
    // Act
    const [byId, byBoth] = job.recipients.map((r) => cloudMessage(job, r));
    // Assess
    expect(byId).toMatchObject({ recipient: BSUID_1 });
    expect(byId.to).toBeUndefined();
    expect(byBoth).toMatchObject({ to: '5215550000001' });
    expect(byBoth.recipient).toBeUndefined();
  });

  it('names a BSUID-only recipient of a copy-code AUTHENTICATION template in the dry run with 131062', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    const answer = await dryRunSend({ ...world, now: () => AT }, agent, {
      pathDid: '5215550001',
      body: sendBody({ name: 'login_code', language: 'en_US' }, []),
      recipients: [
        { index: 0, recipient: { user_id: BSUID_1, params: { body: ['123456'], buttons: ['123456'] } } },
        { index: 1, recipient: { to: '5215550000001', user_id: BSUID_2, params: { body: ['123456'], buttons: ['123456'] } } },
      ],
      refused: [],
      total: 2,
    });
    // Assess
    expect(answer).toMatchObject({ success: false, valid: 1, invalid: [{ index: 0, code: '131062', path: 'recipients[0].user_id' }] });
  });

  it('settles a BSUID-only recipient of such a template failed 131062 without a launch', async () => {
    // Prepare: Graph's stored form, an OTP button as a URL carrying the code
    const template = {
      ...templateOf('AUTHENTICATION'),
      components: [
        { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}' }] },
      ],
    };
    const clock = new EventClock();
    let calls = 0;
    const upstream = {
      sendMessage: async (): Promise<MessageAnswer> => {
        calls++;
        return { kind: 'accepted', message_id: 'wamid.1' };
      },
      catalogOf: async () => undefined,
      throughputOf: async () => 'STANDARD' as const,
    };
    const job = jobOf([{ user_id: BSUID_1, params: { body: ['1'], buttons: ['1'] } }], { template });
    // Act
    const outcome = await clock.run(
      launchOne({ upstream, pacer: new MemoryPacer(), clock, settings: DEFAULT_DISPATCH }, job, 0, {
        expiresAt: Number.POSITIVE_INFINITY,
        intervalMs: 100,
        isStopped: () => undefined,
        isCancelled: () => false,
      }),
    );
    // Assess
    expect(outcome).toMatchObject({ kind: 'failed', code: '131062' });
    expect(calls).toBe(0);
    expect(refusesBsuid(templateOf('UTILITY'))).toBe(false);
    expect(
      refusesBsuid({ category: 'AUTHENTICATION', components: [{ type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'ONE_TAP' }] }] }),
    ).toBe(true);
  });

  it('prices a BSUID recipient in the market of its prefix', () => {
    // Prepare / Act / Assess
    expect(rateCards.placeOfPerson(BSUID_2, '2026-11-26')).toEqual({ region: 'BR', market: 'Brazil' });
    expect(rateCards.placeOfPerson({ user_id: BSUID_1 }, '2026-11-26').market).toBe('Mexico');
    expect(rateCards.placeOfPerson('5215550000001', '2026-11-26').market).toBe('Mexico');
  });

  it('warns a MARKETING dry run of US numbers (us_marketing_paused), not of Canada’s', async () => {
    // Prepare
    const world = memoryWorld();
    approvePromo(world);
    const params = { header: ['Ana'], body: ['20%'] };
    // Act
    const answer = await dryRunSend({ ...world, now: () => AT }, agent, {
      pathDid: '5215550001',
      body: sendBody({ name: 'summer_promo', language: 'en_US' }, []),
      recipients: [
        { index: 0, recipient: { to: '+1 202 555 0143', params } },
        { index: 1, recipient: { to: '+1 416 555 0143', params } },
        { index: 2, recipient: { user_id: BSUID_1, params } },
      ],
      refused: [],
      total: 3,
    });
    // Assess
    expect(answer.warnings?.find((w) => w.code === 'us_marketing_paused')?.message).toMatch(/^1 recipients .*positions 0\)/);
  });
});

describe('per-user marketing limits: capped (decisions §28)', () => {
  it('counts 131049 capped, apart from failed, at send and in a status; lists it capped; a resend leaves it out', () => {
    // Prepare
    const error = { code: '131049', title: 'This message was not delivered to maintain healthy ecosystem engagement.' };
    // Act
    const atSend = tally([
      { kind: 'failed', ...error },
      { kind: 'failed', code: '131047', title: 'x' },
    ]);
    const inStatus = statusChange({}, 'failed', error);
    const takenBack = statusChange({ failed: error }, 'delivered');
    const row = { index: 0, to: '5215550000001', updated_at: AT, outcome: { kind: 'failed' as const, ...error } };
    const later = { ...row, outcome: { kind: 'sent' as const, message_id: 'wamid.1' }, delivery: { failed: error } };
    // Assess
    expect(atSend.add).toEqual({ capped: 1, failed: 1 });
    expect(inStatus?.counts).toEqual({ sent: -1, capped: 1 });
    expect(takenBack?.counts).toMatchObject({ sent: 1, capped: -1 });
    expect([recipientStatus(row), recipientStatus(later)]).toEqual(['capped', 'capped']);
    expect(isResent(row, 'failed') || isResent(later, 'not_delivered')).toBe(false);
    expect(recipientsIn('capped', 10, { ...NO_COUNTS, capped: 2, sent: 3 })).toBe(2);
    expect(recipientsIn('pending', 10, { ...NO_COUNTS, capped: 2, sent: 3 })).toBe(5);
  });
});

describe('the Marketing Messages API (decisions §28)', () => {
  it('takes a MARKETING send of an onboarded WABA through it; `mm` elsewhere, or a TTL it cannot keep, is a 400', async () => {
    // Prepare: one WABA onboarded by Meta's webhook, another that Graph says is only eligible
    const onboardings = new MemoryMarketingOnboardings();
    await onboardings.put('w-on', { onboarded: true, source: 'webhook', at: AT });
    const asked: string[] = [];
    const marketing = {
      marketingOnboardingOf: async (waba: string) => {
        asked.push(waba);
        return 'ELIGIBLE';
      },
    };
    const deps = { onboardings, marketing };
    const now = Date.parse(AT);
    // Act
    const auto = await marketingApiOf(deps, 'w-on', 'MARKETING', {}, now);
    const utility = await marketingApiOf(deps, 'w-on', 'UTILITY', {}, now);
    const cloud = await marketingApiOf(deps, 'w-on', 'MARKETING', { marketing_api: 'cloud' }, now);
    const offAuto = await marketingApiOf(deps, 'w-off', 'MARKETING', { marketing_api: 'auto' }, now);
    const offAgain = await marketingApiOf(deps, 'w-off', 'MARKETING', {}, now + 1000);
    const offMm = await marketingApiOf(deps, 'w-off', 'MARKETING', { marketing_api: 'mm' }, now).catch((e) => e);
    const ttlOff = await marketingApiOf(deps, 'w-off', 'MARKETING', { ttl_seconds: 43_200 }, now).catch((e) => e);
    const ttlUtility = await marketingApiOf(deps, 'w-on', 'UTILITY', { ttl_seconds: 43_200 }, now).catch((e) => e);
    // Assess
    expect([auto, utility, cloud, offAuto, offAgain]).toEqual(['mm', undefined, undefined, undefined, undefined]);
    expect(offMm).toBeInstanceOf(InvalidRequest);
    expect(offMm.details).toEqual([{ path: 'marketing_api', message: expect.stringContaining('w-off') }]);
    expect(ttlOff).toBeInstanceOf(InvalidRequest);
    expect(ttlUtility).toBeInstanceOf(InvalidRequest);
    // Graph is asked once; its answer is kept for a while
    expect(asked).toEqual(['w-off']);
    expect(await onboardings.get('w-off')).toMatchObject({ onboarded: false, source: 'graph' });
  });

  it('launches the job’s messages through /marketing_messages and keeps which API carried each', async () => {
    // Prepare
    const clock = new EventClock();
    const routes: unknown[] = [];
    const upstream = {
      sendMessage: async (_n: string, _m: Record<string, unknown>, _r: string, route?: unknown): Promise<MessageAnswer> => {
        routes.push(route);
        return { kind: 'accepted', message_id: 'wamid.mm1' };
      },
      catalogOf: async () => undefined,
      throughputOf: async () => 'STANDARD' as const,
    };
    const job = jobOf([{ to: '5215550000001', params: { header: ['h'], body: ['a', 'b'], buttons: ['p', 'c'] } }], {
      template: templateOf('MARKETING'),
      marketing_api: 'mm',
    });
    // Act
    const outcome = await clock.run(
      launchOne({ upstream, pacer: new MemoryPacer(), clock, settings: DEFAULT_DISPATCH }, job, 0, {
        expiresAt: Number.POSITIVE_INFINITY,
        intervalMs: 100,
        isStopped: () => undefined,
        isCancelled: () => false,
      }),
    );
    // Assess: kept small in a block's outcomes (`m` before the sent outcome)
    expect(routes).toEqual([{ api: 'mm' }]);
    expect(outcome).toEqual({ kind: 'sent', message_id: 'wamid.mm1', api: 'mm' });
    expect(encode(outcome)).toBe('mswamid.mm1');
    expect(decode(encode(outcome), {})).toEqual(outcome);
    expect(sentMessageOf(encode(outcome))).toBe('wamid.mm1');
    expect(decode('swamid.1', {})).toEqual({ kind: 'sent', message_id: 'wamid.1' });
  });

  it('refuses marketing_api "mm" for a WABA not onboarded with a 400, and queues an onboarded one’s send for it', async () => {
    // Prepare
    const world = memoryWorld();
    approvePromo(world);
    const onboardings = new MemoryMarketingOnboardings();
    const deps = { ...world, onboardings, marketing: world.upstream, now: () => AT };
    const body = sendBody({ name: 'summer_promo', language: 'en_US' }, [
      { to: '5215550000001', params: { header: ['Ana'], body: ['20%'] } },
    ]);
    // Act
    const refused = await sendTemplate(deps, agent, { pathDid: '5215550001', sendId: 's-1', body: { ...body, marketing_api: 'mm' } }).catch(
      (e) => e,
    );
    await onboardings.put('100200300', { onboarded: true, source: 'webhook', at: AT });
    await sendTemplate(deps, agent, { pathDid: '5215550001', sendId: 's-2', body: { ...body, ttl_seconds: 86_400 } });
    // Assess
    expect(refused).toBeInstanceOf(InvalidRequest);
    const [job] = world.queue.sent as unknown as DispatchJob[];
    expect(job).toMatchObject({ marketing_api: 'mm', message_send_ttl_seconds: 86_400 });
  });

  it('reads Meta’s MM_LITE_TERMS_SIGNED account_update as the WABA onboarded, once', async () => {
    // Prepare
    const onboardings = new MemoryMarketingOnboardings();
    const change = {
      waba_id: 'w-1',
      at: Date.parse(AT),
      field: 'account_update',
      value: { event: 'MM_LITE_TERMS_SIGNED', waba_info: { waba_id: 'w-2', owner_business_id: 'b-1' } },
    };
    // Act
    const [notification] = notificationsOf(change);
    const first = await onboardedByMeta({ onboardings }, 'w-2', change.at);
    const again = await onboardedByMeta({ onboardings }, 'w-2', change.at);
    // Assess
    expect(notification).toEqual({ kind: 'mm_onboarded', waba_id: 'w-2', at: change.at });
    expect([first, again]).toEqual(['applied', 'unchanged']);
    expect(await onboardings.get('w-2')).toEqual({ onboarded: true, source: 'webhook', at: AT });
  });

  it('emulates /marketing_messages: marketing_lite once onboarded, a fallback or STRICT’s refusal before, 131062 for a BSUID', async () => {
    // Prepare: the demo WABA's promo approved; a message of it by BSUID
    const emulator = new GraphEmulator(DEMO_FIXTURE);
    emulator.model.findTemplate('9003')!.template.status = 'APPROVED';
    const post = async (path: string, body: unknown) => {
      const answer = await emulator.fetch(`http://graph/v21.0/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${EMULATOR_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, any> };
    };
    const promo = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      recipient: BSUID_1,
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
    const code = [{ type: 'text', text: '123456' }];
    const otp = {
      ...promo,
      template: {
        name: 'login_code',
        language: { code: 'en_US' },
        components: [
          { type: 'body', parameters: code },
          { type: 'button', sub_type: 'url', index: '0', parameters: code },
        ],
      },
    };
    // Act
    const strict = await post('110001/marketing_messages', { ...promo, product_policy: 'STRICT' });
    const fallback = await post('110001/marketing_messages', promo);
    const fellBack = emulator.model.sent.at(-1)!;
    const control = await emulator.fetch('http://graph/_emulator/wabas/100200300/marketing-messages', {
      method: 'POST',
      body: JSON.stringify({ onboarded: true }),
    });
    const mm = await post('110001/marketing_messages', promo);
    const refused = await post('110001/messages', otp);
    // Assess
    expect(strict.status).toBe(400);
    expect(fallback.body.contacts).toEqual([{ input: BSUID_1, user_id: BSUID_1 }]);
    expect(emulator.pricing.pricingOf(fellBack)).toMatchObject({ category: 'marketing' });
    expect(control.status).toBe(200);
    expect(mm.status).toBe(200);
    expect(emulator.pricing.pricingOf(emulator.model.sent.at(-1)!)).toMatchObject({ category: 'marketing_lite' });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 131062 } } });
  });
});
