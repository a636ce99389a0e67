import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MarketingOnboardings, MarketingOnboardingState } from '#lib/domain/sends/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';

/**
 * Each WABA's onboarding to the Marketing Messages API (decisions §28): one item beside the WABA's own
 * (`WABA#<id>` / `MM_ONBOARDING`), written by Meta's `MM_LITE_TERMS_SIGNED` webhook and by a send that read
 * Graph's `marketing_messages_onboarding_status`.
 */
export class DynamoMarketingOnboardings implements MarketingOnboardings {
  constructor(private readonly table: ServiceTable) {}

  private key(wabaId: string) {
    return { pk: keys.waba(wabaId), sk: SORT.mmOnboarding };
  }

  async get(wabaId: string): Promise<MarketingOnboardingState | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: this.key(wabaId) }));
    if (!Item) return null;
    return { onboarded: Item.onboarded === true, source: Item.source === 'webhook' ? 'webhook' : 'graph', at: String(Item.at) };
  }

  async put(wabaId: string, state: MarketingOnboardingState) {
    await this.table.client.send(
      new PutCommand({ TableName: this.table.name, Item: { ...this.key(wabaId), entity: 'mm_onboarding', waba_id: wabaId, ...state } }),
    );
  }
}
