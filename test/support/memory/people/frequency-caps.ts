import {
  type ClientFrequencyCap,
  countedOf,
  type FrequencyCap,
  type FrequencyCaps,
  hasRoom,
  type MarketingCounts,
  secondsOf,
  timesAfterGiveBack,
  timesAfterTake,
} from '#lib/domain/people/frequency-caps.ts';
import { copy } from '../copy.ts';

export class MemoryFrequencyCaps implements FrequencyCaps {
  readonly caps = new Map<number, ClientFrequencyCap>();

  async get(clientId: number) {
    return copy(this.caps.get(clientId) ?? null);
  }

  async put(clientId: number, marketing: FrequencyCap | null, at: string) {
    if (marketing) this.caps.set(clientId, { marketing: copy(marketing), updated_at: at });
    else this.caps.delete(clientId);
  }
}

/**
 * Each person's count as the table keeps it: its times and version, written only over the version read. Every
 * read and write yields first, so takes of one person at once interleave as two dispatchers' do.
 */
export class MemoryMarketingCounts implements MarketingCounts {
  readonly counts = new Map<string, { at: number[]; v: number }>();
  /** Writes refused because the count moved since it was read (the race the version condition stops). */
  conflicts = 0;
  writes = 0;

  private keyOf = (clientId: number, half: string) => `${clientId}|${half}`;

  private async read(clientId: number, half: string) {
    await Promise.resolve();
    return copy(this.counts.get(this.keyOf(clientId, half)) ?? { at: [], v: 0 });
  }

  private async write(clientId: number, half: string, read: { v: number }, at: number[]) {
    await Promise.resolve();
    const key = this.keyOf(clientId, half);
    if ((this.counts.get(key)?.v ?? 0) !== read.v) {
      this.conflicts++;
      return false;
    }
    this.counts.set(key, { at, v: read.v + 1 });
    this.writes++;
    return true;
  }

  async counted(clientId: number, people: string[][], cap: FrequencyCap, nowMs: number) {
    const counts = await Promise.all(people.map((halves) => Promise.all(halves.map((half) => this.read(clientId, half)))));
    return counts.map((halves) =>
      countedOf(
        halves.flatMap((c) => c.at),
        cap,
        secondsOf(nowMs),
      ),
    );
  }

  async take(clientId: number, halves: string[], cap: FrequencyCap, nowMs: number) {
    const now = secondsOf(nowMs);
    for (let attempt = 0; attempt < 8; attempt++) {
      const counts = await Promise.all(halves.map((half) => this.read(clientId, half)));
      if (
        !hasRoom(
          counts.flatMap((c) => c.at),
          cap,
          now,
        )
      )
        return null;
      if (await this.write(clientId, halves[0], counts[0], timesAfterTake(counts[0].at, cap, now))) return now;
    }
    return null;
  }

  async giveBack(clientId: number, halves: string[], _cap: FrequencyCap, takenAt: number) {
    for (let attempt = 0; attempt < 8; attempt++) {
      const own = await this.read(clientId, halves[0]);
      if (!own.at.includes(takenAt)) return;
      if (await this.write(clientId, halves[0], own, timesAfterGiveBack(own.at, takenAt))) return;
    }
  }
}
