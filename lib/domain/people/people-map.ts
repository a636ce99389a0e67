import type { Person } from './person.ts';
import type { DirectoryStore } from '../shared/ports.ts';

/**
 * Who is who (decisions §28): a phone number and a BSUID are the same person within a business portfolio, so
 * the pairs Meta's webhooks show are kept per portfolio (the scope), and per WABA where the directory knows no
 * portfolio for it.
 */

/**
 * The people map's scope of a WABA: its business portfolio's id where the directory knows it, else `waba:<id>`.
 * The directory's adapter keeps the WABAs it read (DynamoDirectoryStore), so a batch of statuses reads each once.
 */
export async function peopleMapScopeOf(wabaId: string, directory: Pick<DirectoryStore, 'getWaba'>): Promise<string> {
  const waba = await directory.getWaba(wabaId);
  return waba?.business_id ? waba.business_id : `waba:${wabaId}`;
}

/** The key of a person's half in `PeopleMap.pairsOf`'s answer: `p:<digits>` or `u:<bsuid>`. */
export const pairKeyOf = (half: { phone?: string; user_id?: string }) => (half.phone ? `p:${half.phone}` : `u:${half.user_id}`);

/** A person as the map knows them: the halves given, completed by the pair of either half. */
export function knownPerson(person: Person, pairs: Map<string, Person>): Person {
  const pair = (person.phone && pairs.get(`p:${person.phone}`)) || (person.user_id && pairs.get(`u:${person.user_id}`)) || undefined;
  return {
    ...(pair ?? {}),
    ...Object.fromEntries(Object.entries(person).filter(([, value]) => value !== undefined)),
  };
}

/** What the map keeps under each half of a pair (`p:<digits>` and `u:<bsuid>`): the person's current halves. */
export interface PairRecord {
  phone: string;
  user_id: string;
  username?: string;
  /** When Meta said so (the status's or the message's time). */
  at: string;
  /** The pairs this half had before, the latest last (at most HISTORY_KEPT). */
  history?: { phone: string; user_id: string; until: string }[];
  /**
   * The clients whose own numbers' traffic showed this pair (decisions §32): the map serves it to them only. A
   * record kept before this was written has none and is served to no client, until a client's number shows the
   * pair again.
   */
  taught_by?: number[];
}

/** A pair as a webhook showed it, and the client whose number it reached (none: a pair no client is served). */
export interface LearnedPair {
  phone: string;
  user_id: string;
  username?: string;
  at: string;
  taught_by?: number;
}

/** Whether the map may answer a client with this record: only a pair its own numbers' traffic showed (§32). */
export const isServedTo = (record: { taught_by?: number[] }, clientId: number) => record.taught_by?.includes(clientId) ?? false;

/** A write of the map: the record under a key, conditioned on what was read there (`previous`, or nothing). */
export interface PairWrite {
  key: string;
  record: PairRecord;
  previous?: PairRecord;
}

const HISTORY_KEPT = 10;

const samePair = (record: PairRecord | undefined, pair: { phone: string; user_id: string }) =>
  record !== undefined && record.phone === pair.phone && record.user_id === pair.user_id;

/** The clients a record is taught by, with these: a changed pair is known only to those who showed it. */
function teachersOf(previous: PairRecord | undefined, pair: { phone: string; user_id: string }, teachers: Iterable<number>) {
  const taught = new Set([...(samePair(previous, pair) ? (previous?.taught_by ?? []) : []), ...teachers]);
  return taught.size > 0 ? { taught_by: [...taught] } : {};
}

/** The record a key takes for a pair: the old pair goes to its history when it differs. */
function nextRecord(
  previous: PairRecord | undefined,
  pair: { phone: string; user_id: string; username?: string },
  at: string,
  teachers: Iterable<number>,
): PairRecord {
  const same = samePair(previous, pair);
  const history =
    previous && !same ? [...(previous.history ?? []), { phone: previous.phone, user_id: previous.user_id, until: at }] : previous?.history;
  const username = pair.username ?? (same ? previous?.username : undefined);
  return {
    phone: pair.phone,
    user_id: pair.user_id,
    ...(username && { username }),
    at,
    ...(history && history.length > 0 && { history: history.slice(-HISTORY_KEPT) }),
    ...teachersOf(previous, pair, teachers),
  };
}

/** Whether a record says this pair already (and the username, when one is given). */
const says = (record: PairRecord | undefined, pair: { phone: string; user_id: string; username?: string }) =>
  samePair(record, pair) && (pair.username === undefined || record?.username === pair.username);

/** The teachers a record does not name yet. */
const untaught = (record: PairRecord | undefined, teachers: Iterable<number>) =>
  [...teachers].filter((client) => !record?.taught_by?.includes(client));

