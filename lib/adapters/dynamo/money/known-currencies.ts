import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { KnownCurrencies } from '#lib/domain/money/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';

/**
 * Each WABA's billing currency and Meta's `timezone_id` as last learned from Graph (decisions §30, §31): one item
 * beside the WABA's own (`WABA#<id>` / `BILLING_CURRENCY`), so the status path prices and dates without Graph. An
 * item kept before the timezone was has none.
 */
export class DynamoKnownCurrencies implements KnownCurrencies {
  constructor(private readonly table: ServiceTable) {}

  private key(wabaId: string) {
    return { pk: keys.waba(wabaId), sk: SORT.billingCurrency };
  }

  async get(wabaId: string) {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: this.key(wabaId) }));
    if (!Item) return null;
    return {
      currency: String(Item.currency),
      ...(typeof Item.timezone_id === 'string' && { timezone_id: Item.timezone_id }),
      learned_at: String(Item.learned_at),
    };
  }

  async put(wabaId: string, currency: string, learnedAt: string, timezoneId?: string) {
    const item = { ...this.key(wabaId), entity: 'billing_currency', waba_id: wabaId, currency, learned_at: learnedAt };
    await this.table.client.send(
      new PutCommand({ TableName: this.table.name, Item: { ...item, ...(timezoneId !== undefined && { timezone_id: timezoneId }) } }),
    );
  }
}
