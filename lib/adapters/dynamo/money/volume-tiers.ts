import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { VolumeTiers } from '#lib/domain/money/ports.ts';
import { tierPortfolioOf } from '#lib/domain/money/pricing/tiers.ts';
import type { DirectoryStore } from '#lib/domain/shared/ports.ts';
import { Cache } from '../../cache.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { VOLUME } from '../sends/send-items.ts';
import { keys, LEDGER_SHARDS } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/** How long a month's volumes, once read, price a portfolio's statuses: a tier's bounds are far apart. */
const KEPT_MS = 60_000;
/** The portfolios' months one container keeps. */
const KEPT_MONTHS = 1_000;

/**
 * A business portfolio's month's volume by market and category (decisions §26, §31), counted across its WABAs:
 * the status path adds to one of the portfolio's LEDGER_SHARDS month items as it charges (send-items.ts
 * monthVolumeUpdate), so this reads the shards and Meta's tier item in one BatchGetItem, kept a minute; Meta's
 * tier raises the count, never lowers it. A WABA's portfolio is the directory's, whose adapter keeps its reads.
 */
export class DynamoVolumeTiers implements VolumeTiers {
  private readonly kept: Cache<string, Map<string, number>>;

  constructor(
    private readonly table: ServiceTable,
    private readonly directory: Pick<DirectoryStore, 'getWaba'>,
    now: () => number = Date.now,
  ) {
    this.kept = new Cache({ maxEntries: KEPT_MONTHS, maxAgeMs: KEPT_MS, now });
  }

  async portfolioOf(wabaId: string) {
    return tierPortfolioOf(wabaId, await this.directory.getWaba(wabaId));
  }

  async monthVolumes(portfolio: string, month: string) {
    const known = this.kept.get(`${portfolio}|${month}`);
    if (known) return new Map(known);
    const items = await batchGet(this.table, [
      ...Array.from({ length: LEDGER_SHARDS }, (_, shard) => ({ pk: keys.tierCount(portfolio, shard), sk: keys.ledgerMonth(month) })),
      { pk: keys.volumeTiers(portfolio), sk: keys.ledgerMonth(month) },
    ]);
    const counted = new Map<string, number>();
    const reached = new Map<string, number>();
    for (const item of items)
      for (const [name, value] of Object.entries(item)) {
        if (!name.startsWith(VOLUME)) continue;
        const into = item.entity === 'volume_tiers' ? reached : counted;
        const key = name.slice(VOLUME.length);
        into.set(key, (into.get(key) ?? 0) + Number(value));
      }
    for (const [key, volume] of reached) counted.set(key, Math.max(counted.get(key) ?? 0, volume));
    this.kept.set(`${portfolio}|${month}`, counted);
    return new Map(counted);
  }

  async reachedTier(wabaId: string, month: string, volumeKey: string, volume: number) {
    const portfolio = await this.portfolioOf(wabaId);
    this.kept.delete(`${portfolio}|${month}`);
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.volumeTiers(portfolio), sk: keys.ledgerMonth(month) },
          UpdateExpression: 'SET entity = :entity, #v = :v',
          ConditionExpression: 'attribute_not_exists(#v) OR #v < :v',
          ExpressionAttributeNames: { '#v': `${VOLUME}${volumeKey}` },
          ExpressionAttributeValues: { ':entity': 'volume_tiers', ':v': volume },
        }),
      );
    } catch (error) {
      // Meta's duplicates and late updates: the month already reached as far.
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }
}
