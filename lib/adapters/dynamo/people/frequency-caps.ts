import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type ClientFrequencyCap,
  countedOf,
  type FrequencyCap,
  type FrequencyCaps,
  hasRoom,
  type MarketingCounts,
  secondsOf,
  timesAfterGiveBack,
  timesAfterTake,
  windowSecondsOf,
} from '#lib/domain/people/frequency-caps.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { keys, SORT } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/**
 * A client's frequency cap (`CLIENT#<id>` / `FREQUENCY_CAP`) and each person's MARKETING count under it
 * (`MARKETING_COUNT#<client>#<p:digits | u:bsuid>` / `MARKETING_COUNT`: `at`, the times still in the window,
 * at most `max`; `v`, its version; `expires_at`, when its newest time leaves the window). docs/data-model.md.
 */
export class DynamoFrequencyCaps implements FrequencyCaps {
  constructor(private readonly table: ServiceTable) {}

  async get(clientId: number): Promise<ClientFrequencyCap | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SORT.frequencyCap }, ConsistentRead: true }),
    );
    return Item ? { marketing: Item.marketing as FrequencyCap, updated_at: String(Item.updated_at) } : null;
  }

  async put(clientId: number, marketing: FrequencyCap | null, at: string) {
    const Key = { pk: keys.client(clientId), sk: SORT.frequencyCap };
    if (!marketing) await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key }));
    else
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...Key,
            entity: 'frequency_cap',
            client_id: clientId,
            marketing: { max: marketing.max, days: marketing.days },
            updated_at: at,
          },
        }),
      );
  }
}

/** A person's count as read: its times and version (0: no item). */
interface Count {
  at: number[];
  v: number;
}

/** Tries of one take against concurrent takes of the same person; past them the message is not sent (never over the cap). */
const TRIES = 8;

const countKey = (clientId: number, personKey: string) => ({ pk: keys.marketingCount(clientId, personKey), sk: SORT.marketingCount });

export class DynamoMarketingCounts implements MarketingCounts {
  constructor(private readonly table: ServiceTable) {}

  /** The counts of these halves, read consistently: one GetItem for one, one BatchGetItem per 100 for more. */
  private async read(clientId: number, halves: string[]): Promise<Map<string, Count>> {
    const found = new Map<string, Count>();
    const unique = [...new Set(halves)];
    const items =
      unique.length === 1
        ? [
            (
              await this.table.client.send(
                new GetCommand({ TableName: this.table.name, Key: countKey(clientId, unique[0]), ConsistentRead: true }),
              )
            ).Item,
          ].filter((item) => item !== undefined)
        : await batchGet(
            this.table,
            unique.map((half) => countKey(clientId, half)),
            true,
          );
    for (const item of items) found.set(String(item.person), { at: (item.at ?? []) as number[], v: Number(item.v ?? 0) });
    return found;
  }

  async counted(clientId: number, people: string[][], cap: FrequencyCap, nowMs: number) {
    const counts = await this.read(clientId, people.flat());
    return people.map((halves) =>
      countedOf(
        halves.flatMap((half) => counts.get(half)?.at ?? []),
        cap,
        secondsOf(nowMs),
      ),
    );
  }

  async take(clientId: number, halves: string[], cap: FrequencyCap, nowMs: number) {
    const now = secondsOf(nowMs);
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const counts = await this.read(clientId, halves);
      if (
        !hasRoom(
          [...counts.values()].flatMap((c) => c.at),
          cap,
          now,
        )
      )
        return null;
      const own = counts.get(halves[0]) ?? { at: [], v: 0 };
      const at = timesAfterTake(own.at, cap, now);
      if (await this.write(clientId, halves[0], own, at, now + windowSecondsOf(cap))) return now;
    }
    return null;
  }

  async giveBack(clientId: number, halves: string[], cap: FrequencyCap, takenAt: number) {
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const own = (await this.read(clientId, [halves[0]])).get(halves[0]);
      if (!own?.at.includes(takenAt)) return;
      const at = timesAfterGiveBack(own.at, takenAt);
      if (await this.write(clientId, halves[0], own, at, Math.max(takenAt, ...at) + windowSecondsOf(cap))) return;
    }
  }

  /** The person's count replaced, if it is still the one read (its version): whether it was written. */
  private async write(clientId: number, half: string, read: Count, at: number[], expiresAt: number) {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...countKey(clientId, half), entity: 'marketing_count', person: half, at, v: read.v + 1, expires_at: expiresAt },
          ConditionExpression: read.v === 0 ? 'attribute_not_exists(pk)' : 'v = :v',
          ...(read.v !== 0 && { ExpressionAttributeValues: { ':v': read.v } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }
}
