import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PriceLists } from '#lib/domain/money/ports.ts';
import type { PriceList } from '#lib/domain/money/pricing/price-list.ts';
import { dayOf } from '#lib/domain/shared/calendar.ts';
import { Cache } from '../../cache.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/**
 * Price lists under their client (decisions §27): one item a list, `PRICE_LIST#<effective_from>`, so a Query
 * reads a client's lists oldest first. A put is a conditional write: it replaces a list of the same date only
 * while that list is not yet in force (its `effective_from` after today), so a list in force never changes.
 */
export class DynamoPriceListStore implements PriceLists {
  constructor(private readonly table: ServiceTable) {}

  async lists(clientId: number) {
    const lists: PriceList[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.client(clientId), ':prefix': SORT.priceListPrefix },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) lists.push(listOf(item));
      start = page.LastEvaluatedKey;
    } while (start);
    return lists;
  }

  async put(list: PriceList) {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            pk: keys.client(list.client_id),
            sk: keys.priceList(list.effective_from),
            entity: 'price_list',
            client_id: list.client_id,
            effective_from: list.effective_from,
            currency: list.currency,
            markup_percent: list.markup_percent,
            max_price_markup_percent: list.max_price_markup_percent,
            prices: list.prices,
            exchange_rates: list.exchange_rates,
            created_at: list.created_at,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR effective_from > :today',
          ExpressionAttributeValues: { ':today': dayOf(list.created_at) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }
}

function listOf(item: Record<string, unknown>): PriceList {
  return {
    client_id: Number(item.client_id),
    effective_from: String(item.effective_from),
    currency: String(item.currency),
    ...(typeof item.markup_percent === 'number' && { markup_percent: item.markup_percent }),
    ...(typeof item.max_price_markup_percent === 'number' && { max_price_markup_percent: item.max_price_markup_percent }),
    ...(item.prices !== undefined && { prices: item.prices as PriceList['prices'] }),
    ...(item.exchange_rates !== undefined && { exchange_rates: item.exchange_rates as PriceList['exchange_rates'] }),
    created_at: String(item.created_at),
  };
}

/** How long the status path prices with a client's lists as read: a list put today applies within this. */
const LISTS_KEPT_MS = 60_000;
/** The clients one container keeps the lists of. */
const KEPT_CLIENTS = 1_000;

/**
 * A client's price lists as the status path reads them, kept a minute per client: a batch of statuses prices
 * its messages with one read a client a minute, not one a batch (decisions §27).
 */
export class KeptPriceLists implements Pick<PriceLists, 'lists'> {
  private readonly kept: Cache<number, Promise<PriceList[]>>;

  constructor(
    private readonly store: Pick<PriceLists, 'lists'>,
    now: () => number = Date.now,
  ) {
    this.kept = new Cache({ maxEntries: KEPT_CLIENTS, maxAgeMs: LISTS_KEPT_MS, now });
  }

  lists(clientId: number) {
    return this.kept.getOrRead(clientId, () => this.store.lists(clientId));
  }
}
