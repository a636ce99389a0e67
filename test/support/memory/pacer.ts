import type { Pacer } from '#lib/domain/ports/pacing.ts';

/** The pacing of each number, as the DynamoDB pacer keeps it: the next free slot; reservations never overlap. */
export class MemoryPacer implements Pacer {
  readonly next = new Map<string, number>();
  readonly reservations: { numberId: string; first: number; count: number; intervalMs: number }[] = [];

  /** Reservations near refused: they book nothing (a read only, in the table). */
  refusals = 0;

  async reserve(numberId: string, count: number, intervalMs: number, nowMs: number) {
    const first = Math.max(this.next.get(numberId) ?? 0, nowMs);
    this.next.set(numberId, first + count * intervalMs);
    this.reservations.push({ numberId, first, count, intervalMs });
    return first;
  }

  async reserveNear(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number) {
    const free = Math.max(this.next.get(numberId) ?? 0, nowMs);
    if (free - nowMs > horizonMs) {
      this.refusals++;
      return { freeAt: free };
    }
    return { first: await this.reserve(numberId, count, intervalMs, nowMs) };
  }
}
