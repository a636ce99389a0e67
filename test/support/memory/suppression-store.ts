import type { Suppression, SuppressionStore } from '#lib/domain/ports/consent.ts';
import { copy } from './copy.ts';

/** Suppression lists by client, as the table keeps them: the first entry of a number stays. */
export class MemorySuppressionStore implements SuppressionStore {
  readonly lists = new Map<number, Map<string, Suppression>>();
  /** Numbers asked for, a batch a call (the table reads a hundred a BatchGetItem). */
  readonly batches: number[] = [];
  private listOf(clientId: number) {
    if (!this.lists.has(clientId)) this.lists.set(clientId, new Map());
    return this.lists.get(clientId)!;
  }
  async add(clientId: number, entry: Suppression) {
    const list = this.listOf(clientId);
    if (list.has(entry.phone)) return false;
    list.set(entry.phone, copy(entry));
    return true;
  }
  async remove(clientId: number, phone: string) {
    return this.listOf(clientId).delete(phone);
  }
  async get(clientId: number, phones: string[]) {
    this.batches.push(phones.length);
    const list = this.listOf(clientId);
    return new Map(phones.flatMap((p) => (list.has(p) ? [[p, copy(list.get(p)!)] as const] : [])));
  }
  async list(clientId: number, page: { offset: number; size: number }) {
    const entries = [...this.listOf(clientId).values()].sort((a, b) => a.phone.localeCompare(b.phone));
    return { entries: entries.slice(page.offset, page.offset + page.size).map(copy), total: entries.length };
  }
}
