import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_METRICS, TEST_WAIT_SECONDS, VARIANTS } from '#lib/domain/sends/ab/ab-send.ts';

/** docs/ab-sends.md states the A/B bounds the code keeps (docs stay true): each figure it gives, from the constant. */
const ROOT = join(import.meta.dirname, '../../../..');
const doc = readFileSync(join(ROOT, 'docs/ab-sends.md'), 'utf8').replace(/\s+/g, ' ');
const decisions = readFileSync(join(ROOT, 'docs/decisions-made.md'), 'utf8');

describe('the A/B bounds the docs state (decisions §33)', () => {
  it('gives the variants’ number and weights, and a test’s wait and metrics, as the code keeps them', () => {
    // Assess
    expect(doc).toContain(`${VARIANTS.min}–${VARIANTS.max} \`variants\``);
    expect(doc).toContain(`from 1 to ${VARIANTS.maxWeight}`);
    expect(doc).toContain(`whole number from ${TEST_WAIT_SECONDS.min} to ${TEST_WAIT_SECONDS.max}`);
    expect(doc).toContain(`at least ${TEST_WAIT_SECONDS.min} s (5 minutes`);
    expect(doc).toContain(`at most ${TEST_WAIT_SECONDS.max} s (3 days`);
    expect(doc).toContain(
      `not ${TEST_METRICS.map((m) => `\`${m}\``)
        .join(', ')
        .replace(/, (?=[^,]*$)/, ' or ')}`,
    );
    expect(decisions).toContain(`\`wait_seconds\` ${TEST_WAIT_SECONDS.min}–${TEST_WAIT_SECONDS.max} (5 minutes to 3 days)`);
    expect([TEST_WAIT_SECONDS.min / 60, TEST_WAIT_SECONDS.max / 86_400]).toEqual([5, 3]);
  });
});
