import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NearReservation, Pacer } from '#lib/domain/ports/pacing.ts';
import type { ServiceTable } from './client.ts';
import { keys, SORT } from './table.ts';
import { isConditionalCheckFailure } from './transactions.ts';

const TRIES = 50;

/**
 * A number's next free send slot as one item (`PACING#<phone number id>`): a reservation reads it, then moves
 * it past its slots with a write conditioned on the value it read, so concurrent invocations never take the
 * same slots. One read and one write per reservation (a block, or a campaign's chunk), not per message; a
 * reservation near refused (the number booked further ahead) reads only.
 */
export class DynamoPacer implements Pacer {
  constructor(private readonly table: ServiceTable) {}

  async reserve(numberId: string, count: number, intervalMs: number, nowMs: number) {
    const booked = await this.book(numberId, count, intervalMs, nowMs, Number.POSITIVE_INFINITY);
    return 'first' in booked ? booked.first : booked.freeAt;
  }

  reserveNear(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number) {
    return this.book(numberId, count, intervalMs, nowMs, horizonMs);
  }

  private async book(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number): Promise<NearReservation> {
    const Key = { pk: keys.pacing(numberId), sk: SORT.pacing };
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const item = (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key, ConsistentRead: true }))).Item;
      const next = item ? Number(item.next_slot_ms) : undefined;
      const first = Math.max(next ?? 0, nowMs);
      if (first - nowMs > horizonMs) return { freeAt: first };
      try {
        await this.table.client.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key,
            UpdateExpression: 'SET next_slot_ms = :next, entity = :entity',
            ConditionExpression: next === undefined ? 'attribute_not_exists(pk)' : 'next_slot_ms = :read',
            ExpressionAttributeValues: {
              ':next': first + count * intervalMs,
              ':entity': 'pacing',
              ...(next !== undefined && { ':read': next }),
            },
          }),
        );
        return { first };
      } catch (error) {
        if (!isConditionalCheckFailure(error)) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
      }
    }
    throw new Error(`could not reserve send slots for ${numberId}`);
  }
}
