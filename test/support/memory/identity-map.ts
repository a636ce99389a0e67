import type { Person } from '#lib/domain/person.ts';
import type { IdentityMap } from '#lib/domain/ports/consent.ts';

/**
 * Pairs of phone number and BSUID known to be one person, per scope (decisions §28), in memory: each key
 * `p:<digits>` and `u:<bsuid>` names the person with both halves; a move keeps the old pair as history.
 */
export class MemoryIdentityMap implements IdentityMap {
  readonly pairs = new Map<string, Person & { at: string }>();
  readonly history: { scope: string; pair: Person; at: string }[] = [];
  /** The keys each pairsOf call asked for, by call. */
  readonly reads: number[] = [];

  async pairsOf(scope: string, keys: { phone?: string; user_id?: string }[]) {
    this.reads.push(keys.length);
    const found = new Map<string, Person>();
    for (const key of keys) {
      const name = key.phone !== undefined ? `p:${key.phone}` : `u:${key.user_id}`;
      const pair = this.pairs.get(`${scope}|${name}`);
      if (pair) found.set(name, { phone: pair.phone, user_id: pair.user_id, ...(pair.username && { username: pair.username }) });
    }
    return found;
  }

  async learn(scope: string, pairs: { phone: string; user_id: string; username?: string; at: string }[]) {
    let written = 0;
    for (const pair of pairs) {
      const known = this.pairs.get(`${scope}|p:${pair.phone}`);
      if (known?.user_id === pair.user_id && known.username === pair.username) continue;
      if (known) this.history.push({ scope, pair: { phone: known.phone, user_id: known.user_id }, at: pair.at });
      this.pairs.set(`${scope}|p:${pair.phone}`, { ...pair });
      this.pairs.set(`${scope}|u:${pair.user_id}`, { ...pair });
      written++;
    }
    return written;
  }

  async move(scope: string, from: { phone?: string; user_id?: string }, to: { phone?: string; user_id?: string }, at: string) {
    const old = this.pairs.get(`${scope}|${from.phone !== undefined ? `p:${from.phone}` : `u:${from.user_id}`}`);
    if (!old) return;
    this.history.push({ scope, pair: { phone: old.phone, user_id: old.user_id }, at });
    this.pairs.delete(`${scope}|p:${old.phone}`);
    this.pairs.delete(`${scope}|u:${old.user_id}`);
    const phone = to.phone ?? old.phone;
    const userId = to.user_id ?? old.user_id;
    if (phone && userId) await this.learn(scope, [{ phone, user_id: userId, at }]);
  }
}
