import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { DomainError } from '#lib/domain/shared/errors.ts';
import { SendTemplate } from '#lib/manifest/routes/sends.ts';
import { callerOf, memoryWorld } from '../../../support/memory/world.ts';

/**
 * An A/B send's body (decisions §33) generated at its edges: 0–5 variants of templates that exist, do not, are
 * PENDING or of another category, with or without a language, weights at and past their bounds, a test's share,
 * wait and metric at and past theirs. Whatever the schema accepts, the send answers a result or a domain error
 * (a 4xx at the edge), never anything else; whatever it answers, its variants' recipients add up to the sendable.
 */
const acme = callerOf(7);
/** Mostly a valid value, now and then one at or past the edge, so most bodies get through the schema. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, edge: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: edge, weight: 1 });
const template = mostly(
  fc.constantFrom('order_update', 'order_update', 'track_order', 'login_code', 'summer_promo', 'no_such'),
  fc.constant(''),
);
const language = mostly(fc.option(fc.constantFrom('en_US', 'es', 'pt_BR'), { nil: undefined }), fc.constant('x'.repeat(16)));
const weight = mostly(fc.integer({ min: 1, max: 1000 }), fc.oneof(fc.constantFrom(0, -1, 1001, 1.5, '2'), fc.double()));
const variant = fc.record(
  { template, language, weight, params: fc.option(fc.record({ body: fc.array(fc.string(), { maxLength: 2 }) }), { nil: undefined }) },
  { requiredKeys: ['template', 'weight'] },
);
/** Two variants the client can send (order_update in en_US and es), in either order, at generated weights. */
const sendable = fc.tuple(weight, weight, fc.boolean()).map(([a, b, swap]) => {
  const pair = [
    { template: 'order_update', language: 'en_US', weight: a },
    { template: 'order_update', language: 'es', weight: b },
  ];
  return swap ? pair.reverse() : pair;
});
const test = fc.record({
  share: mostly(fc.double({ min: 0.01, max: 0.99, noNaN: true }), fc.constantFrom(0, 1, -0.1, 1.5, Number.NaN)),
  wait_seconds: mostly(fc.constantFrom(300, 3600, 259_200), fc.constantFrom(299, 259_201, 0, 1.5)),
  metric: mostly(fc.constantFrom('read', 'replied', 'clicked'), fc.constant('opened')),
});
const body = fc.record(
  {
    variants: mostly(sendable, fc.array(variant, { maxLength: 5 })),
    test: fc.option(test, { nil: undefined }),
    // Now and then a template beside the variants: one or the other (a 400).
    template: mostly(fc.constant(undefined), fc.constant({ name: 'order_update', language: 'es' })),
    recipients: fc.array(
      fc.record({ to: fc.constantFrom('5215550009', '5215550010', '+52 1 555 0011'), params: fc.constant({ body: ['v'] }) }),
      { minLength: 1, maxLength: 4 },
    ),
  },
  { requiredKeys: ['variants', 'recipients'] },
);

describe('an A/B send’s body at its edges (decisions §33)', () => {
  it('gets a result or a domain error for whatever the schema accepts, its variants’ recipients adding up', async () => {
    // Prepare
    const world = memoryWorld();
    let accepted = 0;
    let sent = 0;
    // Act / Assess
    await fc.assert(
      fc.asyncProperty(body, async (generated) => {
        const parsed = v.safeParse(SendTemplate.request.body, { did: '5215550001', type: 'template', channel: 'MSGCHAN', ...generated });
        if (!parsed.success) return;
        accepted++;
        const outcome = await sendTemplate(world, acme, {
          pathDid: '5215550001',
          sendId: `p-${accepted}`,
          body: parsed.output as never,
        }).then(
          (answer) => answer,
          (error: unknown) => error,
        );
        if (outcome instanceof Error) {
          expect(outcome, String(outcome)).toBeInstanceOf(DomainError);
          return;
        }
        sent++;
        const answer = outcome as Awaited<ReturnType<typeof sendTemplate>>;
        const split = (answer.variants ?? []).reduce((sum, x) => sum + x.recipients, 0) + (answer.test?.rest_recipients ?? 0);
        const send = await world.sends.get(answer.send_id);
        expect(split).toBe(send!.total - send!.counts!.duplicates_removed);
      }),
      { numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(20);
    expect(sent).toBeGreaterThan(5);
  });
});
