import { describe, expect, it } from 'vitest';
import { checkRecipients, templateNeeds } from '#lib/domain/sends/accept/send-rules.ts';
import { splitJobs } from '#lib/domain/sends/accept/send-jobs.ts';
import { BATCH_BYTES, packBatches } from '#lib/adapters/sqs/job-queue.ts';
import type { MetaTemplate } from '#lib/domain/templates/template-record.ts';

const template = (components: Record<string, unknown>[]): MetaTemplate => ({
  id: '1',
  name: 'n',
  language: 'en',
  status: 'APPROVED',
  category: 'UTILITY',
  components,
});

describe('send rules', () => {
  it('counts what a template needs: header and body placeholders, variable buttons, cards', () => {
    const needs = templateNeeds(
      template([
        { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
        { type: 'BODY', text: '{{1}} {{2}} {{1}}' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY' },
            { type: 'URL', url: 'https://a/{{1}}' },
            { type: 'URL', url: 'https://a/static' },
            { type: 'COPY_CODE' },
          ],
        },
      ]),
    );
    expect(needs).toMatchObject({ header: 1, body: 2, buttons: 2, headerFormat: 'TEXT' });
  });

  it('names each recipient whose params do not match', () => {
    const needs = { header: 0, body: 1, buttons: 0 };
    const problems = checkRecipients(needs, [{ to: '1', params: { body: ['a'] } }, { to: '2' }, { to: '3', params: { body: ['a', 'b'] } }]);
    expect(problems.map((p) => p.path)).toEqual(['recipients[1].params.body', 'recipients[2].params.body']);
  });

  it('splits recipients into jobs by count and by size, keeping every recipient once, in order', () => {
    const recipients = Array.from({ length: 2345 }, (_, i) => ({ to: String(i) }));
    const jobs = splitJobs(recipients);
    expect(jobs.map((j) => j.length)).toEqual([1000, 1000, 345]);
    expect(jobs.flat()).toEqual(recipients);
    const big = Array.from({ length: 10 }, (_, i) => ({ to: String(i), params: { body: ['x'.repeat(60_000)] } }));
    expect(splitJobs(big).every((job) => Buffer.byteLength(JSON.stringify(job)) < 256 * 1024)).toBe(true);
  });

  it('counts a job’s bytes as UTF-8: accented letters, other scripts and emoji never push a job over its budget', () => {
    // Prepare: 2- 3- and 4-byte characters, each recipient about 12 KB
    const texts = ['ñandú '.repeat(2000), '注文 '.repeat(4000), '📦 '.repeat(2400)];
    const recipients = Array.from({ length: 90 }, (_, i) => ({ to: String(i), params: { body: [texts[i % 3]] } }));
    // Act
    const jobs = splitJobs(recipients, 100_000);
    // Assess
    expect(jobs.flat()).toEqual(recipients);
    expect(jobs.every((job) => Buffer.byteLength(JSON.stringify(job)) <= 100_000)).toBe(true);
    // Greedy packing leaves at most one recipient's bytes unused per job
    const largest = Math.max(...recipients.map((r) => Buffer.byteLength(JSON.stringify(r)) + 1));
    expect(jobs.length).toBeLessThanOrEqual(Math.ceil(Buffer.byteLength(JSON.stringify(recipients)) / (100_000 - largest)));
  });

  it('packs jobs in the fewest SQS batches: at most ten messages and 1 MiB each', () => {
    // Prepare: 7 jobs of 200,000 bytes, and 25 small ones
    const large = Array.from({ length: 7 }, () => 'x'.repeat(200_000));
    const small = Array.from({ length: 25 }, () => 'y');
    // Act
    const largeBatches = packBatches(large);
    const smallBatches = packBatches(small);
    // Assess
    expect(largeBatches.map((b) => b.length)).toEqual([5, 2]);
    expect(largeBatches.every((b) => b.reduce((n, m) => n + m.length, 0) <= BATCH_BYTES)).toBe(true);
    expect(smallBatches.map((b) => b.length)).toEqual([10, 10, 5]);
  });
});