/** The keys a batch of pairs reads before it learns: both halves of each. */
export const keysOfPairs = (pairs: { phone: string; user_id: string }[]) => [
  ...new Set(pairs.flatMap((p) => [`p:${p.phone}`, `u:${p.user_id}`])),
];

type News = { phone: string; user_id: string; username?: string; at: string; teachers: Set<number> };

/** The latest news of each half in a batch, with every client whose number showed that same pair. */
function latestByHalf(pairs: LearnedPair[]) {
  const latest = new Map<string, News>();
  for (const pair of [...pairs].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)))
    for (const key of [`p:${pair.phone}`, `u:${pair.user_id}`]) {
      const before = latest.get(key);
      const teachers = new Set(before && before.phone === pair.phone && before.user_id === pair.user_id ? before.teachers : []);
      if (pair.taught_by !== undefined) teachers.add(pair.taught_by);
      latest.set(key, { phone: pair.phone, user_id: pair.user_id, username: pair.username ?? before?.username, at: pair.at, teachers });
    }
  return latest;
}

/** What a half's record becomes with its news, or undefined when it says so already. */
function learnedRecord(previous: PairRecord | undefined, news: News): PairRecord | undefined {
  const newTeachers = untaught(previous, news.teachers);
  if (previous && previous.at > news.at)
    // Older news changes nothing but who may be served the pair it confirms (who saw a pair does not age).
    return samePair(previous, news) && newTeachers.length > 0
      ? { ...previous, taught_by: [...(previous.taught_by ?? []), ...newTeachers] }
      : undefined;
  if (says(previous, news) && newTeachers.length === 0) return undefined;
  return nextRecord(previous, news, news.at, news.teachers);
}

/**
 * What learning these pairs writes, given what the map holds under their keys: only a half whose pair is new or
 * changed, that learns a username, or that a client's number shows for the first time; never with news older
 * than the record's.
 */
export function learnedWrites(pairs: LearnedPair[], known: Map<string, PairRecord>): PairWrite[] {
  const writes: PairWrite[] = [];
  for (const [key, news] of latestByHalf(pairs)) {
    const previous = known.get(key);
    const record = learnedRecord(previous, news);
    if (record) writes.push({ key, record, ...(previous && { previous }) });
  }
  return writes;
}

/** The keys a move reads: every half it names. */
export const keysOfMove = (from: { phone?: string; user_id?: string }, to: { phone?: string; user_id?: string }) => [
  ...new Set([from, to].flatMap((h) => [...(h.phone ? [`p:${h.phone}`] : []), ...(h.user_id ? [`u:${h.user_id}`] : [])])),
];

/**
 * The person a move starts from: the record of its old BSUID, else of its old number; with a teacher, only one
 * the teacher may be served (a move never completes a pair from another client's traffic, decisions §32).
 */
function baseOfMove(from: { phone?: string; user_id?: string }, known: Map<string, PairRecord>, teacher?: number) {
  const usable = (key: string) => {
    const record = known.get(key);
    return record && (teacher === undefined || isServedTo(record, teacher)) ? record : undefined;
  };
  return (from.user_id && usable(`u:${from.user_id}`)) || (from.phone && usable(`p:${from.phone}`)) || undefined;
}

/**
 * What a move writes (a new BSUID, or a new number): every half involved names the person's new pair, the old
 * pair kept in its history, taught by the client whose number Meta told. Nothing when the person's other half is
 * unknown (no pair to keep).
 */
export function movedWrites(
  from: { phone?: string; user_id?: string },
  to: { phone?: string; user_id?: string },
  at: string,
  known: Map<string, PairRecord>,
  teacher?: number,
): PairWrite[] {
  const base = baseOfMove(from, known, teacher);
  const phone = to.phone ?? from.phone ?? base?.phone;
  const userId = to.user_id ?? base?.user_id ?? from.user_id;
  if (!phone || !userId) return [];
  const pair = { phone, user_id: userId, ...(base?.username && { username: base.username }) };
  const teachers = teacher === undefined ? [] : [teacher];
  const keys = new Set([...keysOfMove(from, { phone, user_id: userId }), ...(base ? [`p:${base.phone}`, `u:${base.user_id}`] : [])]);
  return [...keys].flatMap((key) => {
    const previous = known.get(key);
    if ((previous && previous.at > at) || (says(previous, pair) && untaught(previous, teachers).length === 0)) return [];
    return [{ key, record: nextRecord(previous, pair, at, teachers), ...(previous && { previous }) }];
  });
}

/** The halves of the person a move's first read found (`keysOfMove`), to be read too before it writes. */
export function keysOfMoveBase(from: { phone?: string; user_id?: string }, known: Map<string, PairRecord>, teacher?: number) {
  const base = baseOfMove(from, known, teacher);
  return base ? [`p:${base.phone}`, `u:${base.user_id}`].filter((key) => !known.has(key)) : [];
}
