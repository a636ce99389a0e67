import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountText, fromMicros, MICROS_PER_UNIT, microsText, roundToMicros, toMicros } from '#lib/domain/shared/money.ts';

describe('money: micro-units in, decimals out (lib/domain/shared/money.ts)', () => {
  it('turns a decimal amount into whole micro-units, to the nearest', () => {
    // Prepare
    const amounts = [0.0125, 1, 0.0000014, 0.0000016, 12.345678];
    // Act
    const micros = amounts.map(toMicros);
    // Assess
    expect(micros).toEqual([12_500, 1_000_000, 1, 2, 12_345_678]);
  });

  it('shows micro-units as the decimal amount and its six-place text', () => {
    // Prepare
    const micros = [12_500, 1_000_000, 0, 12_345_678];
    // Act
    const amounts = micros.map(fromMicros);
    const texts = micros.map(microsText);
    // Assess
    expect(amounts).toEqual([0.0125, 1, 0, 12.345678]);
    expect(texts).toEqual(['0.012500', '1.000000', '0.000000', '12.345678']);
    expect(amountText(0.0125)).toBe('0.012500');
  });

  it('keeps an amount to the micro-unit and gives back the micro-units it came from', () => {
    // Prepare
    const micros = fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 });
    // Act, Assess
    fc.assert(fc.property(micros, (m) => toMicros(fromMicros(m)) === m));
    expect(roundToMicros(0.01234567)).toBe(0.012346);
    expect(MICROS_PER_UNIT).toBe(1_000_000);
  });
});
