import { describe, expect, it } from 'vitest';
import { reservationFor, recipientEstimate } from '#lib/domain/money/pricing/reservation.ts';
import { releaseOf, wholeJobRelease } from '#lib/domain/sends/dispatch/release.ts';
import { jobOf, recipient } from '../../../support/dispatch-jobs.ts';

/** What settling gives back of a send's reservation (decisions §27): the parts of those never delivered now. */
describe('a reservation’s release', () => {
  const reservation = reservationFor('UTILITY', '2026-11-27', 'USD');
  const people = ['5215550100', '5215550101', '5215550102'];

  it('gives back the parts of the recipients that failed, expired or were cancelled, for the send’s month', () => {
    // Prepare
    const job = jobOf(people.map(recipient), { reservation });
    const settled = [
      { position: 0, outcome: { kind: 'sent' as const, message_id: 'wamid.1' } },
      { position: 1, outcome: { kind: 'failed' as const, code: '131026', title: 'Undeliverable' } },
      { position: 2, outcome: { kind: 'expired' as const } },
    ];
    // Act
    const release = releaseOf(job, settled);
    // Assess
    const part = (digits: string) => recipientEstimate(reservation, digits);
    expect(release).toEqual({ client_id: 7, month: '2026-11', micros: part(people[1]) + part(people[2]) });
    expect(release?.micros).toBeGreaterThan(0);
  });

  it('gives back nothing for a send that reserved nothing, and every sendable recipient’s part for a job settled whole', () => {
    // Prepare: the third recipient repeats the first
    const recipients = [recipient(people[0]), recipient(people[1]), { to: people[0], duplicate_of: 0 }];
    // Act
    const unreserved = releaseOf(jobOf(recipients), [{ position: 0, outcome: { kind: 'cancelled' } }]);
    const whole = wholeJobRelease(jobOf(recipients, { reservation }), { kind: 'cancelled' });
    // Assess
    expect(unreserved).toBeUndefined();
    expect(whole?.micros).toBe(recipientEstimate(reservation, people[0]) + recipientEstimate(reservation, people[1]));
  });
});
