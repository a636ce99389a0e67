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
}

/** A write of the map: the record under a key, conditioned on what was read there (`previous`, or nothing). */
export interface PairWrite {
  key: string;
  record: PairRecord;
  previous?: PairRecord;
}

const HISTORY_KEPT = 10;

/** The record a key takes for a pair: the old pair goes to its history when it differs. */
function nextRecord(previous: PairRecord | undefined, pair: { phone: string; user_id: string; username?: string }, at: string) {
  const samePair = previous && previous.phone === pair.phone && previous.user_id === pair.user_id;
  const history =
    previous && !samePair
      ? [...(previous.history ?? []), { phone: previous.phone, user_id: previous.user_id, until: at }]
      : previous?.history;
  const username = pair.username ?? (samePair ? previous?.username : undefined);
  return {
    phone: pair.phone,
    user_id: pair.user_id,
    ...(username && { username }),
    at,
    ...(history && history.length > 0 && { history: history.slice(-HISTORY_KEPT) }),
  };
}

/** Whether a record says this pair already (and the username, when one is given). */
const says = (record: PairRecord | undefined, pair: { phone: string; user_id: string; username?: string }) =>
  record !== undefined &&
  record.phone === pair.phone &&
  record.user_id === pair.user_id &&
  (pair.username === undefined || record.username === pair.username);

/** The keys a batch of pairs reads before it learns: both halves of each. */
export const keysOfPairs = (pairs: { phone: string; user_id: string }[]) => [
  ...new Set(pairs.flatMap((p) => [`p:${p.phone}`, `u:${p.user_id}`])),
];

/**
 * What learning these pairs writes, given what the map holds under their keys: only a half whose pair is new or
 * changed (or that learns a username), never with news older than the record's.
 */
export function learnedWrites(
  pairs: { phone: string; user_id: string; username?: string; at: string }[],
  known: Map<string, PairRecord>,
): PairWrite[] {
  // The latest news of each half in the batch wins.
  const latest = new Map<string, (typeof pairs)[number]>();
  for (const pair of [...pairs].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)))
    for (const key of [`p:${pair.phone}`, `u:${pair.user_id}`])
      latest.set(key, { ...latest.get(key), ...pair, username: pair.username ?? latest.get(key)?.username });
  const writes: PairWrite[] = [];
  for (const [key, pair] of latest) {
    const previous = known.get(key);
    if (says(previous, pair) || (previous && previous.at > pair.at)) continue;
    writes.push({ key, record: nextRecord(previous, pair, pair.at), ...(previous && { previous }) });
  }
  return writes;
}

/** The keys a move reads: every half it names. */
export const keysOfMove = (from: { phone?: string; user_id?: string }, to: { phone?: string; user_id?: string }) => [
  ...new Set([from, to].flatMap((h) => [...(h.phone ? [`p:${h.phone}`] : []), ...(h.user_id ? [`u:${h.user_id}`] : [])])),
];

/**
 * What a move writes (a new BSUID, or a new number): every half involved names the person's new pair, the old
 * pair kept in its history. Nothing when the person's other half is unknown (no pair to keep).
 */
export function movedWrites(
  from: { phone?: string; user_id?: string },
  to: { phone?: string; user_id?: string },
  at: string,
  known: Map<string, PairRecord>,
): PairWrite[] {
  const base = (from.user_id && known.get(`u:${from.user_id}`)) || (from.phone && known.get(`p:${from.phone}`)) || undefined;
  const phone = to.phone ?? from.phone ?? base?.phone;
  const userId = to.user_id ?? base?.user_id ?? from.user_id;
  if (!phone || !userId) return [];
  const pair = { phone, user_id: userId, ...(base?.username && { username: base.username }) };
  const keys = new Set([...keysOfMove(from, { phone, user_id: userId }), ...(base ? [`p:${base.phone}`, `u:${base.user_id}`] : [])]);
  return [...keys].flatMap((key) => {
    const previous = known.get(key);
    if ((previous && previous.at > at) || says(previous, pair)) return [];
    return [{ key, record: nextRecord(previous, pair, at), ...(previous && { previous }) }];
  });
}

/** The halves of the person a move's first read found (`keysOfMove`), to be read too before it writes. */
export function keysOfMoveBase(from: { phone?: string; user_id?: string }, known: Map<string, PairRecord>) {
  const base = (from.user_id && known.get(`u:${from.user_id}`)) || (from.phone && known.get(`p:${from.phone}`)) || undefined;
  return base ? [`p:${base.phone}`, `u:${base.user_id}`].filter((key) => !known.has(key)) : [];
}
