import type { BudgetStore } from '#lib/domain/ports/costs.ts';

/** Budgets and each month's reservations, as the table keeps them: a reservation checks and adds at once. */
export class MemoryBudgetStore implements BudgetStore {
  readonly budgets = new Map<number, { monthly_micros: number; updated_at: string }>();
  readonly months = new Map<string, number>();
  async get(clientId: number) {
    return this.budgets.get(clientId) ?? null;
  }
  async set(clientId: number, monthlyMicros: number | null, at: string) {
    if (monthlyMicros === null) this.budgets.delete(clientId);
    else this.budgets.set(clientId, { monthly_micros: monthlyMicros, updated_at: at });
  }
  async reserved(clientId: number, month: string) {
    return this.months.get(`${clientId}|${month}`) ?? 0;
  }
  async reserve(clientId: number, month: string, micros: number, limitMicros: number) {
    // Read and added with no await between: the check and the reservation are one step, as the table's ADD is.
    const now = this.months.get(`${clientId}|${month}`) ?? 0;
    if (now + micros > limitMicros) return null;
    this.months.set(`${clientId}|${month}`, now + micros);
    return now + micros;
  }
  async release(clientId: number, month: string, micros: number) {
    this.months.set(`${clientId}|${month}`, (await this.reserved(clientId, month)) - micros);
  }
}
