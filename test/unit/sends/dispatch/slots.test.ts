import { describe, expect, it } from 'vitest';
import { chunkOf } from '#lib/domain/sends/dispatch/lanes.ts';
import { LaunchSlots } from '#lib/domain/sends/dispatch/slots.ts';

/**
 * A block's launch slots alone (sending/slots.ts): what it books and when, on a clock the test moves. The pacer is
 * a number's next free slot; each launch happens at its slot unless the test makes it late.
 */
const INTERVAL = 1000 / 72;

function block(lane: 'priority' | 'bulk', booked: number) {
  let now = 0;
  let free = 0;
  const reservations: { count: number; spacing: number; first: number }[] = [];
  const clock = { now: () => now };
  const reserve = async (count: number, spacing: number) => {
    const first = Math.max(free, now);
    free = first + count * spacing;
    reservations.push({ count, spacing, first });
    return first;
  };
  const first = booked > 0 ? 0 : 0;
  free = booked * INTERVAL;
  const chunk = lane === 'bulk' ? (spacing: number) => chunkOf(spacing) : undefined;
  const slots = new LaunchSlots({ chunk, intervalMs: INTERVAL, booked: { first, count: booked }, clock, reserve });
  /** Launches `n` of `rest` at their slots, `stall(i)` ms late for the i-th; the launch times. */
  const launch = async (n: number, rest: number, stall: (i: number) => number = () => 0) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const slot = (await slots.next(rest - i)) as number;
      now = Math.max(now, slot) + stall(i);
      times.push(now);
      slots.launched();
    }
    return times;
  };
  return { slots, reservations, launch, at: (ms: number) => (now = ms) };
}

describe('a block’s launch slots (sending/slots.ts)', () => {
  it('launches a priority block on time at the slots it booked, booking nothing more', async () => {
    // Prepare
    const { reservations, launch } = block('priority', 90);
    // Act
    const times = await launch(90, 90);
    // Assess
    expect(reservations).toEqual([]);
    expect(times.at(-1)).toBeCloseTo(89 * INTERVAL, 6);
  });

  it('books a campaign’s block a chunk at a time, each when the last is used', async () => {
    // Prepare: its first chunk booked with the block
    const chunk = chunkOf(INTERVAL);
    const { slots, reservations, launch } = block('bulk', chunk);
    // Act
    await launch(chunk, 90);
    const usedFirst = slots.chunkUsed;
    await launch(90 - chunk, 90 - chunk);
    // Assess: the rest in chunks, back to back
    expect(usedFirst).toBe(true);
    expect(reservations.map((r) => r.count)).toEqual([chunk, 90 - 2 * chunk]);
    expect(reservations[0].first).toBeCloseTo(chunk * INTERVAL, 6);
  });

  it('after a stall, takes new slots from now at the pace it kept, never sending at slots gone by', async () => {
    // Prepare
    const { reservations, launch } = block('priority', 90);
    // Act: a stall of 2 s before the 11th launch
    const times = await launch(90, 90, (i) => (i === 10 ? 2_000 : 0));
    // Assess: one new booking, from the stall's end; no launch later than 150 ms after a slot of its own
    expect(reservations).toHaveLength(1);
    expect(reservations[0].count).toBe(79);
    expect(reservations[0].first).toBeGreaterThanOrEqual(times[10]);
    expect(reservations[0].spacing).toBeGreaterThanOrEqual(INTERVAL);
    expect(reservations[0].spacing).toBeLessThanOrEqual(INTERVAL * 1.1 + 1e-9);
  });

  it('doubles its spacing when late again before a second launch (an invocation whose timers fire late)', async () => {
    // Prepare
    const { reservations, launch } = block('priority', 90);
    // Act: every launch 400 ms late
    await launch(6, 90, () => 400);
    // Assess: each booking at least twice as far apart as the last, never more than a second
    const spacings = reservations.map((r) => r.spacing);
    for (let i = 1; i < spacings.length; i++) expect(spacings[i]).toBeGreaterThanOrEqual(Math.min(spacings[i - 1] * 2, 1_000) - 1e-9);
    expect(Math.max(...spacings)).toBeLessThanOrEqual(1_000);
  });
});
