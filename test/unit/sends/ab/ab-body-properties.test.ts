import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { DomainError } from '#lib/domain/shared/errors.ts';
import { SendTemplate } from '#lib/manifest/routes/sends.ts';
import { abBodies } from '../../../support/ab-bodies.ts';
import { callerOf, memoryWorld } from '../../../support/memory/world.ts';

/**
 * An A/B send's body (decisions §33) generated at its edges: 0–5 variants of templates that exist, do not, are
 * PENDING or of another category, with or without a language, weights at and past their bounds, a test's share,
 * wait and metric at and past theirs. Whatever the schema accepts, the send answers a result or a domain error
 * (a 4xx at the edge), never anything else; whatever it answers, its variants' recipients add up to the sendable.
 */
const acme = callerOf(7);
const body = abBodies({
  sendable: [
    { template: 'order_update', language: 'en_US' },
    { template: 'order_update', language: 'es' },
  ],
  others: ['track_order', 'login_code', 'summer_promo', 'no_such'],
  numbers: ['5215550009', '5215550010', '+52 1 555 0011'],
});

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
