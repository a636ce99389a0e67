import type { LearnedPair } from './people-map.ts';
import type { Person } from './person.ts';

// Opt-outs and Meta's pauses (decisions §25); people by phone number and BSUID (decisions §28).

/**
 * An entry of a client's suppression list (decisions §25, §28): who, from where, when, and its evidence. It is
 * kept under its phone number's digits when it has one, else under `U#<user_id>` (suppressionKey).
 */
export interface Suppression {
  /** The number's digits. */
  phone?: string;
  /** The person's BSUID (decisions §28). */
  user_id?: string;
  source: 'api' | '131050' | 'inbound' | 'meta_preferences';
  at: string;
  /** The inbound message, or the refused message, that put it there. */
  message_id?: string;
  reason?: string;
}

/** Each client's suppression list (decisions §25): read a batch of recipients at a time, never scanned. */
export interface SuppressionStore {
  /**
   * Adds the entry unless its key is on the list already (the first entry stays): whether it was added. The key
   * is `suppressionKey(entry)` unless given (an entry of both halves kept under its BSUID too).
   */
  add(clientId: number, entry: Suppression, key?: string): Promise<boolean>;
  /** Whether the key (a number's digits, or `U#<user_id>`) was on the list. */
  remove(clientId: number, key: string): Promise<boolean>;
  /** The entries among these keys (digits, or `U#<user_id>`), by key: one BatchGetItem a hundred. */
  get(clientId: number, keys: string[]): Promise<Map<string, Suppression>>;
  list(clientId: number, page: { offset: number; size: number }): Promise<{ entries: Suppression[]; total: number }>;
}

/**
 * Who is who (decisions §28): the pairs of phone number and BSUID learned for a business portfolio (`scope`),
 * with the pairs they replaced kept as history, and which clients' numbers showed each (decisions §32).
 */
export interface PeopleMap {
  /**
   * The known pairs of these phones (digits) and BSUIDs, in a BatchGetItem per 100 keys. With `servedTo`, only
   * the pairs that client's own numbers showed (every use case names its client); without, every pair of the
   * scope (the stores' contract and operators).
   */
  pairsOf(scope: string, keys: { phone?: string; user_id?: string }[], servedTo?: number): Promise<Map<string, Person>>; // key: `p:<digits>` or `u:<bsuid>` → the person with both halves
  /** Learns pairs; writes only what is new or changed (conditional), keeps the old pair as history. */
  learn(scope: string, pairs: LearnedPair[]): Promise<number>;
  /**
   * A person moved to a new BSUID or number (user_changed_user_id / user_changed_number / user_id_update), as
   * the client whose number Meta told (`taughtBy`) knew them.
   */
  move(
    scope: string,
    from: { phone?: string; user_id?: string },
    to: { phone?: string; user_id?: string },
    at: string,
    taughtBy?: number,
  ): Promise<void>;
}
