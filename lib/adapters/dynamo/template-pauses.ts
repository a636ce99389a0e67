import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TemplatePause, TemplatePauses } from '#lib/domain/ports/consent.ts';
import { PAUSE_PERIODS_MS } from '#lib/domain/sending/pauses.ts';
import type { ServiceTable } from './client.ts';
import { keys, SORT } from './table.ts';
import { isConditionalCheckFailure } from './transactions.ts';

/**
 * Templates Meta paused or disabled (decisions §25): one item a template, read by the dispatcher at each slice
 * of a job of it, written by Meta's status events and by a 132015 refusal. A pause in force is never moved.
 */
export class DynamoTemplatePauses implements TemplatePauses {
  constructor(private readonly table: ServiceTable) {}

  private key(wabaId: string, templateId: string) {
    return { pk: keys.templatePause(wabaId, templateId), sk: SORT.templatePause };
  }

  async get(wabaId: string, templateId: string): Promise<TemplatePause | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.key(wabaId, templateId), ConsistentRead: true }),
    );
    if (!Item || Item.state === 'active') return null;
    return {
      state: Item.state,
      since_ms: Number(Item.since_ms),
      ...(Item.until_ms !== undefined && { until_ms: Number(Item.until_ms) }),
      pauses: Number(Item.pauses ?? 0),
    };
  }

  /** The first pause lasts 3 hours, the next 6 (Meta's periods): from `atMs`, unless a pause is in force. */
  async pause(wabaId: string, templateId: string, atMs: number) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const known = await this.table.client.send(
        new GetCommand({ TableName: this.table.name, Key: this.key(wabaId, templateId), ConsistentRead: true }),
      );
      const item = known.Item;
      if (item?.state === 'disabled') return this.get(wabaId, templateId) as Promise<TemplatePause>;
      if (item?.state === 'paused' && Number(item.until_ms) > atMs) return (await this.get(wabaId, templateId))!;
      const pauses = Number(item?.pauses ?? 0);
      const until = atMs + PAUSE_PERIODS_MS[Math.min(pauses, PAUSE_PERIODS_MS.length - 1)];
      try {
        await this.table.client.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: this.key(wabaId, templateId),
            UpdateExpression: 'SET #state = :paused, since_ms = :since, until_ms = :until, pauses = :pauses, entity = :entity',
            ConditionExpression: item ? 'pauses = :was' : 'attribute_not_exists(pk)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':paused': 'paused',
              ':since': atMs,
              ':until': until,
              ':pauses': pauses + 1,
              ':entity': 'template_pause',
              ...(item && { ':was': pauses }),
            },
          }),
        );
        return { state: 'paused' as const, since_ms: atMs, until_ms: until, pauses: pauses + 1 };
      } catch (error) {
        if (!isConditionalCheckFailure(error)) throw error;
      }
    }
    return (await this.get(wabaId, templateId))!;
  }

  async resume(wabaId: string, templateId: string) {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: this.key(wabaId, templateId),
          UpdateExpression: 'SET #state = :active REMOVE until_ms',
          ConditionExpression: '#state = :paused',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':active': 'active', ':paused': 'paused' },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async disable(wabaId: string, templateId: string, atMs: number) {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: this.key(wabaId, templateId),
        UpdateExpression: 'SET #state = :disabled, since_ms = :since, entity = :entity REMOVE until_ms',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':disabled': 'disabled', ':since': atMs, ':entity': 'template_pause' },
      }),
    );
  }
}
