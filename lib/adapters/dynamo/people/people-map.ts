import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  isServedTo,
  type LearnedPair,
  type PairRecord,
  type PairWrite,
  keysOfMove,
  keysOfMoveBase,
  keysOfPairs,
  learnedWrites,
  movedWrites,
} from '#lib/domain/people/people-map.ts';
import type { Person } from '#lib/domain/people/person.ts';
import type { PeopleMap } from '#lib/domain/people/ports.ts';
import { Cache } from '../../cache.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { keys, SORT } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/** Pairs this process has seen in the map: a campaign's statuses of a known pair neither read nor write. */
const SEEN_KEPT = 100_000;
/** Writes of one learn at once. */
const WRITES_AT_ONCE = 16;

/**
 * The people map on the table (decisions §28): an item a half of a person (`IDENTITY#<scope>#p:<digits>`,
 * `IDENTITY#<scope>#u:<bsuid>`), each naming the person's current pair, with the pairs it had before as its
 * history and the clients whose numbers showed it (`taught_by`, decisions §32: a client is served only those;
 * an item written before has none and is served to no client). Learning reads the batch's halves in one
 * BatchGetItem a hundred and writes only what is new or changed, each write conditioned on what it read; pairs
 * already seen by this process, for the same client, are skipped before any read, so a campaign's statuses of
 * known people cost nothing here.
 */
export class DynamoPeopleMap implements PeopleMap {
  /** `<scope>|<client>|<phone>|<user_id>` → the username known with it ('' for none). */
  private readonly seen = new Cache<string, string>({ maxEntries: SEEN_KEPT, maxAgeMs: Number.POSITIVE_INFINITY });

  constructor(private readonly table: ServiceTable) {}

  private key(scope: string, half: string) {
    return { pk: keys.identity(scope, half), sk: SORT.identity };
  }

  private async read(scope: string, halves: string[]): Promise<Map<string, PairRecord>> {
    const unique = [...new Set(halves)];
    if (unique.length === 0) return new Map();
    const items = await batchGet(
      this.table,
      unique.map((half) => this.key(scope, half)),
    );
    return new Map(items.map((item) => [String(item.half), recordOf(item)]));
  }

  /** Each write conditioned on what was read; one that lost to another writer is left to it. How many were made. */
  private async write(scope: string, writes: PairWrite[]) {
    let written = 0;
    for (let i = 0; i < writes.length; i += WRITES_AT_ONCE) {
      const done = await Promise.all(
        writes.slice(i, i + WRITES_AT_ONCE).map(async ({ key, record, previous }) => {
          try {
            await this.table.client.send(
              new PutCommand({
                TableName: this.table.name,
                Item: { ...this.key(scope, key), entity: 'identity', half: key, ...record },
                ...conditionOn(previous),
              }),
            );
            return 1;
          } catch (error) {
            if (isConditionalCheckFailure(error)) return 0;
            throw error;
          }
        }),
      );
      written += done.reduce((a: number, b: number) => a + b, 0);
    }
    return written;
  }

  private seenKey = (scope: string, pair: LearnedPair) => `${scope}|${pair.taught_by ?? ''}|${pair.phone}|${pair.user_id}`;

  async pairsOf(scope: string, wanted: { phone?: string; user_id?: string }[], servedTo?: number) {
    const halves = wanted.flatMap((k) => [...(k.phone ? [`p:${k.phone}`] : []), ...(k.user_id ? [`u:${k.user_id}`] : [])]);
    const known = await this.read(scope, halves);
    return new Map(
      [...known]
        .filter(([, r]) => servedTo === undefined || isServedTo(r, servedTo))
        .map(([key, r]): [string, Person] => [key, { phone: r.phone, user_id: r.user_id, ...(r.username && { username: r.username }) }]),
    );
  }

  async learn(scope: string, pairs: LearnedPair[]) {
    const fresh = pairs.filter((pair) => {
      const username = this.seen.get(this.seenKey(scope, pair));
      return username === undefined || (pair.username !== undefined && pair.username !== username);
    });
    if (fresh.length === 0) return 0;
    const known = await this.read(scope, keysOfPairs(fresh));
    const writes = learnedWrites(fresh, known);
    const written = await this.write(scope, writes);
    // A write lost to another writer (another client's teaching, say) is tried again with the pair's next news.
    if (written < writes.length) return written;
    for (const pair of fresh) this.seen.set(this.seenKey(scope, pair), pair.username ?? known.get(`p:${pair.phone}`)?.username ?? '');
    return written;
  }

  async move(
    scope: string,
    from: { phone?: string; user_id?: string },
    to: { phone?: string; user_id?: string },
    at: string,
    taughtBy?: number,
  ) {
    // Moves are rare: what this process has seen may be old now.
    this.seen.clear();
    const known = await this.read(scope, keysOfMove(from, to));
    const more = keysOfMoveBase(from, known, taughtBy);
    if (more.length > 0) for (const [key, record] of await this.read(scope, more)) known.set(key, record);
    await this.write(scope, movedWrites(from, to, at, known, taughtBy));
  }
}

/**
 * A write's condition: the item as it was read, its time and how many clients it named (they only grow while
 * its pair stays), so two clients teaching one pair at once never drop each other; or no item at all.
 */
function conditionOn(previous: PairRecord | undefined) {
  if (!previous) return { ConditionExpression: 'attribute_not_exists(pk)' };
  const taught = previous.taught_by;
  return {
    ConditionExpression: taught ? '#at = :at AND size(#by) = :n' : '#at = :at AND attribute_not_exists(#by)',
    ExpressionAttributeNames: { '#at': 'at', '#by': 'taught_by' },
    ExpressionAttributeValues: { ':at': previous.at, ...(taught && { ':n': taught.length }) },
  };
}

function recordOf(item: Record<string, unknown>): PairRecord {
  return {
    phone: String(item.phone),
    user_id: String(item.user_id),
    ...(typeof item.username === 'string' && { username: item.username }),
    at: String(item.at),
    ...(Array.isArray(item.history) && { history: item.history as PairRecord['history'] }),
    ...(Array.isArray(item.taught_by) && { taught_by: item.taught_by.map(Number) }),
  };
}
