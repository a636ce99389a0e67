import { describe, expect, it } from 'vitest';
import type { StoredRecipient } from '#lib/domain/sends/ports.ts';
import { isResent } from '#lib/domain/sends/accept/resend.ts';

/** Which recipients a resend takes (decisions §25), by their latest state. */
const at = '2026-11-26T10:00:00.000Z';
const row = (extra: Partial<StoredRecipient>): StoredRecipient => ({ index: 0, to: '5215550001', updated_at: at, ...extra });
const failed = (code: string) => row({ outcome: { kind: 'failed', code, title: code } });
const sent = (delivery?: StoredRecipient['delivery']) =>
  row({ outcome: { kind: 'sent', message_id: 'wamid.1' }, ...(delivery && { delivery }) });

describe('which recipients a resend takes (decisions §25)', () => {
  it('takes failures worth another try, never 131026, 131049, 131050 nor a message whose answer never came', () => {
    // Prepare / Act / Assess
    for (const code of ['131047', '131000', '130429', 'dispatch_abandoned']) expect(isResent(failed(code), 'failed'), code).toBe(true);
    for (const code of ['131026', '131049', '131050', 'outcome_unknown']) expect(isResent(failed(code), 'failed'), code).toBe(false);
    expect(isResent(sent({ failed: { code: '131047', title: 'x' } }), 'failed')).toBe(true);
    expect(isResent(sent({ failed: { code: '131050', title: 'x' } }), 'failed')).toBe(false);
  });

  it('takes also what was sent but never delivered, or expired, when not_delivered is asked', () => {
    // Prepare / Act / Assess
    expect(isResent(sent(), 'failed')).toBe(false);
    expect(isResent(sent(), 'not_delivered')).toBe(true);
    expect(isResent(row({ outcome: { kind: 'expired' } }), 'not_delivered')).toBe(true);
    expect(isResent(sent({ delivered: true }), 'not_delivered')).toBe(false);
    expect(isResent(row({ outcome: { kind: 'suppressed' } }), 'not_delivered')).toBe(false);
    expect(isResent(row({ outcome: { kind: 'duplicate', of: 0 } }), 'not_delivered')).toBe(false);
    expect(isResent(row({ outcome: { kind: 'cancelled' } }), 'not_delivered')).toBe(false);
  });
});
