import { describe, expect, it } from 'vitest';
import { isSendable, markSuppressed, personKey, personKeys, sendableOf } from '#lib/domain/sends/dispatch/job.ts';
import { recipientDigits } from '#lib/domain/people/person.ts';

/** A dispatch job's recipients (job.ts): who each is, and which are sent. */
describe('a job’s recipients', () => {
  it('knows a recipient by its number’s digits, else its BSUID, and by the pair the people map knows', () => {
    // Prepare
    const pairs = new Map([['p:5215550100', { phone: '5215550100', user_id: 'US.1' }]]);
    // Act
    const keys = personKeys({ to: '+52 1 555 0100' }, pairs);
    // Assess
    expect(recipientDigits('+52 1 555-0100')).toBe('5215550100');
    expect(personKey({ to: '+52 1 555 0100', user_id: 'US.9' })).toBe('5215550100');
    expect(personKey({ user_id: 'US.9' })).toBe('US.9');
    expect(keys).toEqual(['p:5215550100', 'u:US.1']);
  });

  it('sends neither a repeat nor a suppressed recipient, and strips a suppressed one of its values', () => {
    // Prepare
    const recipients = [
      { to: '5215550100', params: { body: ['a'] } },
      { to: '5215550101', params: { body: ['b'] } },
      { to: '5215550100', duplicate_of: 0 },
    ];
    // Act
    const { recipients: marked, count } = markSuppressed(recipients, new Set([1, 2]));
    // Assess: the repeat stays a repeat, counted once as such, not as suppressed
    expect(count).toBe(1);
    expect(marked[1]).toEqual({ to: '5215550101', suppressed: true });
    expect(marked.map(isSendable)).toEqual([true, false, false]);
    expect(sendableOf({ recipients: marked })).toBe(1);
  });
});
