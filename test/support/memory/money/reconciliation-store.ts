import type { CostGap, ReconciliationStore } from '#lib/domain/money/ports.ts';
import { copy } from '../copy.ts';

export class MemoryReconciliationStore implements ReconciliationStore {
  readonly unread = new Map<string, string[]>();
  /** Each client's gaps of a day, by `<day>|<client>`. */
  readonly found = new Map<string, CostGap[]>();

  async failedDays(wabaId: string) {
    return copy(this.unread.get(wabaId) ?? []);
  }
  async setFailedDays(wabaId: string, days: string[]) {
    if (days.length === 0) this.unread.delete(wabaId);
    else this.unread.set(wabaId, copy(days));
  }
  async putGaps(clientId: number, day: string, gaps: CostGap[]) {
    if (gaps.length === 0) this.found.delete(`${day}|${clientId}`);
    else this.found.set(`${day}|${clientId}`, copy(gaps));
  }
  async gaps(from: string, to: string) {
    return copy(
      [...this.found.values()]
        .flat()
        .filter((g) => g.day >= from && g.day <= to)
        .sort((a, b) => a.day.localeCompare(b.day) || a.client_id - b.client_id),
    );
  }
}
