import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookConfig } from '#lib/domain/webhooks/webhook.ts';
import type { WebhookConfigStore } from '#lib/domain/webhooks/ports.ts';
import { keys, SORT } from '#lib/adapters/dynamo/table.ts';
import type { ServiceTable } from '../client.ts';
import { stripKeys } from '../queries.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

const SK = SORT.webhookConfig;

export class DynamoWebhookConfigStore implements WebhookConfigStore {
  constructor(private readonly table: ServiceTable) {}

  async get(clientId: number) {
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SK } }));
    return stripKeys<WebhookConfig>(result.Item);
  }

  /**
   * One UpdateItem, so concurrent first configurations cannot make two secrets: `if_not_exists` keeps the
   * existing secret and creation date, and `active` defaults to true only when the item is new.
   */
  async put(config: { client_id: number; url: string; active?: boolean }, newSecret: string) {
    const now = new Date().toISOString();
    const result = await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: { pk: keys.client(config.client_id), sk: SK },
        UpdateExpression:
          'SET client_id = :c, #url = :u, updated_at = :now, signing_secret = if_not_exists(signing_secret, :s), ' +
          'created_at = if_not_exists(created_at, :now), active = ' +
          (config.active === undefined ? 'if_not_exists(active, :true)' : ':a'),
        ExpressionAttributeNames: { '#url': 'url' },
        ExpressionAttributeValues: {
          ':c': config.client_id,
          ':u': config.url,
          ':now': now,
          ':s': newSecret,
          ...(config.active === undefined ? { ':true': true } : { ':a': config.active }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<WebhookConfig>(result.Attributes)!;
  }

  /** One conditional UpdateItem: the current secret becomes the previous one, with its end, as the new one is set. */
  async rotate(clientId: number, newSecret: string, previousUntil: string) {
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.client(clientId), sk: SK },
          UpdateExpression:
            'SET previous_secret = signing_secret, previous_secret_expires_at = :until, signing_secret = :s, updated_at = :now',
          ConditionExpression: 'attribute_exists(signing_secret)',
          ExpressionAttributeValues: { ':until': previousUntil, ':s': newSecret, ':now': new Date().toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<WebhookConfig>(result.Attributes);
    } catch (error) {
      if (isConditionalCheckFailure(error)) return null;
      throw error;
    }
  }
}
