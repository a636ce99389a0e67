import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import { jobOf, recipient, templateOf } from '../../test/support/dispatch-jobs.ts';

/** The simulation's sends (bench/simulate.ts): a send's jobs as the API makes them, and the draws of its arrivals. */
export const JOB = 1000;

export type Category = 'AUTHENTICATION' | 'UTILITY' | 'MARKETING';

/** A send of `count` recipients on a tenant's own number, in jobs of 1,000, as the API makes them. */
export function sendOf(sendId: string, client: number, count: number, category: Category, at: number) {
  const did = `52${String(client).padStart(8, '0')}`;
  const record: SendRecord = {
    send_id: sendId,
    client_id: client,
    did,
    template: { name: 'track_order', language: 'en_US' },
    status: 'queuing',
    created_at: new Date(at).toISOString(),
    total: count,
    jobs: Math.ceil(count / JOB),
  };
  const template = templateOf(category);
  const jobs: DispatchJob[] = [];
  for (let first = 0; first < count; first += JOB) {
    const size = Math.min(JOB, count - first);
    jobs.push(
      jobOf(
        Array.from({ length: size }, (_, i) => recipient(`${did}${String(first + i).padStart(6, '0')}`)),
        {
          send_id: sendId,
          client_id: client,
          did,
          phone_number_id: `p${client}`,
          template,
          total_contacts: count,
          job: first / JOB + 1,
          jobs: record.jobs,
          first_index: first,
        },
      ),
    );
  }
  return { record, jobs };
}

/** Numbers in [0, 1) from a seed (a linear congruential generator): every run draws the same arrivals. */
export function randomFrom(seed: number) {
  let random = seed;
  return () => {
    random = (random * 1103515245 + 12345) % 2 ** 31;
    return random / 2 ** 31;
  };
}

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
