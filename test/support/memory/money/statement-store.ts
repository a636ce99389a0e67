import type { StatementSnapshot, StatementStore } from '#lib/domain/money/ports.ts';
import { copy } from '../copy.ts';

/** Closed statements in memory, each kept once as DynamoDB's conditional put keeps it, listed oldest first. */
export class MemoryStatementStore implements StatementStore {
  readonly kept = new Map<string, StatementSnapshot>();

  async get(clientId: number, month: string) {
    const kept = this.kept.get(`${clientId}|${month}`);
    return kept ? copy(kept) : null;
  }

  async list(clientId: number) {
    const months = [...this.kept.values()].filter((s) => s.client_id === clientId);
    return copy(months.sort((a, b) => a.month.localeCompare(b.month)));
  }

  async putOnce(snapshot: StatementSnapshot) {
    const id = `${snapshot.client_id}|${snapshot.month}`;
    if (!this.kept.has(id)) this.kept.set(id, copy(snapshot));
    return copy(this.kept.get(id)!);
  }
}
