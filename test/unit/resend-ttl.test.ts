import { describe, expect, it } from 'vitest';
import type { StoredRecipient } from '#lib/domain/sends/ports.ts';
import { mayStillDeliver } from '#lib/domain/sends/accept/resend.ts';

/** A resend of `not_delivered` never pays a recipient twice (decisions §30, issue 51 item 7). */
const at = '2026-11-26T10:00:00.000Z';
const DAY = 86_400_000;
const sent = (delivery?: StoredRecipient['delivery']): StoredRecipient => ({
  index: 0,
  to: '5215550001',
  updated_at: at,
  outcome: { kind: 'sent', message_id: 'wamid.1' },
  ...(delivery && { delivery }),
});
const original = { request: {} };

describe('a sent message Meta may still deliver (decisions §30)', () => {
  it('is one answered sent with no final status, until 30 days after it went', () => {
    // Prepare
    const went = Date.parse(at);
    // Act
    const nextDay = mayStillDeliver(sent(), original, went + DAY);
    const lastSecond = mayStillDeliver(sent(), original, went + 30 * DAY - 1_000);
    const after = mayStillDeliver(sent(), original, went + 30 * DAY);
    // Assess
    expect([nextDay, lastSecond, after]).toEqual([true, true, false]);
  });

  it('ends at the Marketing Messages API TTL of the request where it had one', () => {
    // Prepare: a TTL of 12 hours
    const marketing = { request: { ttl_seconds: 43_200 } };
    // Act
    const before = mayStillDeliver(sent(), marketing, Date.parse(at) + 43_199_000);
    const after = mayStillDeliver(sent(), marketing, Date.parse(at) + 43_200_000);
    // Assess
    expect([before, after]).toEqual([true, false]);
  });

  it('is never a message settled otherwise: failed, delivered, or never sent (expired before it went)', () => {
    // Prepare
    const soon = Date.parse(at) + 1_000;
    const expired: StoredRecipient = { index: 0, to: '5215550001', updated_at: at, outcome: { kind: 'expired' } };
    // Act
    const answers = [
      mayStillDeliver(sent({ failed: { code: '131047', title: 'x' } }), original, soon),
      mayStillDeliver(sent({ delivered: true }), original, soon),
      mayStillDeliver(expired, original, soon),
    ];
    // Assess
    expect(answers).toEqual([false, false, false]);
  });
});
