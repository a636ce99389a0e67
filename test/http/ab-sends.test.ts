import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiUrl, call, emulator, expectErrorShape } from '../support/api.ts';
import { abBodies } from '../support/ab-bodies.ts';
import { OwnClient } from '../support/own-client.ts';
import { bodyComponent, template } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * A/B sends on the running local stack (decisions §33, issue 56 item 3, docs/ab-sends.md). Client 710 has its own
 * WABA and number, whose messages the emulator reports sent and delivered; its templates ab_promo_a and ab_promo_b
 * (UTILITY, one body value each) are the variants, with ab_promo_two (two values), ab_market (MARKETING) and
 * ab_pending (PENDING) for the refusals. Client 711 is another tenant.
 */
const client = new OwnClient(710);
const other = new OwnClient(711);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numbers = (batch: number, count: number) => Array.from({ length: count }, (_, i) => `52${run}${batch}${String(i).padStart(5, '0')}`);
const A = { template: 'ab_promo_a', language: 'en_US', weight: 1 };
const B = { template: 'ab_promo_b', language: 'en_US', weight: 1 };

type Sent = { id: string; message: { to: string; template: { name: string; components?: unknown[] } } };
/** The messages the emulator accepted on the client's number, of these recipients, by recipient. */
async function sentTo(to: string[]) {
  const wanted = new Set(to);
  const { sent } = (await emulator('GET', `sent?phone_number_id=${client.numberId}`)) as { sent: Sent[] };
  const byRecipient = new Map<string, Sent[]>();
  for (const m of sent.filter((s) => wanted.has(s.message.to)))
    byRecipient.set(m.message.to, [...(byRecipient.get(m.message.to) ?? []), m]);
  return byRecipient;
}

async function abSend(to: string[], extra: Record<string, unknown> = {}, query = '', as = client) {
  return call('POST', `/v1/template/messages/${as.did}${query}`, {
    token: await as.token(),
    body: {
      did: as.did,
      type: 'template',
      channel: 'MSGCHAN',
      variants: [A, B],
      recipients: to.map((number) => ({ to: number, params: { body: [`V-${number}`] } })),
      ...extra,
    },
  });
}

/** Every recipient of a send, page by page (100 a page). */
async function recipientsOf(sendId: string, total: number) {
  const rows: { index: number; to: string; variant?: number; status: string; message_id?: string }[] = [];
  for (let page = 1; (page - 1) * 100 < total; page++)
    rows.push(...(await call('GET', `/v1/sends/${sendId}/recipients?page=${page}&size=100`, { token: await client.token() })).body.data);
  return rows;
}

