import { describe, expect, it } from 'vitest';
import { resendSend } from '#lib/domain/sends/accept/resend.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { cancelSend } from '#lib/domain/sends/operations/cancel-send.ts';
import { listRecipients } from '#lib/domain/sends/operations/send-recipients.ts';
import { decideSendTest, releaseDue } from '#lib/domain/sends/operations/test-decision.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { dispatcherOf } from '../../support/memory/dispatcher.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * A test-first A/B send on in-memory adapters (decisions §33, docs/ab-sends.md): its test share goes with the
 * variants, the rest is held; when the wait is over the decision reads each variant's figures, picks the best rate,
 * keeps the decision on the send and releases the rest with the winner. Decided twice, it decides once; a crash
 * between the decision and the release is finished by the schedule's message coming back.
 */
const acme = callerOf(7);
const DID = '5215550001';
const NOW = '2026-11-29T10:00:00.000Z';
const WAIT = 7200;
const TEST = { share: 0.2, wait_seconds: WAIT, metric: 'read' as const };
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `5215552${String(i).padStart(5, '0')}`);

function testWorld() {
  const world = memoryWorld();
  const deps = { ...world, now: () => NOW };
  const send = (sendId: string, to: string[], extra: Record<string, unknown> = {}) =>
    sendTemplate(deps, acme, {
      pathDid: DID,
      sendId,
      body: {
        did: DID,
        type: 'template',
        channel: 'MSGCHAN',
        variants: [
          { template: 'order_update', language: 'en_US', weight: 1 },
          { template: 'order_update', language: 'es', weight: 1 },
        ],
        test: TEST,
        recipients: to.map((number, i) => ({ to: number, params: { body: [`T-${i}`] } })),
        ...extra,
      } as never,
    });
  const decisionDeps = { ...world, log: silentLog, now: () => '2026-11-29T12:00:00.000Z' };
  const decide = (sendId: string) => decideSendTest(decisionDeps, sendId);
  const queued = () => world.queue.sent as unknown as DispatchJob[];
  return { world, send, decide, decisionDeps, queued };
}

/** Variant 1 (es) read more: 30 of 50 delivered against 10 of 50. */
const esReadMore = [
  { variant: 0, sent: 50, delivered: 50, read: 10, replied: 0 },
  { variant: 1, sent: 50, delivered: 50, read: 30, replied: 0 },
];

