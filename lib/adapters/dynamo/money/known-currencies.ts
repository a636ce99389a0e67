import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { KnownCurrencies } from '#lib/domain/money/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';

/**
 * Each WABA's billing currency as last learned from Graph (decisions §30): one item beside the WABA's own
 * (`WABA#<id>` / `BILLING_CURRENCY`), so the status path prices without Graph.
 */
export class DynamoKnownCurrencies implements KnownCurrencies {
  constructor(private readonly table: ServiceTable) {}

  private key(wabaId: string) {
    return { pk: keys.waba(wabaId), sk: SORT.billingCurrency };
  }

  async get(wabaId: string) {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: this.key(wabaId) }));
    return Item ? { currency: String(Item.currency), learned_at: String(Item.learned_at) } : null;
  }

  async put(wabaId: string, currency: string, learnedAt: string) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...this.key(wabaId), entity: 'billing_currency', waba_id: wabaId, currency, learned_at: learnedAt },
      }),
    );
  }
}
