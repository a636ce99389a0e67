import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NearReservation, Pacer, Turn } from '#lib/domain/sends/dispatch/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

const TRIES = 50;

/**
 * A number's next free send slot as one item (`PACING#<phone number id>`): a reservation reads it, then moves
 * it past its slots with a write conditioned on the value it read, so concurrent invocations never take the
 * same slots. One read and one write per reservation (a block, or a shared send's chunk), not per message; a
 * reservation near refused (the number booked further ahead, or held by a better rank) reads only. The same
 * write keeps until when each rank's shared sends hold the number (`held_until_<rank>`; sending/lanes.ts).
 */
export class DynamoPacer implements Pacer {
  constructor(private readonly table: ServiceTable) {}

  async reserve(numberId: string, count: number, intervalMs: number, nowMs: number, turn?: Turn) {
    const booked = await this.book(numberId, count, intervalMs, nowMs, Number.POSITIVE_INFINITY, turn, false);
    return 'first' in booked ? booked.first : booked.freeAt;
  }

  reserveNear(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number, turn?: Turn) {
    return this.book(numberId, count, intervalMs, nowMs, horizonMs, turn, true);
  }

  private async book(
    numberId: string,
    count: number,
    intervalMs: number,
    nowMs: number,
    horizonMs: number,
    turn: Turn | undefined,
    givesWay: boolean,
  ): Promise<NearReservation> {
    const Key = { pk: keys.pacing(numberId), sk: SORT.pacing };
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const item = (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key, ConsistentRead: true }))).Item;
      const next = item ? Number(item.next_slot_ms) : undefined;
      const first = Math.max(next ?? 0, nowMs);
      // A better rank's hold still running at `nowMs`: a reservation near gives way to it.
      const better = givesWay && turn ? heldBefore(item, turn.rank).filter((until) => until > nowMs) : [];
      if (first - nowMs > horizonMs || better.length > 0) {
        const refused = { freeAt: first, ...(better.length > 0 && { heldUntil: Math.max(...better) }) };
        if (turn) await this.want(Key, item, turn, Math.max(first - horizonMs, refused.heldUntil ?? 0));
        return refused;
      }
      const end = first + count * intervalMs;
      const held = turn && turn.holdMs > 0 && Math.max(Number(item?.[`held_until_${turn.rank}`] ?? 0), end + turn.holdMs);
      try {
        await this.table.client.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key,
            UpdateExpression: `SET next_slot_ms = :next, entity = :entity${held ? ', #held = :held' : ''}`,
            ConditionExpression: next === undefined ? 'attribute_not_exists(pk)' : 'next_slot_ms = :read',
            ...(held && { ExpressionAttributeNames: { '#held': `held_until_${turn.rank}` } }),
            ExpressionAttributeValues: {
              ':next': end,
              ':entity': 'pacing',
              ...(next !== undefined && { ':read': next }),
              ...(held && { ':held': held }),
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

  /**
   * A shared send refused its turn still wants the number from its next ask (`askAt`): its rank's hold is moved
   * there, so worse ranks give way meanwhile. A write only when the hold would end before that.
   */
  private async want(Key: Record<string, string>, item: Record<string, unknown> | undefined, turn: Turn, askAt: number) {
    const until = askAt + turn.holdMs;
    if (turn.holdMs === 0 || Number(item?.[`held_until_${turn.rank}`] ?? 0) >= until) return;
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key,
          UpdateExpression: 'SET #held = :until',
          ConditionExpression: 'attribute_not_exists(#held) OR #held < :until',
          ExpressionAttributeNames: { '#held': `held_until_${turn.rank}` },
          ExpressionAttributeValues: { ':until': until },
        }),
      );
    } catch (error) {
      // Another ask of its rank held it as long already.
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }
}

/** The ends of the holds of the ranks better than `rank` on the pacing item. */
const heldBefore = (item: Record<string, unknown> | undefined, rank: number) =>
  Array.from({ length: rank }, (_, r) => Number(item?.[`held_until_${r}`] ?? 0));
