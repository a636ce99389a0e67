import type { KnownThroughput, ThroughputStore } from '#lib/domain/sends/dispatch/ports.ts';
import { copy } from '../copy.ts';

/** Throughput levels by number digits, as the DynamoDB store keeps them. */
export class MemoryThroughputStore implements ThroughputStore {
  readonly levels = new Map<string, KnownThroughput>();
  async get(digits: string) {
    return copy(this.levels.get(digits));
  }
  async put(digits: string, known: KnownThroughput) {
    this.levels.set(digits, copy(known));
  }
  async forget(digits: string) {
    this.levels.delete(digits);
  }
}
