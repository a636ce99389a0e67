import { describe, expect, it } from 'vitest';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { resendSend } from '#lib/domain/sends/accept/resend.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { listRecipients } from '#lib/domain/sends/operations/send-recipients.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import { InvalidRequest, NotFound, Unprocessable } from '#lib/domain/shared/errors.ts';
import { dispatcherOf } from '../../support/memory/dispatcher.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * A/B sends on in-memory adapters (decisions §33, docs/ab-sends.md): variants of one category, each person's by a
 * seeded hash, laid out variant by variant so each job sends one template; the answer, the dry run, the recipients
 * and a resend all say each person's variant. Client 7's number 5215550001 has order_update in en_US and es (both
 * UTILITY, one body value), track_order (UTILITY, four values), login_code (AUTHENTICATION), summer_promo (PENDING).
 */
const acme = callerOf(7);
const DID = '5215550001';
const NOW = '2026-11-29T10:00:00.000Z';
const EN = { template: 'order_update', language: 'en_US', weight: 1 };
const ES = { template: 'order_update', language: 'es', weight: 1 };
const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `5215551${String(from + i).padStart(5, '0')}`);

function abWorld() {
  const world = memoryWorld();
  const deps = { ...world, now: () => NOW };
  const body = (to: string[], extra: Record<string, unknown> = {}) => ({
    did: DID,
    type: 'template' as const,
    channel: 'MSGCHAN' as const,
    variants: [EN, ES],
    recipients: to.map((number, i) => ({ to: number, params: { body: [`A-${i}`] } })),
    ...extra,
  });
  const send = (sendId: string, to: string[], extra?: Record<string, unknown>) =>
    sendTemplate(deps, acme, { pathDid: DID, sendId, body: body(to, extra) as never });
  const dryRun = (to: string[], extra?: Record<string, unknown>) => {
    const { recipients, ...rest } = body(to, extra);
    return dryRunSend(deps, acme, {
      pathDid: DID,
      body: rest as never,
      recipients: recipients.map((recipient, index) => ({ index, recipient })),
      refused: [],
      total: recipients.length,
    });
  };
  const jobs = () => world.queue.sent as unknown as DispatchJob[];
  return { world, deps, send, dryRun, jobs };
}

/** A job dispatched until it is done (a slice of a long job comes back to the queue). */
async function untilDone(dispatch: (job: unknown) => Promise<{ outcome: string }>, job: unknown) {
  for (let slice = 0; slice < 20 && (await dispatch(job)).outcome !== 'done'; slice++);
}

/** Every recipient of a send as listed, page by page. */
async function allRecipients(world: ReturnType<typeof memoryWorld>, sendId: string, total: number) {
  const rows = [];
  for (let page = 1; (page - 1) * 100 < total; page++) rows.push(...(await listRecipients(world, acme, sendId, { page, size: 100 })).data);
  return rows;
}

