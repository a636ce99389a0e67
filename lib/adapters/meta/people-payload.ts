import * as v from 'valibot';
import type { PeopleNotification } from '#lib/domain/people/people-notifications.ts';
import { BSUID } from '#lib/domain/people/person.ts';

/**
 * What Meta's webhooks say of people (upstream-facts §9.A3–A5, decisions §28): BSUIDs (`user_id`,
 * `from_user_id`, `recipient_user_id`), usernames, and phone numbers only where Meta may share them, each
 * field omitted (never empty) when absent. System messages and `user_id_update` move a person; the
 * `user_preferences` field says they stopped or resumed marketing.
 */

const phone = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform(String),
  v.maxLength(64),
  v.transform((x) => x.replace(/\D/g, '')),
  v.minLength(1),
);
/** A BSUID or parent BSUID; anything else is not one (the field is then read as absent). */
export const userId = v.pipe(v.string(), v.regex(BSUID));
const optional = <T extends v.GenericSchema>(schema: T) => v.optional(v.fallback(v.optional(schema), undefined));

const Contact = v.object({
  wa_id: optional(phone),
  user_id: optional(userId),
  profile: optional(v.object({ username: optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))) })),
});
const Contacts = v.fallback(v.optional(v.array(Contact), []), []);
export type WebhookContact = v.InferOutput<typeof Contact>;

/** The contacts of a `messages` change (none on failed statuses and on system messages). */
export const contactsOf = (value: unknown): WebhookContact[] => v.parse(Contacts, (value as { contacts?: unknown })?.contacts);

/** The username of the contact of this BSUID or number, when Meta gave one. */
export const usernameOf = (contacts: WebhookContact[], person: { phone?: string; user_id?: string }) =>
  contacts.find((c) => (person.user_id && c.user_id === person.user_id) || (person.phone && c.wa_id === person.phone))?.profile?.username;

/** Pairs an inbound change's contacts show: a number and a BSUID together, and the business number that saw them. */
export function seenOf(contacts: WebhookContact[], waba_id: string, at: number, number?: string): PeopleNotification[] {
  const people = contacts.flatMap((c) =>
    c.wa_id && c.user_id ? [{ phone: c.wa_id, user_id: c.user_id, ...(c.profile?.username && { username: c.profile.username }) }] : [],
  );
  return people.length > 0 ? [{ kind: 'people_seen', waba_id, ...(number && { number_digits: number }), at, people }] : [];
}

const SystemMessage = v.object({
  from: optional(phone),
  from_user_id: optional(userId),
  timestamp: v.optional(v.union([v.string(), v.number()])),
  type: v.literal('system'),
  system: v.object({
    type: v.picklist(['user_changed_user_id', 'user_changed_number']),
    body: v.optional(v.pipe(v.string(), v.maxLength(1024))),
    wa_id: optional(phone),
    new_wa_id: optional(phone),
    user_id: optional(userId),
  }),
});

const timeOf = (timestamp: unknown, fallback: number) => {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallback;
};

/** A system message of a person's new BSUID or number, as a move (the old BSUID from `from_user_id` or the body). */
export function moveOfSystem(message: unknown, waba_id: string, at: number, number?: string): PeopleNotification[] {
  const r = v.safeParse(SystemMessage, message);
  if (!r.success) return [];
  const { system } = r.output;
  const oldId = r.output.from_user_id ?? /changed from (\S+) to/.exec(system.body ?? '')?.[1];
  const from = { ...(r.output.from && { phone: r.output.from }), ...(oldId && BSUID.test(oldId) && { user_id: oldId }) };
  const newPhone = system.wa_id ?? system.new_wa_id;
  const to = { ...(newPhone && { phone: newPhone }), ...(system.user_id && { user_id: system.user_id }) };
  if (Object.keys(to).length === 0 || Object.keys(from).length === 0) return [];
  const told = number ? { number_digits: number } : {};
  return [{ kind: 'person_move', waba_id, ...told, at: timeOf(r.output.timestamp, at), change: system.type, from, to }];
}

const UserIdUpdate = v.object({
  metadata: optional(v.object({ display_phone_number: phone })),
  user_id_update: v.array(
    v.object({
      wa_id: optional(phone),
      user_id: v.object({ previous: userId, current: userId }),
      timestamp: v.optional(v.union([v.string(), v.number()])),
    }),
  ),
});

/** The `user_id_update` field: each person's previous and current BSUID. */
export function movesOfUpdate(value: unknown, waba_id: string, at: number): PeopleNotification[] {
  const r = v.safeParse(UserIdUpdate, value);
  if (!r.success) return [];
  const number = r.output.metadata?.display_phone_number;
  return r.output.user_id_update.map((u) => ({
    kind: 'person_move' as const,
    waba_id,
    ...(number && { number_digits: number }),
    at: timeOf(u.timestamp, at),
    change: 'user_id_update' as const,
    from: { ...(u.wa_id && { phone: u.wa_id }), user_id: u.user_id.previous },
    to: { user_id: u.user_id.current },
  }));
}

const UserPreferences = v.object({
  metadata: v.object({ display_phone_number: phone }),
  user_preferences: v.array(
    v.object({
      wa_id: optional(phone),
      user_id: optional(userId),
      category: v.optional(v.pipe(v.string(), v.maxLength(64))),
      value: v.pipe(v.string(), v.toLowerCase(), v.picklist(['stop', 'resume'])),
      timestamp: v.optional(v.union([v.string(), v.number()])),
    }),
  ),
});

/** The `user_preferences` field: marketing stopped or resumed, per person (other categories are not consent). */
export function preferencesOf(value: unknown, waba_id: string, at: number): PeopleNotification[] {
  const r = v.safeParse(UserPreferences, value);
  if (!r.success) return [];
  return r.output.user_preferences.flatMap((p) =>
    (p.category === undefined || p.category === 'marketing_messages') && (p.wa_id || p.user_id)
      ? [
          {
            kind: 'marketing_preference' as const,
            waba_id,
            number_digits: r.output.metadata.display_phone_number,
            at: timeOf(p.timestamp, at),
            ...(p.wa_id && { phone: p.wa_id }),
            ...(p.user_id && { user_id: p.user_id }),
            value: p.value as 'stop' | 'resume',
          },
        ]
      : [],
  );
}
