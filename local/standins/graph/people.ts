import { createHash, randomBytes } from 'node:crypto';
import { regionOf, UNKNOWN_REGION } from '#lib/domain/money/pricing/region.ts';
import { DAY_MS } from '#lib/domain/shared/calendar.ts';

/**
 * WhatsApp users as Meta shows them to a business in 2026 (upstream-facts §9.A): each has a BSUID, some a
 * username, and a username user's phone number is withheld from webhooks unless the business number talked
 * with them in the last 30 days. Fields a webhook may not carry are omitted, never empty (§9.A3–A5).
 */
export interface EmulatedUser {
  phone?: string;
  user_id: string;
  username?: string;
  phone_withheld?: boolean;
}

const TALK_WINDOW_MS = 30 * DAY_MS;

/** A person's BSUID when no test named one: their country's prefix and digits of their number, always the same. */
export const bsuidOf = (phone: string) => {
  const region = regionOf(phone);
  const digits = BigInt(`0x${createHash('sha256').update(phone).digest('hex').slice(0, 15)}`).toString();
  return `${region === UNKNOWN_REGION ? 'ZZ' : region}.${digits}`;
};

export class EmulatedPeople {
  private readonly byId = new Map<string, EmulatedUser>();
  private readonly byPhone = new Map<string, EmulatedUser>();
  /** `<phone number id>|<user_id>` → when that number and the user last talked. */
  private readonly talks = new Map<string, number>();

  /** A user set by a test (`POST /_emulator/users`): what it knew of their talks is forgotten (30 days went by). */
  set(user: EmulatedUser) {
    const old = this.byId.get(user.user_id) ?? (user.phone ? this.byPhone.get(user.phone) : undefined);
    if (old?.phone) this.byPhone.delete(old.phone);
    if (old) this.byId.delete(old.user_id);
    this.byId.set(user.user_id, user);
    if (user.phone) this.byPhone.set(user.phone, user);
    for (const key of [...this.talks.keys()])
      if (key.endsWith(`|${user.user_id}`) || (old && key.endsWith(`|${old.user_id}`))) this.talks.delete(key);
    return user;
  }

  /** The user of a phone number or BSUID: set by a test, else one with the BSUID the number always has. */
  userOf(who: { phone?: string; user_id?: string }): EmulatedUser {
    const known = (who.user_id && this.byId.get(who.user_id)) || (who.phone && this.byPhone.get(who.phone)) || undefined;
    if (known) return known;
    return { ...(who.phone && { phone: who.phone }), user_id: who.user_id ?? bsuidOf(who.phone ?? '') };
  }

  byUserId(userId: string) {
    return this.byId.get(userId);
  }

  talked(numberId: string, user: EmulatedUser, at = Date.now()) {
    this.talks.set(`${numberId}|${user.user_id}`, at);
  }

  /** Whether a webhook of this number may carry the user's phone number (upstream-facts §9.A2). */
  phoneShared(numberId: string, user: EmulatedUser, at = Date.now()) {
    if (!user.phone) return false;
    if (!user.phone_withheld) return true;
    return at - (this.talks.get(`${numberId}|${user.user_id}`) ?? Number.NEGATIVE_INFINITY) <= TALK_WINDOW_MS;
  }

  /** The user moved to a new BSUID (given, or made) and, with `phone`, a new number (a new BSUID then too). */
  move(user: EmulatedUser, to: { phone?: string; user_id?: string }) {
    const next = {
      ...user,
      ...(to.phone && { phone: to.phone }),
      user_id: to.user_id ?? `${user.user_id.slice(0, 2)}.${BigInt(`0x${randomBytes(7).toString('hex')}`)}`,
    };
    this.set(next);
    return next;
  }

  /** A contact of a webhook (statuses on sent, delivered and read; inbound messages; preferences). */
  contactOf(numberId: string, user: EmulatedUser, withUsername: boolean) {
    return {
      profile: { name: 'Emulated person', ...(withUsername && user.username && { username: user.username }) },
      ...(this.phoneShared(numberId, user) && { wa_id: user.phone }),
      user_id: user.user_id,
    };
  }
}