describe('an A/B send (decisions §33)', () => {
  it('answers its variants with their recipients, and sends each person the template of their variant, one variant a job', async () => {
    // Prepare
    const { world, send, jobs } = abWorld();
    const to = numbers(300);
    // Act
    const answer = await send('ab-1', to);
    const { messages, dispatch } = dispatcherOf(world, NOW);
    for (const job of jobs()) await untilDone(dispatch, job);
    const status = await getSend(world, acme, 'ab-1');
    const rows = await allRecipients(world, 'ab-1', 300);
    // Assess: the split is the hash's (about half each), every recipient once
    const [en, es] = answer.variants ?? [];
    expect(en).toMatchObject({ template: { name: 'order_update', language: 'en_US' }, weight: 1 });
    expect(es).toMatchObject({ template: { name: 'order_update', language: 'es' }, weight: 1 });
    expect(en.recipients + es.recipients).toBe(300);
    expect(Math.abs(en.recipients - 150)).toBeLessThan(40);
    expect(status).toMatchObject({ sent: 300, pending: 0, template: { name: 'order_update', language: 'en_US' } });
    expect(status.variants).toEqual(answer.variants);
    // Assess: each job one variant, its template the variant's
    expect(jobs().map((job) => [job.variant, job.template.language])).toEqual([
      [0, 'en_US'],
      [1, 'es'],
    ]);
    // Assess: the listing gives each recipient its place as asked and its variant; each message went with it
    expect(rows.map((r) => r.index).sort((a, b) => a - b)).toEqual(to.map((_, i) => i));
    const languageOf = new Map(messages.map((m) => [m.to, (m.template as { language: { code: string } }).language.code]));
    expect(rows.every((r) => languageOf.get(to[r.index]) === ['en_US', 'es'][r.variant as number])).toBe(true);
    expect(rows.filter((r) => r.variant === 0)).toHaveLength(en.recipients);
    // Assess: each message carries that recipient's own values, whatever its variant
    expect(rows.every((r) => JSON.stringify(messages.find((m) => m.to === to[r.index])).includes(`A-${r.index}`))).toBe(true);
  });

  it('gives a person the same variant in a repeat of the send, and its dry run the split the send then has', async () => {
    // Prepare
    const { world, send, dryRun } = abWorld();
    const to = numbers(120);
    // Act
    const dry = await dryRun(to);
    await send('ab-1', to);
    await send('ab-2', [...to].reverse());
    const first = await allRecipients(world, 'ab-1', 120);
    const again = await allRecipients(world, 'ab-2', 120);
    // Assess
    const variantOf = (rows: typeof first, order: string[]) => new Map(rows.map((r) => [order[r.index], r.variant]));
    expect(variantOf(again, [...to].reverse())).toEqual(variantOf(first, to));
    expect(dry.variants).toEqual((await getSend(world, acme, 'ab-1')).variants);
  });

  it('sends a variant’s own values in place of the recipient’s, part by part', async () => {
    // Prepare
    const { world, send, jobs } = abWorld();
    // Act
    await send('ab-1', numbers(40), { variants: [EN, { ...ES, params: { body: ['CUPÓN-10'] } }] });
    const { messages, dispatch } = dispatcherOf(world, NOW);
    for (const job of jobs()) await untilDone(dispatch, job);
    // Assess
    const spanish = messages.filter((m) => JSON.stringify(m).includes('"code":"es"'));
    expect(spanish.length).toBeGreaterThan(0);
    expect(spanish.every((m) => JSON.stringify(m).includes('CUPÓN-10'))).toBe(true);
    expect(messages.filter((m) => JSON.stringify(m).includes('CUPÓN-10'))).toHaveLength(spanish.length);
  });

  it('resends each failed recipient with the variant its message went with', async () => {
    // Prepare: Meta refuses every message (131000, worth another try)
    const { world, deps, send, jobs } = abWorld();
    await send('ab-1', numbers(30));
    const { dispatch } = dispatcherOf(world, NOW, () => '131000');
    for (const job of jobs()) await untilDone(dispatch, job);
    const before = await allRecipients(world, 'ab-1', 30);
    // Act
    const resent = await resendSend(deps, acme, { sendId: 'ab-1', which: 'failed', newSendId: 'ab-2' });
    const after = await allRecipients(world, 'ab-2', 30);
    // Assess: each number's variant the same in the resend
    const byNumber = (rows: typeof before) => new Map(rows.map((r) => [r.to, r.variant]));
    expect(resent).toMatchObject({ resend_of: 'ab-1', recipients: 30 });
    expect(byNumber(after)).toEqual(byNumber(before));
    expect(resent.variants?.map((v) => v.recipients)).toEqual((await getSend(world, acme, 'ab-1')).variants?.map((v) => v.recipients));
  });
});

describe('what an A/B send refuses (decisions §33)', () => {
  const refusal = async (extra: Record<string, unknown>, to = numbers(2)) =>
    abWorld()
      .send('ab-x', to, extra)
      .catch((e: unknown) => e);

  it('answers 422 naming the variant of another category, or one not APPROVED', async () => {
    // Prepare / Act
    const mixed = await refusal({ variants: [EN, { template: 'login_code', language: 'en_US', weight: 1 }] });
    const pending = await refusal({ variants: [EN, { template: 'summer_promo', weight: 1 }] });
    // Assess
    expect(mixed).toBeInstanceOf(Unprocessable);
    expect((mixed as Unprocessable).details).toEqual([{ path: 'variants[1].template', message: 'is AUTHENTICATION, not UTILITY' }]);
    expect(pending).toBeInstanceOf(Unprocessable);
    expect((pending as Unprocessable).details).toEqual([
      { path: 'variants[1].template', message: 'is PENDING; only APPROVED templates can be sent' },
    ]);
  });

  it('answers 404 naming a variant whose template does not exist', async () => {
    // Prepare / Act
    const missing = await refusal({ variants: [EN, { template: 'no_such_template', weight: 1 }] });
    // Assess
    expect(missing).toBeInstanceOf(NotFound);
    expect((missing as NotFound).message).toBe('Template no_such_template (en_US) of variants[1] does not exist');
  });

  it('answers 400 for a first variant without a language, the same template twice, or values that do not fill every variant', async () => {
    // Prepare / Act
    const noLanguage = await refusal({ variants: [{ template: 'order_update', weight: 1 }, ES] });
    const twice = await refusal({ variants: [EN, { template: 'order_update', weight: 2 }] });
    const unfilled = await refusal({ variants: [EN, { template: 'track_order', weight: 1 }] });
    // Assess
    expect((noLanguage as InvalidRequest).details).toEqual([
      { path: 'variants[0].language', message: 'is required: the other variants take it unless they name their own' },
    ]);
    expect((twice as InvalidRequest).details).toEqual([
      { path: 'variants[1].template', message: 'names the same template as variants[0]' },
    ]);
    expect(unfilled).toBeInstanceOf(InvalidRequest);
    expect((unfilled as InvalidRequest).details?.[0]).toMatchObject({
      path: 'recipients[0].params.header',
      message: 'needs 1 header value, got 0 (variants[1], track_order)',
    });
  });

  it('answers 400 for a test whose wait outlasts the send’s TTL', async () => {
    // Prepare / Act
    const late = await refusal({ test: { share: 0.2, wait_seconds: 7200, metric: 'read' }, message_send_ttl_seconds: 3600 });
    // Assess
    expect((late as InvalidRequest).details).toEqual([
      { path: 'test.wait_seconds', message: 'must be under the send’s TTL (3600 s): its rest would expire before it goes' },
    ]);
  });
});

