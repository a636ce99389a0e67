import type { ReservationWatch } from '#lib/domain/money/ports.ts';
import type { ReservationWatches } from '#lib/domain/sends/operations/ports.ts';
import type { MemoryBudgetStore } from '../money/budget-store.ts';

/** As the DynamoDB adapter: the watches the budget store wrote with their reservations, due by time. */
export class MemoryReservationWatches implements ReservationWatches {
  constructor(private readonly budgets: MemoryBudgetStore) {}

  async due(now: string, limit: number) {
    return [...this.budgets.watches.values()]
      .filter((w) => w.due_at <= now)
      .sort((a, b) => a.due_at.localeCompare(b.due_at))
      .slice(0, limit)
      .map((w) => ({ ...w }));
  }

  async refile(watch: ReservationWatch, dueAt: string) {
    this.budgets.watches.set(watch.send_id, { ...watch, due_at: dueAt });
  }

  async forget(watch: ReservationWatch) {
    this.budgets.watches.delete(watch.send_id);
  }

  async returnUnrecorded(watch: ReservationWatch) {
    if (!this.budgets.watches.delete(watch.send_id)) return false;
    this.budgets.move(watch.client_id, watch.month, { released: watch.micros });
    return true;
  }
}
