/**
 * Write units as DynamoDB bills them (issue 54), counted by item kind over the run, and by partition key and by
 * item within each second: the hottest partition key and item of any second, and every key above DynamoDB's
 * 1,000 write units a second a partition in some second. Writes come in time order.
 */
export type ItemKind = 'latest' | 'counts' | 'ledger' | 'budget' | 'tier' | 'template';

export const ITEM_KINDS: Record<ItemKind, string> = {
  latest: '`SEND#…#P… / LATEST#…` (a block third’s latest item: its messages’ states)',
  counts: '`SEND#… / SEND#COUNTS#…` (a count shard)',
  ledger: '`LEDGER#w…#C…#… / DAY#…#…#<category>` (the ledger’s number day and category)',
  budget: '`BUDGET#…#… / BUDGET#…` (a budget shard)',
  tier: '`TIERS#… / MONTH#…` (a tier month shard)',
  template: '`TEMPLATE_FIGURES#…#… / DAY#…` (a template’s day: its figures, issue 56)',
};

/** The most a partition takes a second (DynamoDB's per-partition limit, in write units). */
export const PARTITION_UNITS = 1_000;

export class UnitMeter {
  readonly units: Record<ItemKind, number> = { latest: 0, counts: 0, ledger: 0, budget: 0, tier: 0, template: 0 };
  readonly writes: Record<ItemKind, number> = { latest: 0, counts: 0, ledger: 0, budget: 0, tier: 0, template: 0 };
  hottestKey = { key: '', units: 0 };
  hottestItem = { key: '', writes: 0 };
  /** Each kind's hottest partition key in any second: its units. */
  readonly hottestOfKind: Record<ItemKind, number> = { latest: 0, counts: 0, ledger: 0, budget: 0, tier: 0, template: 0 };
  readonly keysOver = new Set<string>();
  private second = Number.NaN;
  private byKey = new Map<string, { kind: ItemKind; units: number }>();
  private byItem = new Map<string, number>();

  add(kind: ItemKind, pk: string, sk: string, units: number, atMs: number) {
    const second = Math.floor(atMs / 1000);
    if (second !== this.second) this.close(second);
    this.units[kind] += units;
    this.writes[kind] += 1;
    const key = this.byKey.get(pk) ?? { kind, units: 0 };
    key.units += units;
    this.byKey.set(pk, key);
    const item = `${pk} / ${sk}`;
    this.byItem.set(item, (this.byItem.get(item) ?? 0) + 1);
  }

  /** The second's figures kept, and a new second begun. */
  close(next = Number.NaN) {
    for (const [pk, { kind, units }] of this.byKey) {
      if (units > this.hottestKey.units) this.hottestKey = { key: pk, units };
      this.hottestOfKind[kind] = Math.max(this.hottestOfKind[kind], units);
      if (units > PARTITION_UNITS) this.keysOver.add(pk);
    }
    for (const [item, writes] of this.byItem) if (writes > this.hottestItem.writes) this.hottestItem = { key: item, writes };
    this.byKey = new Map();
    this.byItem = new Map();
    this.second = next;
  }

  get total() {
    return Object.values(this.units).reduce((sum, units) => sum + units, 0);
  }
}
