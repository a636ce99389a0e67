import type { StatementSnapshot, StatementStore } from '#lib/domain/money/ports.ts';
import { copy } from '../copy.ts';

/** Closed statements in memory, each kept once as DynamoDB's conditional put keeps it; the last one by month. */
export class MemoryStatementStore implements StatementStore {
  readonly kept = new Map<string, StatementSnapshot>();

  async get(clientId: number, month: string) {
    const kept = this.kept.get(`${clientId}|${month}`);
    return kept ? copy(kept) : null;
  }

  /** How many times `latest` was asked (a read of a month asks it at most once). */
  latestReads = 0;

  async latest(clientId: number) {
    this.latestReads += 1;
    const months = [...this.kept.values()].filter((s) => s.client_id === clientId);
    const last = months.sort((a, b) => a.month.localeCompare(b.month)).at(-1);
    return last ? copy(last) : null;
  }

  async putOnce(snapshot: StatementSnapshot) {
    const id = `${snapshot.client_id}|${snapshot.month}`;
    if (!this.kept.has(id)) this.kept.set(id, copy(snapshot));
    return copy(this.kept.get(id)!);
  }
}
