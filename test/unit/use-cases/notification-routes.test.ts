import { describe, expect, it } from 'vitest';
import { type NotificationPorts, notificationRoutes } from '#lib/domain/inbound/notification-handlers.ts';
import { type NotificationHandlers, routeNotifications } from '#lib/domain/inbound/notification-routes.ts';
import type { MetaNotification, NotificationKind } from '#lib/domain/inbound/notifications.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';

const WABA = 'w1';
const AT = 1_780_000_000_000;
const PHONE = '5215512340001';
const BSUID = 'MX.13491208655302741918';

/** One notification of every kind, as webhook-payload.ts reads them. */
const SAMPLES: { [K in NotificationKind]: Extract<MetaNotification, { kind: K }> } = {
  template_status: { kind: 'template_status', waba_id: WABA, template_id: 't1', at: AT, event: 'PAUSED' },
  template_category: {
    kind: 'template_category',
    waba_id: WABA,
    template_id: 't1',
    at: AT,
    new_category: 'MARKETING',
    correct_category: 'MARKETING',
  },
  template_quality: { kind: 'template_quality', waba_id: WABA, template_id: 't1', at: AT, new_quality: 'YELLOW' },
  number_quality: { kind: 'number_quality', waba_id: WABA, number_digits: '5215550001', event: 'DOWNGRADE', at: AT },
  pricing_tier: { kind: 'pricing_tier', waba_id: WABA, at: AT, pricing_category: 'UTILITY', tier: '250001:2000000', region: 'India' },
  mm_onboarded: { kind: 'mm_onboarded', waba_id: WABA, at: AT },
  message_status: {
    kind: 'message_status',
    message_id: 'wamid.1',
    status: 'delivered',
    reference: messageReference('s1', 0, 0),
    at: AT,
    waba_id: WABA,
  },
  people_seen: { kind: 'people_seen', waba_id: WABA, at: AT, people: [{ phone: PHONE, user_id: BSUID }] },
  person_move: {
    kind: 'person_move',
    waba_id: WABA,
    at: AT,
    change: 'user_id_update',
    from: { user_id: BSUID },
    to: { user_id: 'MX.2' },
  },
  marketing_preference: { kind: 'marketing_preference', waba_id: WABA, number_digits: '5215550001', at: AT, phone: PHONE, value: 'stop' },
  inbound_message: {
    kind: 'inbound_message',
    waba_id: WABA,
    number_digits: '5215550001',
    from: PHONE,
    message_id: 'wamid.in',
    text: 'STOP',
    at: AT,
  },
};

/** A port that records each call as `<port>.<method>` and answers what it is told (undefined otherwise). */
function recordingPort(calls: string[], port: string, answers: Record<string, unknown> = {}): never {
  const method = (name: string) => async () => {
    calls.push(`${port}.${name}`);
    return answers[name];
  };
  return new Proxy({}, { get: (_, name) => (typeof name === 'string' && name !== 'then' ? method(name) : undefined) }) as never;
}

/** Every handler's ports, each recording its calls. */
function recordingPorts(calls: string[]): NotificationPorts {
  const directory = recordingPort(calls, 'directory');
  const peopleMap = recordingPort(calls, 'peopleMap', { learn: 1 });
  const suppressions = recordingPort(calls, 'suppressions');
  return {
    statuses: {
      messageStatuses: recordingPort(calls, 'messageStatuses', { applyStatuses: ['applied'] }),
      sends: recordingPort(calls, 'sends'),
      suppressions,
      currencies: undefined,
      tiers: undefined,
      priceLists: undefined,
    },
    templates: {
      records: recordingPort(calls, 'records', { listForTemplate: [] }),
      outbox: recordingPort(calls, 'outbox'),
      publisher: recordingPort(calls, 'publisher'),
    },
    pausing: {
      pauses: recordingPort(calls, 'pauses', { summary: { count: 1, history: [], next_red_disables: false } }),
      waking: { pausedJobs: recordingPort(calls, 'pausedJobs'), waker: recordingPort(calls, 'waker') },
    },
    numbers: { levels: recordingPort(calls, 'levels') },
    consent: { suppressions, peopleMap, directory },
    peopleMap: { peopleMap, directory },
    pricing: { tiers: recordingPort(calls, 'tiers') },
    marketing: { onboardings: recordingPort(calls, 'onboardings') },
    log: silentLog,
  };
}

