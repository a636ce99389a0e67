import type { Pacer, Turn } from '#lib/domain/sends/dispatch/ports.ts';

/**
 * The pacing of each number, as the DynamoDB pacer keeps it: the next free slot, and until when each rank's shared
 * sends hold the number; reservations never overlap.
 */
export class MemoryPacer implements Pacer {
  readonly next = new Map<string, number>();
  /** By number, the end of each rank's hold (index: the rank). */
  readonly holds = new Map<string, number[]>();
  readonly reservations: { numberId: string; first: number; count: number; intervalMs: number; rank?: number }[] = [];

  /** Reservations near refused: they book nothing (a read only, in the table) … */
  refusals = 0;
  /** … but those that held the number for their rank from their next ask (a write each, in the table). */
  wants = 0;

  async reserve(numberId: string, count: number, intervalMs: number, nowMs: number, turn?: Turn) {
    const first = Math.max(this.next.get(numberId) ?? 0, nowMs);
    this.next.set(numberId, first + count * intervalMs);
    if (turn) this.hold(numberId, turn, first + count * intervalMs);
    this.reservations.push({ numberId, first, count, intervalMs, ...(turn && { rank: turn.rank }) });
    return first;
  }

  async reserveNear(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number, turn?: Turn) {
    const free = Math.max(this.next.get(numberId) ?? 0, nowMs);
    const better = (this.holds.get(numberId) ?? []).slice(0, turn?.rank ?? 0).filter((until) => until > nowMs);
    if (free - nowMs <= horizonMs && better.length === 0) return { first: await this.reserve(numberId, count, intervalMs, nowMs, turn) };
    this.refusals++;
    const refused = { freeAt: free, ...(better.length > 0 && { heldUntil: Math.max(...better) }) };
    // Refused, it still wants the number from its next ask: worse ranks give way meanwhile (a write, when it must).
    const askAt = Math.max(free - horizonMs, refused.heldUntil ?? 0);
    if (turn && turn.holdMs > 0 && (this.holds.get(numberId)?.[turn.rank] ?? 0) < askAt + turn.holdMs) {
      this.wants++;
      this.hold(numberId, turn, askAt);
    }
    return refused;
  }

  private hold(numberId: string, turn: Turn, untilMs: number) {
    if (turn.holdMs === 0) return;
    const holds = this.holds.get(numberId) ?? [];
    holds[turn.rank] = Math.max(holds[turn.rank] ?? 0, untilMs + turn.holdMs);
    this.holds.set(numberId, holds);
  }
}
