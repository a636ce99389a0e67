import type { Suppression, SuppressionStore } from '#lib/domain/people/ports.ts';
import { suppressionKey } from '#lib/domain/people/suppression.ts';
import { copy } from '../copy.ts';

/** Suppression lists by client, as the table keeps them: the first entry of a number stays. */
export class MemorySuppressionStore implements SuppressionStore {
  readonly lists = new Map<number, Map<string, Suppression>>();
  /** Numbers asked for, a batch a call (the table reads a hundred a BatchGetItem). */
  readonly batches: number[] = [];
  private listOf(clientId: number) {
    if (!this.lists.has(clientId)) this.lists.set(clientId, new Map());
    return this.lists.get(clientId)!;
  }
  async add(clientId: number, entry: Suppression, key = suppressionKey(entry)) {
    const list = this.listOf(clientId);
    if (list.has(key)) return false;
    list.set(key, copy(entry));
    return true;
  }
  async remove(clientId: number, key: string) {
    return this.listOf(clientId).delete(key);
  }
  async get(clientId: number, keys: string[]) {
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += 100) this.batches.push(Math.min(100, unique.length - i));
    const list = this.listOf(clientId);
    return new Map(unique.flatMap((k) => (list.has(k) ? [[k, copy(list.get(k)!)] as const] : [])));
  }
  async list(clientId: number, page: { offset: number; size: number }) {
    const entries = [...this.listOf(clientId).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
    return { entries: entries.slice(page.offset, page.offset + page.size).map(copy), total: entries.length };
  }
}
