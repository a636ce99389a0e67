import type { PriceLists } from '#lib/domain/money/ports.ts';
import type { PriceList } from '#lib/domain/money/pricing/price-list.ts';
import { copy } from '../copy.ts';

/** Clients' price lists as the table keeps them: by client and date, a list in force never replaced. */
export class MemoryPriceListStore implements PriceLists {
  readonly items = new Map<string, PriceList>();
  async lists(clientId: number) {
    return [...this.items.values()]
      .filter((list) => list.client_id === clientId)
      .sort((a, b) => a.effective_from.localeCompare(b.effective_from))
      .map((list) => copy(list));
  }
  async put(list: PriceList) {
    const key = `${list.client_id}|${list.effective_from}`;
    const stored = this.items.get(key);
    if (stored && stored.effective_from <= list.created_at.slice(0, 10)) return false;
    this.items.set(key, copy(list));
    return true;
  }
}
