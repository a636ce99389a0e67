import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TestDecision } from '#lib/domain/sends/ab/ab-send.ts';
import type { TestDecisions } from '#lib/domain/sends/ab/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/** The attribute path of a test's part of the send item (`ab.test.<field>`, docs/data-model.md). */
const NAMES = { '#ab': 'ab', '#test': 'test', '#f': '' };

/**
 * A test-first send's decision and its rest's release on the send item (decisions §33): each set once by a
 * conditional update (the first stays); a second decision reads the first back, consistently.
 */
export class DynamoTestDecisions implements TestDecisions {
  constructor(private readonly table: ServiceTable) {}

  async decide(sendId: string, decision: TestDecision) {
    if (await this.setOnce(sendId, 'decision', decision)) return decision;
    const { Item } = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: { pk: keys.send(sendId), sk: SORT.send },
        ProjectionExpression: '#ab.#test.#f',
        ExpressionAttributeNames: { ...NAMES, '#f': 'decision' },
        ConsistentRead: true,
      }),
    );
    const kept = (Item?.ab as { test?: { decision?: TestDecision } } | undefined)?.test?.decision;
    if (!kept) throw new Error(`send ${sendId} has no test to decide`);
    return kept;
  }

  async markRestReleased(sendId: string, at: string) {
    await this.setOnce(sendId, 'rest_released_at', at);
  }

  /** Sets `ab.test.<field>` unless it is set (or the send has no test): whether it was set now. */
  private async setOnce(sendId: string, field: 'decision' | 'rest_released_at', value: unknown) {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET #ab.#test.#f = :v',
          ConditionExpression: 'attribute_exists(#ab.#test) AND attribute_not_exists(#ab.#test.#f)',
          ExpressionAttributeNames: { ...NAMES, '#f': field },
          ExpressionAttributeValues: { ':v': value },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      return false;
    }
  }
}
