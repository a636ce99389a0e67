import { describe, expect, it } from 'vitest';
import * as tuning from '#lib/domain/sends/dispatch/tuning.ts';

/** The dispatcher's tuning table (tuning.ts): each value once, named, with its unit and why. */
describe('the dispatcher’s tuning table', () => {
  it('exports each row’s value under its name, and nothing that is not a row', () => {
    // Prepare
    const { DISPATCH_TUNING, ...exported } = tuning;
    // Act
    const rows = Object.fromEntries(Object.entries(DISPATCH_TUNING).map(([name, row]) => [name, row.value]));
    // Assess
    expect(exported).toEqual(rows);
  });

  it('gives every value as a positive number, with the reason for it', () => {
    // Act
    const wrong = Object.entries(tuning.DISPATCH_TUNING).filter(
      ([, row]) => !(row.value > 0 && Number.isFinite(row.value)) || row.why.length < 10,
    );
    // Assess
    expect(Object.keys(tuning.DISPATCH_TUNING).length).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
  });
});
