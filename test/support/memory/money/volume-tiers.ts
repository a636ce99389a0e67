import type { VolumeTiers } from '#lib/domain/money/ports.ts';
import { tierPortfolioOf } from '#lib/domain/money/pricing/tiers.ts';
import type { DirectoryStore } from '#lib/domain/shared/ports.ts';
import type { MemorySendTable } from '../sends/send-table.ts';

/**
 * A portfolio's month's volumes as the DynamoDB store reads them: the status path's count, raised by Meta's tier.
 * Without a directory every WABA counts alone, under its own id.
 */
export class MemoryVolumeTiers implements VolumeTiers {
  private readonly reached = new Map<string, number>();

  constructor(
    private readonly sends: Pick<MemorySendTable, 'monthVolumes'>,
    private readonly directory?: Pick<DirectoryStore, 'getWaba'>,
  ) {}

  async portfolioOf(wabaId: string) {
    return tierPortfolioOf(wabaId, this.directory ? await this.directory.getWaba(wabaId) : null);
  }

  async monthVolumes(portfolio: string, month: string) {
    const volumes = new Map<string, number>();
    const prefix = `${portfolio}|${month}|`;
    for (const source of [this.sends.monthVolumes, this.reached])
      for (const [key, volume] of source)
        if (key.startsWith(prefix)) volumes.set(key.slice(prefix.length), Math.max(volumes.get(key.slice(prefix.length)) ?? 0, volume));
    return volumes;
  }

  async reachedTier(wabaId: string, month: string, volumeKey: string, volume: number) {
    const key = `${await this.portfolioOf(wabaId)}|${month}|${volumeKey}`;
    this.reached.set(key, Math.max(this.reached.get(key) ?? 0, volume));
  }
}
