import type { BudgetMonth, BudgetRelease, BudgetStore, ReservationWatch } from '#lib/domain/money/ports.ts';

/**
 * Budgets and each month's figures, as the table keeps them: a reservation checks and adds at once; what settles
 * is added by the stores that settle it (the send store's status and block settlements) through `move`.
 */
export class MemoryBudgetStore implements BudgetStore {
  readonly budgets = new Map<number, { monthly_micros: number; updated_at: string; currency?: string }>();
  readonly months = new Map<string, BudgetMonth>();
  /** Each reservation's watch by its send (decisions §30), written with it as the table's transaction does. */
  readonly watches = new Map<string, ReservationWatch>();
  async get(clientId: number) {
    return this.budgets.get(clientId) ?? null;
  }
  async set(clientId: number, monthlyMicros: number | null, at: string, currency?: string) {
    if (monthlyMicros === null) this.budgets.delete(clientId);
    else this.budgets.set(clientId, { monthly_micros: monthlyMicros, updated_at: at, ...(currency && { currency }) });
  }
  async month(clientId: number, month: string) {
    return { ...this.monthOf(clientId, month) };
  }
  async reserve(clientId: number, month: string, micros: number, limitMicros?: number, watch?: ReservationWatch) {
    // Read and added with no await between: the check and the reservation are one step, as the table's ADD is.
    const now = this.monthOf(clientId, month);
    const committed = now.reserved - now.released + now.spent;
    if (limitMicros !== undefined && committed + micros > limitMicros) return null;
    now.reserved += micros;
    if (watch) this.watches.set(watch.send_id, { ...watch });
    return committed + micros;
  }
  async release(clientId: number, month: string, micros: number) {
    this.monthOf(clientId, month).reserved -= micros;
  }
  /** A settlement's move, as the status path and block settlements add it in their transactions. */
  move(clientId: number, month: string, move: { spent?: number; released?: number }) {
    const known = this.monthOf(clientId, month);
    known.spent += move.spent ?? 0;
    known.released += move.released ?? 0;
  }
  settle(release: BudgetRelease | undefined) {
    if (release && release.micros > 0) this.move(release.client_id, release.month, { released: release.micros });
  }
  private monthOf(clientId: number, month: string) {
    const key = `${clientId}|${month}`;
    if (!this.months.has(key)) this.months.set(key, { reserved: 0, released: 0, spent: 0 });
    return this.months.get(key)!;
  }
}