beforeAll(async () => {
  await client.seed('A/B sends', [
    template('t710a', 'ab_promo_a', { components: [bodyComponent('Version A for {{1}}', ['x'])] }),
    template('t710b', 'ab_promo_b', { components: [bodyComponent('Version B for {{1}}', ['x'])] }),
    template('t710c', 'ab_promo_two', { components: [bodyComponent('Hi {{1}}, code {{2}}', ['x', 'y'])] }),
    template('t710d', 'ab_market', { category: 'MARKETING' }),
    template('t710e', 'ab_pending', { status: 'PENDING' }),
  ]);
  await other.seed('Another tenant', [template('t711a', 'ab_promo_a')]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
}, 60_000);

describe('an A/B send of 1,000 through the stack (decisions §33)', () => {
  const to = numbers(1, 1000);
  let sendId: string;
  let dry: Record<string, any>;
  let accepted: Record<string, any>;

  beforeAll(async () => {
    dry = (await abSend(to, { variants: [A, { ...B, weight: 3 }] }, '?dry_run=true')).body;
    const answer = await abSend(to, { variants: [A, { ...B, weight: 3 }] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    accepted = answer.body;
    sendId = accepted.send_id;
    await client.settled(sendId, (s) => s.pending === 0 && s.delivered === 1000, 240_000);
  }, 300_000);

  it('splits the people by the weights, 1:3, as its dry run said, and sends each one its variant’s template', async () => {
    // Act
    const status = await client.status(sendId);
    const rows = await recipientsOf(sendId, 1000);
    const sent = await sentTo(to);
    // Assess: the split (σ ≈ 14 around 250), the same in the dry run, the answer and the status
    const [a, b] = accepted.variants;
    expect([a.template, b.template]).toEqual([
      { name: 'ab_promo_a', language: 'en_US' },
      { name: 'ab_promo_b', language: 'en_US' },
    ]);
    expect([a.weight, b.weight]).toEqual([1, 3]);
    expect(a.recipients + b.recipients).toBe(1000);
    expect(Math.abs(a.recipients - 250)).toBeLessThan(60);
    expect(dry.variants).toEqual(accepted.variants);
    expect(status).toMatchObject({ total: 1000, sent: 1000, delivered: 1000, variants: accepted.variants });
    // Assess: every recipient listed once, at its place as asked, with its variant; each got that variant's template once
    expect(rows.map((r) => r.index).sort((x, y) => x - y)).toEqual(to.map((_, i) => i));
    expect(rows.filter((r) => r.variant === 0)).toHaveLength(a.recipients);
    const templateOf = (r: { to: string }) => sent.get(r.to)?.map((m) => m.message.template.name);
    expect(rows.every((r) => r.to === to[r.index])).toBe(true);
    expect(rows.filter((r) => JSON.stringify(templateOf(r)) !== JSON.stringify([['ab_promo_a', 'ab_promo_b'][r.variant ?? -1]]))).toEqual(
      [],
    );
    expect(rows.every((r) => JSON.stringify(sent.get(r.to)?.[0].message.template.components).includes(`V-${r.to}`))).toBe(true);
  });

  it('gives each variant’s figures on the send’s performance, counted under the variant its messages went with', async () => {
    // Act
    const performance = (await call('GET', `/v1/sends/${sendId}/performance`, { token: await client.token() })).body;
    // Assess
    expect(performance.variants.map((v: Record<string, any>) => [v.variant, v.template.name, v.sent, v.delivered])).toEqual([
      [0, 'ab_promo_a', accepted.variants[0].recipients, accepted.variants[0].recipients],
      [1, 'ab_promo_b', accepted.variants[1].recipients, accepted.variants[1].recipients],
    ]);
  });

  it('gives each person the same variant in a repeat of the send', async () => {
    // Prepare: the first 100 people again, in the other order
    const again = to.slice(0, 100).reverse();
    // Act
    const repeat = await abSend(again, { variants: [{ ...B, weight: 3 }, A] }, '?dry_run=true');
    const first = await recipientsOf(sendId, 1000);
    // Assess: variants listed the other way round: A is variant 1 now
    const aFirst = first.filter((r) => again.includes(r.to) && r.variant === 0).length;
    expect(repeat.body.variants.map((v: { template: { name: string }; recipients: number }) => [v.template.name, v.recipients])).toEqual([
      ['ab_promo_b', 100 - aFirst],
      ['ab_promo_a', aFirst],
    ]);
  });
});

describe('a resend of an A/B send (decisions §33)', () => {
  it('resends each failed recipient with the template their message went with', async () => {
    // Prepare: the emulator refuses 30 of 200 once (131047: worth another try)
    const to = numbers(2, 200);
    const refused = to.filter((_, i) => i % 6 === 3).slice(0, 30);
    for (const number of refused)
      await emulator('POST', 'faults', {
        path: `/${client.numberId}/messages`,
        body: `"to":"${number}"`,
        status: 400,
        code: 131047,
        times: 1,
      });
    const original = (await abSend(to)).body.send_id as string;
    await client.settled(original, (s) => s.pending === 0, 120_000);
    // Act
    const resent = await call('POST', `/v1/sends/${original}/resend`, { token: await client.token(), body: { which: 'failed' } });
    await client.settled(resent.body.send_id, (s) => s.pending === 0, 120_000);
    const sent = await sentTo(refused);
    // Assess: each refused person got one message, the resend's, of their variant; the resend's split the original's for them
    const rows = (await recipientsOf(original, 200)).filter((r) => refused.includes(r.to));
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ resend_of: original, recipients: 30 });
    expect(rows.every((r) => r.status === 'failed')).toBe(true);
    expect(rows.filter((r) => sent.get(r.to)?.[0].message.template.name !== ['ab_promo_a', 'ab_promo_b'][r.variant as number])).toEqual([]);
    expect(resent.body.variants.map((v: { recipients: number }) => v.recipients)).toEqual([
      rows.filter((r) => r.variant === 0).length,
      rows.filter((r) => r.variant === 1).length,
    ]);
  }, 300_000);
});

describe('a test-first A/B send (decisions §33)', () => {
  it('sends its test share, then after the wait the rest with the variant read more, with the decision and its figures on the send', async () => {
    // Prepare: a send of 400 testing 25 % first, by the read rate, with a wait of an hour
    const to = numbers(3, 400);
    const answer = await abSend(to, { test: { share: 0.25, wait_seconds: 3600, metric: 'read' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const sendId = answer.body.send_id as string;
    const { test_recipients: tested, rest_recipients: rest } = answer.body.test;
    await client.settled(sendId, (s) => s.delivered === tested, 120_000);
    const held = await sentTo(to);
    // Prepare: the people of B read their messages, those of A do not (Meta's read statuses, from the emulator)
    const rows = await recipientsOf(sendId, 400);
    const readB = rows.filter((r) => r.variant === 1);
    for (const r of readB) await emulator('POST', `messages/${encodeURIComponent(r.message_id as string)}/status`, { status: 'read' });
    await client.settled(sendId, (s) => s.read === readB.length, 60_000);
    // Act: the wait is over (the schedule run now, not slept through)
    const ran = await (await fetch(`${apiUrl()}/_local/schedules/test-${sendId}/run`, { method: 'POST' })).json();
    const status = await client.settled(sendId, (s) => s.pending === 0, 120_000);
    const sent = await sentTo(to);
    // Assess: nothing of the rest went before the decision; all of it after, with B
    expect(held.size).toBe(tested);
    expect(ran).toEqual({ ran: 1 });
    expect(status.test).toMatchObject({ share: 0.25, wait_seconds: 3600, metric: 'read', test_recipients: tested, rest_recipients: rest });
    expect(status.test.decision).toMatchObject({
      winner: { name: 'ab_promo_b', language: 'en_US' },
      rule: 'best_rate',
      significant: true,
      variants: [
        { template: { name: 'ab_promo_a' }, delivered: tested - readB.length, read: 0, rate: 0 },
        { template: { name: 'ab_promo_b' }, delivered: readB.length, read: readB.length, rate: 1 },
      ],
    });
    expect(status.test.rest_released_at).toEqual(expect.any(String));
    expect(status).toMatchObject({ total: 400, sent: 400 });
    const names = [...sent.values()].map((m) => m[0].message.template.name);
    expect(sent.size).toBe(400);
    expect(names.filter((n) => n === 'ab_promo_b')).toHaveLength(readB.length + rest);
    // Assess: the listing gives the rest B too
    expect((await recipientsOf(sendId, 400)).filter((r) => r.variant === undefined)).toEqual([]);
  }, 300_000);
});

describe('a test-first A/B send by replies (decisions §33)', () => {
  it('sends the rest with the variant replied to more, as the emulator’s people answered', async () => {
    // Prepare: a send of 200 testing half first, by the reply rate
    const to = numbers(7, 200);
    const answer = await abSend(to, { test: { share: 0.5, wait_seconds: 600, metric: 'replied' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const sendId = answer.body.send_id as string;
    const { test_recipients: tested, rest_recipients: rest } = answer.body.test;
    await client.settled(sendId, (s) => s.delivered === tested, 120_000);
    // Prepare: the people of A answer their messages (a text quoting each), those of B do not
    const aPeople = (await recipientsOf(sendId, 200)).filter((r) => r.variant === 0).map((r) => r.to);
    const replied = await emulator('POST', 'replies', { send_id: sendId, to: aPeople, text: 'Yes please' });
    await until(
      async () => (await call('GET', `/v1/sends/${sendId}/performance`, { token: await client.token() })).body,
      (p) => p.variants[0]?.replied === aPeople.length,
      60_000,
      250,
    );
    // Act
    await fetch(`${apiUrl()}/_local/schedules/test-${sendId}/run`, { method: 'POST' });
    const status = await client.settled(sendId, (s) => s.pending === 0, 120_000);
    const sent = await sentTo(to);
    // Assess
    expect(replied.replies).toHaveLength(aPeople.length);
    expect(status.test.decision).toMatchObject({
      winner: { name: 'ab_promo_a' },
      rule: 'best_rate',
      significant: true,
      variants: [
        { replied: aPeople.length, rate: 1 },
        { replied: 0, rate: 0 },
      ],
    });
    expect([...sent.values()].filter((m) => m[0].message.template.name === 'ab_promo_a')).toHaveLength(aPeople.length + rest);
  }, 300_000);
});

describe('what an A/B send refuses (decisions §33)', () => {
  const two = numbers(4, 2);
  const refusal = async (extra: Record<string, unknown>, status: number, query = '') => {
    const answer = await abSend(two, extra, query);
    return expectErrorShape(answer, status).details;
  };

  it('answers 400 naming the field for variants beside a template or a Direct Send, and a test without variants', async () => {
    // Prepare / Act / Assess
    expect(await refusal({ template: { name: 'ab_promo_a', language: 'en_US' } }, 400)).toContainEqual({
      path: 'variants',
      message: 'not with template: one or the other',
    });
    expect(await refusal({ category: 'UTILITY', message: { type: 'text', text: { body: 'x' } } }, 400)).toContainEqual({
      path: 'variants',
      message: 'not with a Direct Send',
    });
    expect(
      await refusal(
        {
          variants: undefined,
          template: { name: 'ab_promo_a', language: 'en_US' },
          test: { share: 0.2, wait_seconds: 600, metric: 'read' },
        },
        400,
      ),
    ).toContainEqual({ path: 'test', message: 'only with variants (an A/B send)' });
  });

  it('answers 400 for fewer than 2 or more than 4 variants, a weight not a whole number from 1 to 1000, and an unknown field', async () => {
    // Prepare
    const five = ['a', 'b', 'c', 'd', 'e'].map((x) => ({ template: `ab_promo_${x}`, language: 'en_US', weight: 1 }));
    // Act / Assess
    expect(await refusal({ variants: [A] }, 400)).toEqual([{ path: 'variants', message: 'must give 2 to 4 variants' }]);
    expect(await refusal({ variants: five }, 400)).toEqual([{ path: 'variants', message: 'must give 2 to 4 variants' }]);
    expect(await refusal({ variants: [A, { ...B, weight: 0 }] }, 400)).toEqual([
      { path: 'variants[1].weight', message: 'must be at least 1' },
    ]);
    expect(await refusal({ variants: [A, { ...B, weight: 1.5 }] }, 400)).toEqual([
      { path: 'variants[1].weight', message: 'must be a whole number' },
    ]);
    expect(await refusal({ variants: [A, { ...B, weight: 1001 }] }, 400)).toEqual([
      { path: 'variants[1].weight', message: 'must be at most 1000' },
    ]);
    expect(await refusal({ variants: [A, { ...B, colour: 'red' }] }, 400)).toEqual([
      { path: 'variants[1].colour', message: 'Unknown field' },
    ]);
    expect(await refusal({ recipients: [{ to: two[0], variant: 1 }] }, 400)).toEqual([
      { path: 'recipients[0].variant', message: 'Unknown field' },
    ]);
  });

  it('answers 400 for a first variant without a language, one template twice, and values that do not fill a variant', async () => {
    // Prepare / Act / Assess
    expect(await refusal({ variants: [{ template: 'ab_promo_a', weight: 1 }, B] }, 400)).toEqual([
      { path: 'variants[0].language', message: 'is required: the other variants take it unless they name their own' },
    ]);
    expect(await refusal({ variants: [A, { template: 'ab_promo_a', weight: 2 }] }, 400)).toEqual([
      { path: 'variants[1].template', message: 'names the same template as variants[0]' },
    ]);
    expect(await refusal({ variants: [A, { template: 'ab_promo_two', weight: 1 }] }, 400)).toContainEqual({
      path: 'recipients[0].params.body',
      message: 'needs 2 body values, got 1 (variants[1], ab_promo_two)',
    });
  });

  it('answers 400 for a test’s share, wait or metric out of bounds, and a wait the send’s TTL would outrun', async () => {
    // Prepare
    const test = { share: 0.2, wait_seconds: 600, metric: 'read' };
    // Act / Assess
    expect(await refusal({ test: { ...test, share: 0 } }, 400)).toEqual([{ path: 'test.share', message: 'must be over 0' }]);
    expect(await refusal({ test: { ...test, share: 1 } }, 400)).toEqual([{ path: 'test.share', message: 'must be under 1' }]);
    expect(await refusal({ test: { ...test, wait_seconds: 299 } }, 400)).toEqual([
      { path: 'test.wait_seconds', message: 'must be at least 300 (5 minutes)' },
    ]);
    expect(await refusal({ test: { ...test, wait_seconds: 259_201 } }, 400)).toEqual([
      { path: 'test.wait_seconds', message: 'must be at most 259200 (3 days)' },
    ]);
    expect(await refusal({ test: { ...test, metric: 'opened' } }, 400)).toEqual([
      { path: 'test.metric', message: 'must be one of read, replied, clicked' },
    ]);
    expect(await refusal({ test, message_send_ttl_seconds: 600 }, 400, '?dry_run=true')).toEqual([
      { path: 'test.wait_seconds', message: 'must be under the send’s TTL (600 s): its rest would expire before it goes' },
    ]);
  });

  it('answers 422 naming the variant of another category or not APPROVED, and 404 saying which one does not exist', async () => {
    // Prepare / Act / Assess
    expect(await refusal({ variants: [A, { template: 'ab_market', weight: 1 }] }, 422)).toEqual([
      { path: 'variants[1].template', message: 'is MARKETING, not UTILITY' },
    ]);
    expect(await refusal({ variants: [A, { template: 'ab_pending', weight: 1 }] }, 422, '?dry_run=true')).toEqual([
      { path: 'variants[1].template', message: 'is PENDING; only APPROVED templates can be sent' },
    ]);
    const missing = expectErrorShape(await abSend(two, { variants: [A, { template: 'ab_nowhere', weight: 1 }] }), 404);
    expect(missing.message).toBe('Template ab_nowhere (en_US) of variants[1] does not exist');
  });

  it('never shows one tenant another’s A/B send', async () => {
    // Prepare
    const sendId = (await abSend(numbers(5, 2))).body.send_id as string;
    // Act
    const seen = await call('GET', `/v1/sends/${sendId}`, { token: await other.token() });
    // Assess
    expectErrorShape(seen, 404);
    expect((await client.status(sendId)).variants).toHaveLength(2);
  });
});

describe('generated A/B send bodies (decisions §33)', () => {
  it('answers each a 2xx of its shape or a 4xx of the contract’s error shape, never a 5xx (property)', async () => {
    // Prepare: bodies at their edges, most as dry runs (a real send of up to 4 now and then)
    const bodies = fc.record({
      body: abBodies({ sendable: [A, B], others: ['ab_promo_two', 'ab_market', 'ab_pending', 'ab_nowhere'], numbers: numbers(6, 4) }),
      dryRun: fc.boolean(),
    });
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(bodies, async ({ body, dryRun }) => {
        // Act
        const answer = await call('POST', `/v1/template/messages/${client.did}${dryRun ? '?dry_run=true' : ''}`, {
          token: await client.token(),
          body: { did: client.did, type: 'template', channel: 'MSGCHAN', ...body },
        });
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        // Assess: a 2xx was checked against its route's schema by `call`
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
        if (answer.status >= 400) expectErrorShape(answer, answer.status);
      }),
      { numRuns: 80 },
    );
    expect(seen.get(200)).toBeGreaterThan(5);
    expect(seen.get(400)).toBeGreaterThan(5);
  }, 180_000);
});