/** The ports each kind's handler reaches, in its area (a sample of each, read by recordingPorts). */
const REACHES: [NotificationKind, string[]][] = [
  ['template_status', ['pauses.notified', 'pauses.summary', 'records.listForTemplate']],
  ['template_category', ['records.listForTemplate']],
  ['template_quality', ['records.listForTemplate']],
  ['number_quality', ['levels.forget']],
  ['pricing_tier', ['tiers.reachedTier']],
  ['mm_onboarded', ['onboardings.get', 'onboardings.put']],
  ['message_status', ['messageStatuses.accountOf', 'messageStatuses.applyStatuses']],
  ['people_seen', ['directory.getWaba', 'peopleMap.learn']],
  ['person_move', ['directory.getWaba', 'peopleMap.move']],
  ['marketing_preference', ['directory.getChannel']],
  ['inbound_message', ['directory.getChannel']],
];

describe("the table of Meta's notifications by kind", () => {
  it.each(REACHES)('hands a %s notification to its handler, and to no other', async (kind, reached) => {
    // Prepare
    const calls: string[] = [];
    const routes = notificationRoutes(recordingPorts(calls));
    // Act
    const [outcome] = await routeNotifications(routes, [{ notification: SAMPLES[kind] }]);
    // Assess
    expect(calls).toEqual(reached);
    expect(outcome).toBeDefined();
  });

  it('has a handler for every kind', () => {
    // Prepare
    const routes = notificationRoutes(recordingPorts([]));
    // Act
    const kinds = Object.keys(routes.handlers).sort();
    // Assess
    expect(kinds).toEqual(REACHES.map(([kind]) => kind).sort());
  });

  it('ignores a kind whose ports a deployment goes without, and learns nobody without the people map', async () => {
    // Prepare
    const calls: string[] = [];
    const routes = notificationRoutes({ ...recordingPorts(calls), peopleMap: undefined, marketing: undefined, pausing: undefined });
    // Act
    const outcomes = await routeNotifications(routes, [
      { notification: SAMPLES.person_move },
      { notification: SAMPLES.mm_onboarded },
      { notification: SAMPLES.people_seen },
      { notification: SAMPLES.template_status },
    ]);
    // Assess
    expect(outcomes).toEqual(['ignored', 'ignored', 'applied', 'ignored']);
    expect(calls).toEqual(['records.listForTemplate']);
  });
});

/** A table whose handlers record what reached them: each kind one at a time, except statuses, taken together. */
function recordingTable(reached: string[]): NotificationHandlers {
  const each = {
    each: async (n: MetaNotification) => {
      reached.push(n.kind);
      return 'applied' as const;
    },
  };
  const handlers = Object.fromEntries(Object.keys(SAMPLES).map((kind) => [kind, each])) as unknown as NotificationHandlers;
  handlers.message_status = {
    together: async (statuses) => {
      reached.push(`statuses:${statuses.map((s) => s.message_id).join(',')}`);
      return statuses.map(() => 'later' as const);
    },
    seen: (n) => (n.recipient ? [{ waba_id: WABA, phone: n.recipient, user_id: BSUID, at: n.at }] : []),
  };
  return handlers;
}

describe('the routing of a batch of notifications', () => {
  it('ignores a kind no handler takes, and applies the rest of the batch', async () => {
    // Prepare
    const reached: string[] = [];
    const unknown = { kind: 'template_renamed', waba_id: WABA, at: AT } as unknown as MetaNotification;
    const routes = { handlers: recordingTable(reached), learn: async () => 0, log: silentLog };
    // Act
    const outcomes = await routeNotifications(routes, [{ notification: unknown }, { notification: SAMPLES.number_quality }]);
    // Assess
    expect(outcomes).toEqual(['ignored', 'applied']);
    expect(reached).toEqual(['number_quality']);
  });

  it("learns the batch's pairs first, applies kinds one at a time in order, then the statuses together", async () => {
    // Prepare
    const reached: string[] = [];
    const learnt: string[] = [];
    const routes = {
      handlers: recordingTable(reached),
      learn: async (pairs: { phone: string }[]) => learnt.push(...pairs.map((p) => `${p.phone}@${reached.length}`)),
      log: silentLog,
    };
    const second = { ...SAMPLES.message_status, message_id: 'wamid.2', recipient: PHONE };
    // Act
    const outcomes = await routeNotifications(routes, [
      { notification: SAMPLES.message_status },
      { notification: SAMPLES.template_quality },
      { notification: second },
      { notification: SAMPLES.mm_onboarded },
    ]);
    // Assess
    expect(learnt).toEqual([`${PHONE}@0`]);
    expect(reached).toEqual(['template_quality', 'mm_onboarded', 'statuses:wamid.1,wamid.2']);
    expect(outcomes).toEqual(['later', 'applied', 'later', 'applied']);
  });
});
