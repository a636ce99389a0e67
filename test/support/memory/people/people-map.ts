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
import { copy } from '../copy.ts';

/** The people map as the table keeps it (decisions §28, §32): a record per half under its scope, with its teachers. */
export class MemoryPeopleMap implements PeopleMap {
  /** The keys each read asked for: a send reads its recipients' pairs once. */
  readonly reads: number[] = [];
  readonly records = new Map<string, PairRecord>();
  /** Keys asked for, a batch a call (the table reads a hundred a BatchGetItem); and records written. */
  readonly batches: number[] = [];
  writes = 0;

  private read(scope: string, keys: string[]) {
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += 100) this.batches.push(Math.min(100, unique.length - i));
    return new Map(
      unique.flatMap((key) => (this.records.has(`${scope}|${key}`) ? [[key, copy(this.records.get(`${scope}|${key}`)!)] as const] : [])),
    );
  }

  private write(scope: string, writes: PairWrite[]) {
    for (const { key, record } of writes) this.records.set(`${scope}|${key}`, copy(record));
    this.writes += writes.length;
    return writes.length;
  }

  async pairsOf(scope: string, keys: { phone?: string; user_id?: string }[], servedTo?: number) {
    this.reads.push(keys.length);
    const wanted = keys.flatMap((k) => [...(k.phone ? [`p:${k.phone}`] : []), ...(k.user_id ? [`u:${k.user_id}`] : [])]);
    const known = wanted.length === 0 ? new Map<string, PairRecord>() : this.read(scope, wanted);
    return new Map(
      [...known]
        .filter(([, r]) => servedTo === undefined || isServedTo(r, servedTo))
        .map(([key, r]): [string, Person] => [key, { phone: r.phone, user_id: r.user_id, ...(r.username && { username: r.username }) }]),
    );
  }

  async learn(scope: string, pairs: LearnedPair[]) {
    if (pairs.length === 0) return 0;
    return this.write(scope, learnedWrites(pairs, this.read(scope, keysOfPairs(pairs))));
  }

  async move(
    scope: string,
    from: { phone?: string; user_id?: string },
    to: { phone?: string; user_id?: string },
    at: string,
    taughtBy?: number,
  ) {
    const known = this.read(scope, keysOfMove(from, to));
    const more = keysOfMoveBase(from, known, taughtBy);
    if (more.length > 0) for (const [key, record] of this.read(scope, more)) known.set(key, record);
    this.write(scope, movedWrites(from, to, at, known, taughtBy));
  }

  /** A record as kept (for tests: its history). */
  recordOf(scope: string, key: string) {
    return this.records.get(`${scope}|${key}`);
  }
}
