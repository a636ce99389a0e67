import { KEPT_PACE_MARGIN, LATE_MS, PACE_LAUNCHES, SLOWEST_SPACING_MS } from './tuning.ts';

/**
 * A block's launch slots (decisions §12, §19; issues 32, 33, 44): the slots it booked, and new ones each time it
 * is late or has used them (a send that shares its number books a chunk at a time: sending/lanes.ts). A launch is
 * never later than LATE_MS after a slot of its own, so a stalled invocation never sends at slots gone by beside
 * the next holder. The values are in tuning.ts; why they are what they are:
 *
 * - How late a message may go after its slot: LATE_MS, or one of its block's own intervals when they are longer.
 *   Later, the rest of its block takes new slots: a slot's time passes to the next holder, so a stalled
 *   invocation that went on at its old slots would send beside that holder. Every launch is then within this of
 *   a slot of its own, and a second holds at most the slots of itself and the 150 ms before it (1.15 × the pace,
 *   1.035 × the rate at PACE_SHARE) and a message more per block whose own interval is longer. A timer that fires
 *   up to this late (a busy process) costs no reservation; a stall longer than it costs one per block it meets.
 * - A late block takes new slots at the pace it kept, with KEPT_PACE_MARGIN to spare. It takes them each time it
 *   is late, never sending on at slots gone by (a block that once did so after two late reservations sent beside
 *   the next holder: 89 in a second at a pace of 72, found by test/unit/pacing-properties.test.ts). The spacing
 *   follows the block's own pace, so a slow process is seldom late twice and the pacing item takes few writes.
 *   The spare is small: a process that is its own bottleneck goes at the slots it reserved, so half again (tried
 *   first) cost a third of its throughput (the benchmark's uncapped HIGH row fell from 188 to 90 a second).
 * - A block never takes slots further apart than SLOWEST_SPACING_MS: slower than a message a second, it takes
 *   them often.
 */
export class LaunchSlots {
  private slot: number;
  /** Slots still booked: a shared send's block books its next chunk when they are used. */
  private left: number;
  private spacing: number;
  /** The launches since the block last took slots: the pace it keeps, without the lateness that ends them. */
  private kept = { first: 0, last: 0, count: 0 };
  /** Slots taken because the block was late (a stall, not its pace): each a write of the pacing item. */
  lateBookings = 0;

  constructor(
    private readonly of: {
      /** A shared send's chunk at this spacing (lanes.ts, `chunkMessagesOf`); none: the rest of the block. */
      chunk?: (spacingMs: number) => number;
      /** The number's pace: the least spacing of the block's slots. */
      intervalMs: number;
      /** The slots booked with the block, if any. */
      booked: { first: number; count: number };
      clock: { now(): number };
      /**
       * Books `count` slots `spacingMs` apart from the number's next free slot; the first one's time, or none when
       * it is not the block's turn (a shared send's: lanes.ts).
       */
      reserve: (count: number, spacingMs: number) => Promise<number | undefined>;
    },
  ) {
    this.slot = of.booked.first;
    this.left = of.booked.count;
    this.spacing = of.intervalMs;
  }

  /** A shared send's chunk is used: where its slice may end within the block. */
  get chunkUsed() {
    return this.left === 0;
  }

  /** The slot of the next launch, `rest` launches left in the block (this one included); none when not its turn. */
  async next(rest: number): Promise<number | undefined> {
    const { clock, intervalMs, chunk } = this.of;
    const late = clock.now() > this.slot + Math.max(LATE_MS, this.spacing);
    if (late) {
      // Too late for its slot (a stall, slow answers): the rest of the block takes slots from now, at the
      // pace its launches kept since it last took slots when that is slower (with a margin), so a process
      // that cannot keep the number's pace reserves what it can send rather than reserving again and again,
      // and a stall (a gap, not a pace) costs one reservation at the pace it had.
      // Late again before PACE_LAUNCHES launches: no pace to read, and the block is slower than its slots (an
      // invocation whose timers fire late): its spacing doubles, so it takes slots a few times, not each message.
      // Two launches are no pace: a stall of 432 ms between them set a small send's last 13 slots 479 ms apart
      // (found by test/unit/pacing-properties.test.ts).
      const kept = this.kept;
      const keptPace = kept.count < PACE_LAUNCHES ? this.spacing * 2 : ((kept.last - kept.first) / (kept.count - 1)) * KEPT_PACE_MARGIN;
      this.spacing = Math.min(Math.max(intervalMs, keptPace), SLOWEST_SPACING_MS);
      this.kept = { first: 0, last: 0, count: 0 };
      this.lateBookings++;
    }
    if (late || this.left === 0) {
      const count = chunk === undefined ? rest : Math.min(rest, chunk(this.spacing));
      const first = await this.of.reserve(count, this.spacing);
      if (first === undefined) return undefined;
      this.left = count;
      this.slot = first;
    }
    return this.slot;
  }

  /** The launch at the slot `next` gave went now. */
  launched() {
    const now = this.of.clock.now();
    // A launch more than a second after its slot (the process stalled while it waited) is a gap, not a pace: the
    // pace kept stays what it was before it, and the next launch takes new slots at that pace (a stall of 2 s
    // after ten launches had set the rest of the block 235 ms apart, found by test/unit/sends/dispatch/slots.test.ts).
    // Timers that fire a few hundred milliseconds late still count: that is the invocation's own pace.
    if (now <= this.slot + SLOWEST_SPACING_MS)
      this.kept = { first: this.kept.count === 0 ? now : this.kept.first, last: now, count: this.kept.count + 1 };
    this.slot += this.spacing;
    this.left--;
  }
}
