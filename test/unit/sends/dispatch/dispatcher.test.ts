import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloudMessage } from '#lib/domain/sends/cloud-message.ts';
import { abandonJob } from '#lib/domain/sends/dispatch/abandon-job.ts';
import { cancelSend } from '#lib/domain/sends/operations/cancel-send.ts';
import { type MessageState, statusChange } from '#lib/domain/shared/message-status.ts';
import { CANCEL_CHECK_MS } from '#lib/domain/sends/dispatch/tuning.ts';
import { type DispatchDeps, type DispatchResult, dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { blocksOf, listRecipients } from '#lib/domain/sends/operations/send-recipients.ts';
import type { DispatchJob, JobRecipient } from '#lib/domain/sends/dispatch-job.ts';
import { markRepeats } from '#lib/domain/sends/dispatch/job.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import type { MessageAnswer } from '#lib/domain/sends/dispatch/ports.ts';
import type { RecipientOutcome, SendRecord } from '#lib/domain/sends/ports.ts';
import { templateNeeds } from '#lib/domain/sends/accept/send-rules.ts';
import { sendStatusOf } from '#lib/domain/sends/send-status.ts';
import type { MetaTemplate } from '#lib/domain/templates/template-record.ts';
import { GraphError } from '../../../../local/standins/graph/graph-error.ts';
import { checkMessage, storedAuthenticationComponents } from '../../../../local/standins/graph/message-check.ts';
import { peakSecond } from '../../../support/accept-times.ts';
import { demoTemplate, demoTemplates, jobOf, recipient, sendOfJobs } from '../../../support/dispatch-jobs.ts';
import { EventClock } from '../../../support/event-clock.ts';
import { MemoryPriceListStore } from '../../../support/memory/money/price-list-store.ts';
import { MemoryPacer } from '../../../support/memory/sends/pacer.ts';
import { memorySends } from '../../../support/memory/sends/sends.ts';
import { MemoryThroughputStore } from '../../../support/memory/sends/throughput-store.ts';

/**
 * The dispatcher's rules on in-memory adapters and a virtual clock (no waiting): exactly once per recipient,
 * duplicates, lost claims, retries, refusals, the template's stop, expiry and pacing. The emulator's message
 * checks (local/standins/graph/message-check.ts) judge what cloudMessage makes for every demo template.
 */

function virtualClock(start = Date.parse('2026-11-22T10:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += Math.max(0, ms);
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** An upstream that answers from a script per recipient (accepted when the script runs out) and logs each call. */
function scriptedUpstream(clock: { now(): number }, script: Record<string, MessageAnswer[]> = {}) {
  const calls: { to: string; at: number; message: Record<string, unknown> }[] = [];
  const upstream = {
    calls,
    async sendMessage(_phone: string, message: Record<string, unknown>): Promise<MessageAnswer> {
      const to = String(message.to);
      calls.push({ to, at: clock.now(), message });
      return script[to]?.shift() ?? { kind: 'accepted', message_id: `wamid.${calls.length}` };
    },
    async catalogOf() {
      return 'catalog-1';
    },
    /** The number's level as the upstream reports it: a test changes it. */
    level: 'STANDARD' as 'STANDARD' | 'HIGH' | 'COEXISTENCE',
    async throughputOf() {
      return upstream.level;
    },
  };
  return upstream;
}

/** A job run to its end as the queue runs it: a new invocation each turn, until it is no longer handed back. */
async function toTheEnd(turn: (n: number) => Promise<DispatchResult>) {
  for (let n = 0; n < 50; n++) {
    const result = await turn(n);
    if (result.outcome !== 'retry_later') return result;
  }
  throw new Error('the job never finished');
}

async function world(
  total: number,
  options: { status?: SendRecord['status']; script?: Record<string, MessageAnswer[]>; cap?: number } = {},
) {
  const clock = virtualClock();
  const store = memorySends();
  const { sends, blocks } = store;
  const send = sendOfJobs(total, clock.now());
  await sends.begin(send);
  if (options.status !== 'queuing') await sends.settle(send, options.status === 'abandoned' ? 'abandoned' : 'queued');
  const pacer = new MemoryPacer();
  const levels = new MemoryThroughputStore();
  const upstream = scriptedUpstream(clock, options.script);
  const deps = (holder = 'invocation-1'): DispatchDeps => ({
    sends,
    blocks,
    pacer,
    levels,
    upstream,
    log: silentLog,
    clock,
    settings: { ...DEFAULT_DISPATCH, messagesPerSecondCap: options.cap },
    holder,
    remainingMs: () => 300_000,
    random: () => 0.5,
  });
  return { clock, ...store, pacer, levels, upstream, deps, status: async () => (await sends.get('send-1'))! };
}

describe('the dispatcher: exactly once per recipient', () => {
  it('sends a repeated recipient once: the send marks repeats over its whole list, the dispatcher sends none', async () => {
    // Prepare: +52 1555 0100 and 5215550100 are one recipient (its digits)
    const given = [recipient('5215550100'), recipient('+521555 0100'), recipient('5215550101')];
    const { recipients, repeats } = markRepeats(given, false);
    const { deps, upstream, sendTable, status } = await world(3);
    // Act
    const result = await dispatchJob(deps(), jobOf(recipients));
    // Assess: the repeat is known as such, never sent, and counted once (by the send, when it was accepted)
    expect(repeats).toBe(1);
    expect(recipients[1]).toEqual({ to: '+521555 0100', duplicate_of: 0 });
    expect(result).toEqual({ outcome: 'done' });
    expect(upstream.calls.map((c) => c.to)).toEqual(['5215550100', '5215550101']);
    expect((await status()).counts).toMatchObject({ sent: 2, failed: 0 });
    expect(sendTable.blocks.get('send-1|0')?.outcomes?.[1]).toEqual({ kind: 'duplicate', of: 0 });
    expect(markRepeats(given, true)).toEqual({ recipients: given, repeats: 0 });
  });

  it('sends nothing twice when the same job runs twice, one after the other or at once', async () => {
    const recipients = Array.from({ length: 200 }, (_, i) => recipient(String(5215550000 + i)));
    const { deps, upstream, status } = await world(200);
    const job = jobOf(recipients);
    // Two invocations at once: on the discrete-event clock, so each sleeps in the other's time, not its own.
    const clock = new EventClock(Date.parse('2026-11-22T10:00:00Z'));
    const on = (holder: string) => ({ ...deps(holder), clock });
    const [a, b] = await clock.run(Promise.all([dispatchJob(on('a'), job), dispatchJob(on('b'), job)]));
    const again = await clock.run(dispatchJob(on('c'), job));
    expect(upstream.calls).toHaveLength(200);
    expect(new Set(upstream.calls.map((c) => c.to)).size).toBe(200);
    expect((await status()).counts).toMatchObject({ sent: 200, failed: 0, duplicates_removed: 0 });
    expect(again).toEqual({ outcome: 'done' });
    // A run that found recipients held by the other asks to come back; nothing else may happen.
    for (const run of [a, b]) expect(['done', 'retry_later']).toContain(run.outcome);
  });

  it('never sends again what a crashed invocation may have launched: once its lease is over those count outcome_unknown', async () => {
    // Prepare: invocation "crashed" claimed the first block (90 positions), recorded it may launch all of it, died
    const recipients = Array.from({ length: 100 }, (_, i) => recipient(String(5215550000 + i)));
    const { deps, blocks, clock, upstream, status } = await world(100);
    const crashed = { holder: 'crashed', untilMs: clock.now() + 1000 };
    const first = { first: 0, size: 90, sendable: 90 };
    await blocks.claimBlock('send-1', first, crashed, clock.now());
    await blocks.recordProgress('send-1', first, crashed, { outcomes: new Map(), launchedTo: 90 });
    const job = jobOf(recipients);
    // Act: while its lease lasts the job must come back later; after it, the block is settled unknown
    const early = await dispatchJob(deps(), job);
    clock.advance(5_000);
    const late = await dispatchJob(deps('next'), job);
    // Assess
    expect(early).toMatchObject({ outcome: 'retry_later' });
    expect(late).toEqual({ outcome: 'done' });
    expect(upstream.calls.map((c) => c.to)).toEqual(recipients.slice(90).map((r) => r.to));
    expect(await status()).toMatchObject({ counts: { sent: 10, failed: 90 }, errors: [{ code: 'outcome_unknown', count: 90 }] });
  });

  it('loses to a crash only the launches since the block’s last record: the rest of the block is sent after it (issue 33)', async () => {
    // Prepare: a first invocation sends 1,000 and dies after 430 launches (its timers stop: the crash)
    const recipients = Array.from({ length: 1000 }, (_, i) => recipient(String(5215550000 + i)));
    const { deps, sendTable, clock, upstream, status } = await world(1000);
    const job = jobOf(recipients);
    // The crash: from the 431st launch on, the dying invocation's timers and answers never come.
    let crashed = false;
    const stopped = new Promise<never>(() => undefined);
    const base = deps('dying');
    const dying: DispatchDeps = {
      ...base,
      clock: { now: () => clock.now(), sleep: (ms) => (crashed ? stopped : clock.sleep(ms)) },
      upstream: {
        ...upstream,
        sendMessage: async (phone, message) => {
          if (upstream.calls.length >= 430) crashed = true;
          return crashed ? stopped : upstream.sendMessage(phone, message);
        },
      },
    };
    const died = (async () => {
      while (!crashed) await new Promise((r) => setImmediate(r));
    })();
    void toTheEnd((n) => dispatchJob({ ...dying, holder: `dying-${n}` }, job));
    await died;
    // Act: its leases run out, and the job comes back
    clock.advance(10 * 60_000);
    const after = await toTheEnd((n) => dispatchJob(deps(`next-${n}`), job));
    // Assess: each recipient launched once at most; only the launches after the last record unknown
    const counts = (await status()).counts!;
    const launched = upstream.calls.map((c) => c.to);
    expect(after).toEqual({ outcome: 'done' });
    expect(new Set(launched).size).toBe(launched.length);
    expect(counts.sent + counts.failed).toBe(1000);
    expect(counts.failed).toBeGreaterThan(0);
    expect(counts.failed).toBeLessThanOrEqual(40);
    // About one record per 10 positions, and one more at each block's start
    expect(sendTable.progressWrites).toBeLessThanOrEqual(Math.ceil(1000 / 10) + 2 * 12);
  });

  it('writes send.completed once, when its last job ends, with its figures per variant and day (decisions §33)', async () => {
    // Prepare: a send of 200 in two jobs of 100
    const { deps, sendTable, performances, completions } = await world(200);
    const recipients = Array.from({ length: 200 }, (_, i) => recipient(String(5215550200 + i)));
    const jobs = [jobOf(recipients.slice(0, 100)), jobOf(recipients.slice(100), { job: 2, first_index: 100 })];
    const withCompletion = (): DispatchDeps => ({ ...deps(), completion: { performances, completions } });
    // Act: the first job, then the second twice (the queue may deliver it again)
    await dispatchJob(withCompletion(), jobs[0]);
    const afterFirst = sendTable.events.filter((e) => e.type === 'send.completed').length;
    await dispatchJob(withCompletion(), jobs[1]);
    await dispatchJob(withCompletion(), jobs[1]);
    // Assess
    const completed = sendTable.events.filter((e) => e.type === 'send.completed');
    expect(afterFirst).toBe(0);
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toMatchObject({ status: 'completed', sent: 200, pending: 0, performance: { totals: { sent: 200 } } });
    expect([...sendTable.figures.get('send-1')!.values()].map((f) => [f.variant, f.figure, f.n])).toEqual([[0, 'sent', 200]]);
  });

  it('dispatches nothing of a send still being queued or abandoned', async () => {
    const queuing = await world(1, { status: 'queuing' });
    expect(await dispatchJob(queuing.deps(), jobOf([recipient('5215550100')]))).toMatchObject({ outcome: 'retry_later', afterSeconds: 10 });
    const abandoned = await world(1, { status: 'abandoned' });
    expect(await dispatchJob(abandoned.deps(), jobOf([recipient('5215550100')]))).toMatchObject({ outcome: 'dropped' });
    expect([...queuing.upstream.calls, ...abandoned.upstream.calls]).toEqual([]);
  });
});

describe('the dispatcher: the upstream’s answers', () => {
  it('retries throughput limits with backoff, and refuses for good what the upstream refuses', async () => {
    const limited: MessageAnswer = { kind: 'refused', code: '130429', title: 'Throughput', retryable: true };
    const { deps, upstream, status } = await world(3, {
      script: {
        '5215550100': [limited, limited],
        '5215550101': [{ kind: 'refused', code: '131026', title: 'Undeliverable', retryable: false }],
        '5215550102': [{ kind: 'unknown' }],
      },
    });
    await dispatchJob(deps(), jobOf([recipient('5215550100'), recipient('5215550101'), recipient('5215550102')]));
    expect(upstream.calls.filter((c) => c.to === '5215550100')).toHaveLength(3);
    expect(upstream.calls.filter((c) => c.to === '5215550101')).toHaveLength(1);
    // No answer in time: the message may have gone out, so it is not sent again.
    expect(upstream.calls.filter((c) => c.to === '5215550102')).toHaveLength(1);
    expect(await status()).toMatchObject({
      counts: { sent: 1, failed: 2 },
      errors: [
        { code: '131026', title: 'Undeliverable', count: 1 },
        { code: 'outcome_unknown', count: 1 },
      ],
    });
  });

  it('stops the send when the template is paused: the rest fail with the reason, unsent', async () => {
    const recipients = Array.from({ length: 120 }, (_, i) => recipient(String(5215550000 + i)));
    const paused: MessageAnswer = { kind: 'refused', code: '132015', title: 'Template paused', retryable: false };
    const script = Object.fromEntries(recipients.map((r) => [r.to, [paused]]));
    const { deps, upstream, status } = await world(120, { script });
    await dispatchJob(deps(), jobOf(recipients));
    // Messages already on their way when the first answer came may be refused too; none after it is sent.
    expect(upstream.calls.length).toBeLessThan(5);
    expect(await status()).toMatchObject({
      counts: { sent: 0, failed: 120 },
      stopped: { code: '132015' },
      errors: [{ code: '132015', count: 120 }],
    });
  });

  it('sends nothing after message_send_ttl_seconds from acceptance, counted expired', async () => {
    // Prepare: 200 recipients at 72 per second (80 less the headroom) take 2.8 s; the TTL is 1 s
    const recipients = Array.from({ length: 200 }, (_, i) => recipient(String(5215550000 + i)));
    const { deps, upstream, status } = await world(200);
    await dispatchJob(deps(), jobOf(recipients, { message_send_ttl_seconds: 1 }));
    const counts = (await status()).counts!;
    expect(counts.sent + counts.expired).toBe(200);
    expect(counts.sent).toBe(upstream.calls.length);
    expect(counts.sent).toBeLessThanOrEqual(81);
    expect(Math.max(...upstream.calls.map((c) => c.at)) - upstream.calls[0].at).toBeLessThan(1000);
  });
});

describe('the dispatcher: a job that can send nothing', () => {
  it('settles a job that begins after its send expired whole, in one write, and only once', async () => {
    const recipients = Array.from({ length: 300 }, (_, i) => recipient(String(5215550000 + i)));
    const { deps, clock, upstream, sendTable, status } = await world(300);
    clock.advance(5_000);
    const job = jobOf(recipients, { message_send_ttl_seconds: 1 });
    expect(await dispatchJob(deps(), job)).toEqual({ outcome: 'done' });
    expect(await dispatchJob(deps('again'), job)).toEqual({ outcome: 'done' });
    expect(upstream.calls).toEqual([]);
    expect((await status()).counts).toMatchObject({ expired: 300, sent: 0 });
    expect(sendTable.blocks.size).toBe(0);
  });
});

describe('the dispatcher: pacing (decisions §19)', () => {
  const hundreds = (n: number) => Array.from({ length: n }, (_, i) => recipient(String(5215550000 + i)));

  it('sends one number’s messages an interval apart, from slots reserved in blocks', async () => {
    const { deps, upstream, pacer } = await world(200);
    await dispatchJob(deps(), jobOf(hundreds(200)));
    const gaps = upstream.calls.slice(1).map((c, i) => c.at - upstream.calls[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 72 - 0.01);
    expect(pacer.reservations.map((r) => r.count)).toEqual([90, 90, 20]);
    // Reservations follow each other: the next block's slots start where the last one's end.
    for (let i = 1; i < pacer.reservations.length; i++) {
      const before = pacer.reservations[i - 1];
      expect(pacer.reservations[i].first).toBeGreaterThanOrEqual(before.first + before.count * before.intervalMs);
    }
  });

  it('paces a number at its level as the upstream reports it, capped by MESSAGES_PER_SECOND, and learns it once an hour', async () => {
    // Prepare: a HIGH number (1,000/s), a coexistence number (20/s), and HIGH under a cap of 200/s
    const high = await world(300);
    high.upstream.level = 'HIGH';
    const shared = await world(60);
    shared.upstream.level = 'COEXISTENCE';
    const capped = await world(300, { cap: 200 });
    capped.upstream.level = 'HIGH';
    // Act
    await dispatchJob(high.deps(), jobOf(hundreds(300)));
    await dispatchJob(shared.deps(), jobOf(hundreds(60)));
    await dispatchJob(capped.deps(), jobOf(hundreds(300)));
    // Assess: the reserved interval is the level's (less the tenth of headroom), and the level is stored
    expect(new Set(high.pacer.reservations.map((r) => r.intervalMs))).toEqual(new Set([1000 / 900]));
    expect(new Set(shared.pacer.reservations.map((r) => r.intervalMs))).toEqual(new Set([1000 / 18]));
    expect(new Set(capped.pacer.reservations.map((r) => r.intervalMs))).toEqual(new Set([1000 / 180]));
    expect(await high.levels.get('5215550001')).toMatchObject({ level: 'HIGH' });
  });

  it('takes a changed level at the next block once the stored one is forgotten (Meta’s phone_number_quality_update)', async () => {
    // Prepare: STANDARD learned; after the 50th message the number is upgraded and its level forgotten
    const { deps, upstream, pacer, levels } = await world(270);
    const upgrading = {
      ...deps(),
      upstream: {
        ...upstream,
        async sendMessage(_phone: string, message: Record<string, unknown>) {
          if (upstream.calls.length === 50) {
            upstream.level = 'HIGH';
            await levels.forget('5215550001');
          }
          return upstream.sendMessage(_phone, message);
        },
      },
    };
    // Act
    await dispatchJob(upgrading, jobOf(hundreds(270)));
    // Assess: the first block went at 80/s, the last at 1,000/s
    expect(pacer.reservations[0].intervalMs).toBe(1000 / 72);
    expect(pacer.reservations.at(-1)?.intervalMs).toBe(1000 / 900);
    expect(upstream.calls).toHaveLength(270);
  });

  it.each([5, 40])(
    'reserves at most three times a block, not once a message, when the process takes %i ms a message (a HIGH number)',
    async (msPerMessage) => {
      // Prepare: a HIGH number (900 a second paced) and a process far slower than that
      const { deps, upstream, clock, pacer } = await world(270);
      upstream.level = 'HIGH';
      const slow = (n: number) => ({
        ...deps(`invocation-${n}`),
        upstream: {
          ...upstream,
          async sendMessage(_phone: string, message: Record<string, unknown>) {
            clock.advance(msPerMessage);
            return upstream.sendMessage(_phone, message);
          },
        },
      });
      const started = clock.now();
      // Act
      await toTheEnd((n) => dispatchJob(slow(n), jobOf(hundreds(270))));
      // Assess: all sent; the number's pacing item took at most three writes per block of 90 (1 per 30 messages);
      // and the job went at about the process's own speed, not slowed by the margin its reservations keep
      expect(upstream.calls).toHaveLength(270);
      expect(pacer.reservations.length).toBeLessThanOrEqual(3 * 3);
      expect(clock.now() - started).toBeLessThanOrEqual(1.2 * 270 * msPerMessage);
    },
  );

  it('never bursts after a stall: a message later than its slot makes the rest of its block take new slots', async () => {
    // Prepare: two invocations on one number; the first stalls for 2 s after its first message
    const { deps, upstream, clock, pacer } = await world(180);
    const recipients = hundreds(180);
    let stalled = false;
    const stalling = {
      ...deps('a'),
      upstream: {
        ...upstream,
        async sendMessage(_phone: string, message: Record<string, unknown>) {
          const answer = await upstream.sendMessage(_phone, message);
          if (!stalled) {
            stalled = true;
            clock.advance(2_000);
          }
          return answer;
        },
      },
    };
    // Act
    await Promise.all([
      dispatchJob(stalling, jobOf(recipients.slice(0, 90))),
      dispatchJob(deps('b'), jobOf(recipients.slice(90), { first_index: 90, job: 2 })),
    ]);
    // Assess: every message went out, never more than 1.1× the rate in any second, and the late block re-reserved
    expect(upstream.calls).toHaveLength(180);
    expect(peakSecond(upstream.calls.map((c) => c.at))).toBeLessThanOrEqual(88);
    expect(pacer.reservations.length).toBeGreaterThan(2);
  });
});

describe('Cloud API messages (upstream-facts §1.9) against the emulator’s checks', () => {
  const sendable = demoTemplates.filter(
    (t) => t.status === 'APPROVED' && t.parameter_format !== 'NAMED' && (t.parameter_format as string) !== 'named',
  );
  const values = fc.array(
    fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0),
    { minLength: 30, maxLength: 30 },
  );

  /** Values for what the template needs, taken from a pool, as a valid send would carry them. */
  function recipientFor(template: MetaTemplate, pool: string[]): JobRecipient {
    const needs = templateNeeds(template);
    let i = 0;
    const take = (n: number) => Array.from({ length: n }, () => pool[i++ % pool.length]);
    return {
      to: '5215550100',
      params: {
        ...(needs.header && { header: take(needs.header) }),
        ...(needs.body && { body: take(needs.body) }),
        ...(needs.buttons && { buttons: take(needs.buttons) }),
        ...(needs.cards && { cards: needs.cards.map((card) => ({ body: take(card.body), buttons: take(card.buttons) })) }),
      },
    };
  }
  const headerFor = (template: MetaTemplate): DispatchJob['component'] => {
    const format = String(template.components.find((c) => c.type === 'HEADER')?.format ?? '');
    if (format === 'IMAGE') return { header: { type: 'image_url', value: 'https://cdn.example.com/a.png' } };
    if (format === 'LOCATION')
      return { header: { type: 'location', location: { latitude: '1', longitude: '2', name: 'n', address: 'a' } } };
    return undefined;
  };
  const jobFor = (template: MetaTemplate, recipients: JobRecipient[]) => {
    const component = headerFor(template);
    return jobOf(recipients, {
      template: {
        name: template.name,
        language: template.language,
        id: template.id,
        category: template.category,
        components: template.components,
      },
      ...(component && { component }),
    });
  };

  it.each(sendable.map((t) => [t.name, t] as const))(
    '%s: every valid recipient makes a message the emulator accepts',
    (_name, template) => {
      fc.assert(
        fc.property(values, (pool) => {
          const r = recipientFor(template, pool);
          expect(() => checkMessage(template, cloudMessage(jobFor(template, [r]), r) as never)).not.toThrow();
        }),
        { numRuns: 50 },
      );
    },
  );

  it.each(sendable.filter((t) => templateNeeds(t).body > 0).map((t) => [t.name, t] as const))(
    '%s: a message with a body value missing is refused with 132000',
    (_name, template) => {
      const r = recipientFor(template, ['x']);
      const message = cloudMessage(jobFor(template, [r]), { ...r, params: { ...r.params, body: r.params!.body!.slice(1) } });
      const refusal = (() => {
        try {
          checkMessage(template, message as never);
        } catch (error) {
          return error as GraphError;
        }
      })();
      expect(refusal).toBeInstanceOf(GraphError);
      expect(refusal?.code).toBe(132000);
    },
  );

  it('an AUTHENTICATION template as created is stored as Graph stores it, and its code message is accepted', () => {
    const created = storedAuthenticationComponents([
      { type: 'BODY', add_security_recommendation: true },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ]);
    const stored = { ...demoTemplate('login_code'), components: created };
    expect(templateNeeds(stored)).toMatchObject({ body: 1, buttons: 1 });
    const r = { to: '5215550100', params: { body: ['482913'], buttons: ['482913'] } };
    const message = cloudMessage(jobFor(stored, [r]), r);
    expect(() => checkMessage(stored, message as never)).not.toThrow();
    expect(message.template?.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ]);
  });
});

describe('a dispatch job given up on (its dead-letter queue, issue 23)', () => {
  const recipientsOf = (n: number) => Array.from({ length: n }, (_, i) => recipient(String(5215560000 + i)));
  const abandonDeps = (w: Awaited<ReturnType<typeof world>>) => ({
    sends: w.sends,
    blocks: w.blocks,
    clock: w.clock,
    log: silentLog,
    holder: 'abandoner',
  });

  it('settles a job never begun whole: every recipient dispatch_abandoned, the send completed, nothing sent', async () => {
    // Prepare
    const w = await world(200);
    // Act
    const result = await abandonJob(abandonDeps(w), jobOf(recipientsOf(200)));
    // Assess
    const status = sendStatusOf(await w.status());
    expect(result).toEqual({ outcome: 'done' });
    expect(status).toMatchObject({ status: 'completed', failed: 200, pending: 0 });
    expect(status.errors).toEqual([expect.objectContaining({ code: 'dispatch_abandoned', count: 200 })]);
    expect(w.upstream.calls).toHaveLength(0);
  });

  it('settles a begun job block by block: a dead holder’s block outcome_unknown, a settled one kept, the rest abandoned', async () => {
    // Prepare: 200 recipients (blocks at 0, 90, 180); the first block settled sent, the second held by an invocation that died
    const w = await world(200);
    const job = jobOf(recipientsOf(200));
    await w.blocks.beginJob('send-1', 1);
    const dead = { holder: 'dead', untilMs: w.clock.now() + 1_000 };
    const first = { first: 0, size: 90, sendable: 90 };
    await w.blocks.claimBlock('send-1', first, dead, w.clock.now());
    await w.blocks.settleBlock(
      'send-1',
      first,
      Array.from({ length: 90 }, (_, i) => ({ kind: 'sent' as const, message_id: `m${i}` })),
      dead,
    );
    const second = { first: 90, size: 90, sendable: 90 };
    await w.blocks.claimBlock('send-1', second, dead, w.clock.now());
    await w.blocks.recordProgress('send-1', second, dead, { outcomes: new Map(), launchedTo: 90 });
    w.clock.advance(2_000);
    // Act
    const result = await abandonJob(abandonDeps(w), job);
    // Assess
    const status = sendStatusOf(await w.status());
    expect(result).toEqual({ outcome: 'done' });
    expect(status).toMatchObject({ status: 'completed', sent: 90, failed: 110, pending: 0 });
    expect(Object.fromEntries(status.errors.map((e) => [e.code, e.count]))).toEqual({ outcome_unknown: 90, dispatch_abandoned: 20 });
  });

  it('leaves a block a live invocation holds to it and comes back; then finishes the job', async () => {
    // Prepare: the first block held by an invocation still running for a minute
    const w = await world(100);
    const job = jobOf(recipientsOf(100));
    await w.blocks.beginJob('send-1', 1);
    await w.blocks.claimBlock(
      'send-1',
      { first: 0, size: 90, sendable: 90 },
      { holder: 'live', untilMs: w.clock.now() + 60_000 },
      w.clock.now(),
    );
    // Act: once while it holds the block, once after its lease
    const whileHeld = await abandonJob(abandonDeps(w), job);
    w.clock.advance(61_000);
    const after = await abandonJob(abandonDeps(w), job);
    // Assess
    expect(whileHeld).toMatchObject({ outcome: 'retry_later' });
    expect(after).toEqual({ outcome: 'done' });
    expect(sendStatusOf(await w.status())).toMatchObject({ status: 'completed', failed: 100, pending: 0 });
  });
});

describe('operating a send (decisions §22): each recipient’s result, and cancel', () => {
  const owner = { sub: 'u', clientId: 7, permissions: [], campaigns: [], isBsp: false };
  const stranger = { ...owner, clientId: 8 };
  /** Client 7 has no price list: its agents see the cost. */
  const priceLists = new MemoryPriceListStore();
  const refusal = (code: string): MessageAnswer => ({ kind: 'refused', code, title: `refused ${code}`, retryable: false });
  /** A send of `n` recipients as acceptance keeps it: one job, its recipients recorded by block. */
  async function listedWorld(n: number, script: Record<string, MessageAnswer[]> = {}) {
    const w = await world(n, { script });
    const recipients = Array.from({ length: n }, (_, i) => recipient(String(5215550000 + i)));
    w.sendTable.sends.get('send-1')!.job_firsts = [0];
    const blocks = blocksOf({ total: n, job_firsts: [0] }).map((ref) => ({
      ref,
      to: recipients.slice(ref.first, ref.first + ref.size).map((r) => r.to),
      repeats: [],
    }));
    await w.recipientLists.recordRecipients('send-1', blocks, new Date(w.clock.now()).toISOString());
    return { ...w, recipients, priceLists };
  }

  it('lists exactly the refused recipients under failed, with their codes, and every one in order unfiltered', async () => {
    // Prepare: 200 recipients, every tenth refused as undeliverable or opted out of marketing
    const script: Record<string, MessageAnswer[]> = {};
    for (let i = 0; i < 200; i += 10) script[String(5215550000 + i)] = [refusal(i % 20 === 0 ? '131026' : '131050')];
    const { deps, sends, recipientLists, recipients, upstream } = await listedWorld(200, script);
    // Act
    await dispatchJob(deps(), jobOf(recipients));
    const failed = await listRecipients({ sends, recipientLists, priceLists }, owner, 'send-1', { status: 'failed', size: 50 });
    const second = await listRecipients({ sends, recipientLists, priceLists }, owner, 'send-1', { page: 2, size: 50 });
    const optedOut = (
      await listRecipients({ sends, recipientLists, priceLists }, owner, 'send-1', { status: 'failed', size: 100 })
    ).data.filter((r) => r.error?.code === '131050');
    // Assess: refusals are not retried, are shown per recipient and summed in the send's errors
    expect(upstream.calls).toHaveLength(200);
    expect(failed.total).toBe(20);
    expect(failed.data.map((r) => r.index)).toEqual(Array.from({ length: 20 }, (_, k) => k * 10));
    expect(failed.data[0]).toMatchObject({ to: '5215550000', status: 'failed', error: { code: '131026', title: 'refused 131026' } });
    expect(optedOut).toHaveLength(10);
    expect(second.total).toBe(200);
    expect(second.data.map((r) => r.index)).toEqual(Array.from({ length: 50 }, (_, k) => 50 + k));
    expect(second.data[1]).toMatchObject({ status: 'sent', message_id: expect.stringMatching(/^wamid\./) });
    expect(sendStatusOf((await sends.get('send-1'))!).errors).toEqual([
      { code: '131026', title: 'refused 131026', count: 10 },
      { code: '131050', title: 'refused 131050', count: 10 },
    ]);
  });

  it('filters on each recipient’s latest state: delivered and read follow the status reports', async () => {
    // Prepare: 100 sent, then reports: 0–29 delivered, 0–9 read
    const { deps, sends, recipientLists, messageStatuses, recipients } = await listedWorld(100);
    await dispatchJob(deps(), jobOf(recipients));
    const listed = await listRecipients({ sends, recipientLists, priceLists }, owner, 'send-1', { size: 100 });
    const report = (index: number, what: 'delivered' | 'read') => ({
      block: Math.floor(index / 90) * 90,
      index,
      messageId: listed.data[index].message_id!,
      change: (state: MessageState) => statusChange(state, what),
    });
    // Act
    await messageStatuses.applyStatuses('send-1', [
      ...Array.from({ length: 30 }, (_, i) => report(i, 'delivered')),
      ...Array.from({ length: 10 }, (_, i) => report(i, 'read')),
    ]);
    const [read, delivered, sent, pending] = await Promise.all(
      (['read', 'delivered', 'sent', 'pending'] as const).map((status) =>
        listRecipients({ sends, recipientLists, priceLists }, owner, 'send-1', { status, size: 100 }),
      ),
    );
    // Assess
    expect(read.data.map((r) => r.index)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(delivered.data.map((r) => r.index)).toEqual(Array.from({ length: 20 }, (_, i) => 10 + i));
    expect([read.total, delivered.total, sent.total, pending.total]).toEqual([10, 20, 70, 0]);
    expect(sent.data).toHaveLength(70);
  });

  it('reads no count below zero while a status overtakes its claimed block, and exact counts once the block settles', async () => {
    // Prepare: a live invocation holds the block; one launch's answer never came (outcome_unknown), one was accepted
    const { blocks, messageStatuses, status } = await world(2);
    const lease = { holder: 'live', untilMs: Date.now() + 60_000 };
    const block = { first: 0, size: 2, sendable: 2 };
    const unknown: RecipientOutcome = { kind: 'failed', code: 'outcome_unknown', title: 'No answer from the upstream in time' };
    const accepted: RecipientOutcome = { kind: 'sent', message_id: 'wamid.accepted' };
    await blocks.claimBlock('send-1', block, lease, Date.now());
    await blocks.recordProgress('send-1', block, lease, {
      outcomes: new Map<number, RecipientOutcome>([
        [0, unknown],
        [1, accepted],
      ]),
      launchedTo: 2,
    });
    // Act: Meta reports the unknown launch delivered before the block settles; then it settles
    await messageStatuses.applyStatuses('send-1', [
      { block: 0, index: 0, messageId: 'wamid.went', change: (state: MessageState) => statusChange(state, 'delivered') },
    ]);
    const whileClaimed = sendStatusOf(await status());
    await blocks.settleBlock('send-1', block, [unknown, accepted], lease);
    const settled = sendStatusOf(await status());
    // Assess: the take-back of a failure not yet added reads 0, not -1; the settled sum is exact
    expect(whileClaimed).toMatchObject({ sent: 1, failed: 0, delivered: 1, errors: [] });
    expect(settled).toMatchObject({ sent: 2, failed: 0, delivered: 1, pending: 0, status: 'completed', errors: [] });
  });

  it('shows another client’s send to nobody but a BSP', async () => {
    // Prepare
    const { sends, recipientLists } = await listedWorld(3);
    // Act / Assess
    await expect(listRecipients({ sends, recipientLists, priceLists }, stranger, 'send-1', {})).rejects.toThrow('does not exist');
    await expect(cancelSend({ sends }, stranger, 'send-1')).rejects.toThrow('does not exist');
    expect((await listRecipients({ sends, recipientLists, priceLists }, { ...stranger, isBsp: true }, 'send-1', {})).total).toBe(3);
  });

  it('sends nothing after a cancel is seen: the rest count cancelled, a second cancel changes nothing', async () => {
    // Prepare: the send is cancelled while its 40th message goes out
    const { deps, sends, recipientLists, recipients, upstream, clock } = await listedWorld(500);
    let cancelledAt: number | undefined;
    const cancelling = {
      ...deps(),
      upstream: {
        ...upstream,
        async sendMessage(phone: string, message: Record<string, unknown>) {
          if (upstream.calls.length === 39) {
            await cancelSend({ sends }, owner, 'send-1');
            cancelledAt = clock.now();
          }
          return upstream.sendMessage(phone, message);
        },
      },
    };
    // Act
    const result = await dispatchJob(cancelling, jobOf(recipients));
    const again = await cancelSend({ sends }, owner, 'send-1');
    const status = sendStatusOf((await sends.get('send-1'))!);
    const cancelled = await listRecipients({ sends, recipientLists, priceLists }, owner, 'send-1', { status: 'cancelled', size: 1 });
    // Assess: no launch later than one cancel check after the cancel; every recipient settled once
    expect(result).toEqual({ outcome: 'done' });
    expect(Math.max(...upstream.calls.map((c) => c.at))).toBeLessThanOrEqual(cancelledAt! + CANCEL_CHECK_MS);
    expect(status.status).toBe('cancelled');
    expect(status.sent).toBe(upstream.calls.length);
    expect(status.sent + status.cancelled).toBe(500);
    expect(status.pending).toBe(0);
    expect(cancelled.total).toBe(500 - upstream.calls.length);
    expect(again).toEqual({ send_id: 'send-1', status: 'cancelled' });
    expect((await sends.get('send-1'))!.cancelled_at).toBe(status.cancelled_at);
  });

  it('settles a job of a cancelled send whole, sending nothing; a completed send cannot be cancelled', async () => {
    // Prepare
    const cancelledSend = await listedWorld(120);
    await cancelSend({ sends: cancelledSend.sends }, owner, 'send-1');
    const completed = await listedWorld(5);
    await dispatchJob(completed.deps(), jobOf(completed.recipients));
    // Act
    await dispatchJob(cancelledSend.deps(), jobOf(cancelledSend.recipients));
    // Assess
    expect(cancelledSend.upstream.calls).toHaveLength(0);
    expect((await listRecipients(cancelledSend, owner, 'send-1', { status: 'cancelled' })).total).toBe(120);
    expect((await listRecipients(cancelledSend, owner, 'send-1', { size: 1 })).data[0].status).toBe('cancelled');
    await expect(cancelSend({ sends: completed.sends }, owner, 'send-1')).rejects.toMatchObject({ reason: 'send_completed' });
  });
});