describe('a test-first A/B send (decisions §33)', () => {
  it('sends its test share with the variants, holds the rest, and schedules its decision for the end of the wait', async () => {
    // Prepare
    const { world, send, queued } = testWorld();
    // Act
    const answer = await send('t-1', numbers(500));
    const held = world.sendTable.held.get('t-1') ?? [];
    const status = await getSend(world, acme, 't-1');
    // Assess: about 20 % tested, each with its variant; the rest held with every variant, none of its own yet
    const test = answer.test!;
    expect(test).toMatchObject({ share: 0.2, wait_seconds: WAIT, metric: 'read', decide_at: '2026-11-29T12:00:00.000Z' });
    expect(test.test_recipients + test.rest_recipients).toBe(500);
    expect(Math.abs(test.test_recipients - 100)).toBeLessThan(30);
    expect(answer.variants?.reduce((sum, v) => sum + v.recipients, 0)).toBe(test.test_recipients);
    expect(queued().map((job) => job.variant)).toEqual([0, 1]);
    expect(queued().reduce((sum, job) => sum + job.recipients.length, 0)).toBe(test.test_recipients);
    expect(held.map((job) => [job.variant, job.variants?.length])).toEqual([[undefined, 2]]);
    expect(held[0].recipients).toHaveLength(test.rest_recipients);
    expect(world.testSchedules.schedules.get('t-1')).toBe('2026-11-29T12:00:00.000Z');
    expect(status).toMatchObject({ status: 'queued', pending: 500, test: { test_recipients: test.test_recipients } });
  });

  it('decides for the variant with the best read rate, keeps the decision with its figures, and sends the rest with it', async () => {
    // Prepare
    const { world, send, decide, queued } = testWorld();
    const answer = await send('t-1', numbers(500));
    world.results.figures.set('t-1', esReadMore);
    // Act
    const outcome = await decide('t-1');
    const again = await decide('t-1');
    const { messages, dispatch } = dispatcherOf(world, NOW);
    // Each job until it is done (a slice of a job comes back to the queue).
    for (const job of queued()) for (let slice = 0; slice < 20 && (await dispatch(job)).outcome !== 'done'; slice++);
    const status = await getSend(world, acme, 't-1');
    const rows = (await listRecipients(world, acme, 't-1', { page: 1, size: 100, status: 'sent' })).data;
    // Assess: the decision, once, and the rest queued once with es
    expect([outcome, again]).toEqual(['released', 'skipped']);
    expect(world.results.reads).toBe(1);
    expect(status.test?.decision).toMatchObject({
      winner: { name: 'order_update', language: 'es' },
      rule: 'best_rate',
      significant: true,
      variants: [
        { template: { language: 'en_US' }, delivered: 50, read: 10, rate: 0.2 },
        { template: { language: 'es' }, delivered: 50, read: 30, rate: 0.6 },
      ],
    });
    expect(status.test?.decision?.reason).toMatch(/^order_update \(es\) won: the best read rate/);
    expect(status.test?.rest_released_at).toBe('2026-11-29T12:00:00.000Z');
    const rest = queued().slice(2);
    expect(rest.map((job) => [job.variant, job.template.language, job.variants])).toEqual([[1, 'es', undefined]]);
    expect(status).toMatchObject({ sent: 500, pending: 0 });
    const spanish = messages.filter((m) => JSON.stringify(m).includes('"code":"es"')).length;
    expect(spanish).toBe(answer.variants![1].recipients + answer.test!.rest_recipients);
    expect(rows.every((r) => r.variant !== undefined)).toBe(true);
  });

  it('finishes a decision a crash interrupted: the decision kept stays, whatever the figures say on the second run', async () => {
    // Prepare: the decision is kept, then the queue refuses the rest (as a crash before the release would leave it)
    const { world, send, decide, queued } = testWorld();
    await send('t-1', numbers(300));
    world.results.figures.set('t-1', esReadMore);
    world.queue.failing = true;
    const crashed = await decide('t-1').catch((e: unknown) => e);
    world.queue.failing = false;
    world.results.figures.set('t-1', [
      { variant: 0, sent: 50, delivered: 50, read: 50, replied: 0 },
      { variant: 1, sent: 50, delivered: 50, read: 0, replied: 0 },
    ]);
    // Act: the schedule's message comes back
    const outcome = await releaseDue({ ...world, log: silentLog }, { send_id: 't-1', step: 'decide' });
    // Assess
    expect(crashed).toBeInstanceOf(Error);
    expect(outcome).toBe('released');
    expect((await getSend(world, acme, 't-1')).test?.decision?.winner.language).toBe('es');
    expect(queued().at(-1)).toMatchObject({ variant: 1, template: { language: 'es' } });
  });

  it('decides by the rule with no figures: the heaviest weight, and says so', async () => {
    // Prepare
    const { world, send, decide } = testWorld();
    await send('t-1', numbers(50), {
      variants: [
        { template: 'order_update', language: 'en_US', weight: 1 },
        { template: 'order_update', language: 'es', weight: 3 },
      ],
    });
    // Act
    await decide('t-1');
    // Assess
    expect((await getSend(world, acme, 't-1')).test?.decision).toMatchObject({
      winner: { language: 'es' },
      rule: 'no_data',
      significant: false,
    });
  });

  it('sends none of its rest once cancelled: the cancel settles it, the decision finds nothing to send', async () => {
    // Prepare
    const { world, send, decide, queued } = testWorld();
    const answer = await send('t-1', numbers(200));
    await cancelSend(world, acme, 't-1');
    // Act
    const outcome = await decide('t-1');
    const status = await getSend(world, acme, 't-1');
    // Assess
    expect(outcome).toBe('cancelled');
    expect(queued()).toHaveLength(2);
    expect(status.cancelled).toBeGreaterThanOrEqual(answer.test!.rest_recipients);
    expect(status.test?.decision).toBeUndefined();
  });

  it('sends a scheduled test-first send’s test share at its time, and decides only after it went', async () => {
    // Prepare
    const { world, send, decide, decisionDeps, queued } = testWorld();
    await send('t-1', numbers(200), { send_at: '2026-11-29T11:00:00.000Z' });
    // Act
    const early = await decide('t-1');
    const released = await releaseDue(decisionDeps, { send_id: 't-1' });
    const later = await decide('t-1');
    // Assess
    expect(world.testSchedules.schedules.get('t-1')).toBe('2026-11-29T13:00:00.000Z');
    expect(early).toBe('retry_later');
    expect(released).toBe('released');
    expect(
      queued()
        .slice(0, 2)
        .map((job) => job.variant),
    ).toEqual([0, 1]);
    expect(later).toBe('released');
    expect(queued().at(-1)?.variant).toBeDefined();
  });

  it('resends a rest recipient whose message failed with the winner, the variant its message went with', async () => {
    // Prepare: the test share sent, es decided, the rest refused by Meta (131000, worth another try)
    const { world, send, decide, queued } = testWorld();
    const answer = await send('t-1', numbers(100));
    world.results.figures.set('t-1', esReadMore);
    const ok = dispatcherOf(world, NOW);
    for (const job of queued()) await ok.dispatch(job);
    await decide('t-1');
    const refusing = dispatcherOf(world, NOW, () => '131000');
    for (const job of queued().slice(2)) await refusing.dispatch(job);
    // Act
    const resent = await resendSend({ ...world, now: () => NOW }, acme, { sendId: 't-1', which: 'failed', newSendId: 't-2' });
    // Assess: every resent recipient is one of the rest, each given es (variant 1); the resend tests nothing
    expect(resent.recipients).toBe(answer.test!.rest_recipients);
    expect(resent.variants?.map((v) => v.recipients)).toEqual([0, answer.test!.rest_recipients]);
    expect(resent.test).toBeUndefined();
  });
});