describe('an A/B MARKETING send’s price and route (decisions §33)', () => {
  /** Client 7's WABA onboarded to the Marketing Messages API, with summer_promo APPROVED and a second version of it. */
  function marketingWorld() {
    const world = memoryWorld();
    const waba = world.emulator.model.wabas.get('100200300')!;
    waba.mm_onboarded = true;
    const promo = waba.templates.find((t) => t.name === 'summer_promo')!;
    promo.status = 'APPROVED';
    for (const record of world.templateTable.records.values())
      if (record.meta_template.id === promo.id) record.meta_template = { ...record.meta_template, status: 'APPROVED' };
    waba.templates.push({ ...structuredClone(promo), id: '9093', name: 'summer_promo_b' });
    return world;
  }
  const mexico = Array.from({ length: 60 }, (_, i) => `52155123${String(i).padStart(5, '0')}`);
  const body = (extra: Record<string, unknown>) => ({
    did: DID,
    type: 'template' as const,
    channel: 'MSGCHAN' as const,
    recipients: mexico.map((to) => ({ to, params: { header: ['Ana'], body: ['20%'] } })),
    ...extra,
  });

  it('reserves what the same send of one template would, every person at the category’s price, a test’s rest too', async () => {
    // Prepare
    const one = marketingWorld();
    const ab = marketingWorld();
    const tested = marketingWorld();
    const variants = [
      { template: 'summer_promo', language: 'en_US', weight: 1 },
      { template: 'summer_promo_b', weight: 1 },
    ];
    // Act
    await sendTemplate({ ...one, now: () => NOW }, acme, {
      pathDid: DID,
      sendId: 's-1',
      body: body({ template: { name: 'summer_promo', language: 'en_US' } }) as never,
    });
    await sendTemplate({ ...ab, now: () => NOW }, acme, { pathDid: DID, sendId: 's-1', body: body({ variants }) as never });
    const answer = await sendTemplate({ ...tested, now: () => NOW }, acme, {
      pathDid: DID,
      sendId: 's-1',
      body: body({ variants, test: { share: 0.3, wait_seconds: 3600, metric: 'clicked' } }) as never,
    });
    // Assess
    const reserved = async (world: ReturnType<typeof memoryWorld>) => (await world.budgets.month(7, '2026-11')).reserved;
    expect(await reserved(one)).toBeGreaterThan(0);
    expect(await reserved(ab)).toBe(await reserved(one));
    expect(await reserved(tested)).toBe(await reserved(one));
    expect(answer.test?.rest_recipients).toBeGreaterThan(0);
    expect((await tested.sends.get('s-1'))?.reservation).toEqual((await one.sends.get('s-1'))?.reservation);
  });

  it('goes through the Marketing Messages API for every variant where the WABA is onboarded', async () => {
    // Prepare
    const world = marketingWorld();
    // Act
    await sendTemplate({ ...world, now: () => NOW }, acme, {
      pathDid: DID,
      sendId: 's-1',
      body: body({
        variants: [
          { template: 'summer_promo', language: 'en_US', weight: 1 },
          { template: 'summer_promo_b', weight: 1 },
        ],
      }) as never,
    });
    const jobs = world.queue.sent as unknown as DispatchJob[];
    // Assess
    expect(jobs.map((job) => [job.template.name, job.marketing_api, job.template.category])).toEqual([
      ['summer_promo', 'mm', 'MARKETING'],
      ['summer_promo_b', 'mm', 'MARKETING'],
    ]);
  });
});
