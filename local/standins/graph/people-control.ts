import { randomBytes } from 'node:crypto';
import { BSUID } from '#lib/domain/people/person.ts';
import type { GraphModel } from './model.ts';
import type { MetaNotifier } from './notifier.ts';
import type { EmulatedPeople, EmulatedUser } from './people.ts';

type Answer = { status: number; body: unknown };
const digitsOf = (x: unknown) => String(x ?? '').replace(/\D/g, '');
const now = () => String(Math.floor(Date.now() / 1000));

/** What the people endpoints read and change: the model's numbers, the users, Meta's webhooks, the pricing's books. */
interface PeopleContext {
  model: GraphModel;
  people: EmulatedPeople;
  notifier?: MetaNotifier;
  inboundAt: (numberId: string, phone: string) => void;
}

type BusinessNumber = { id: string; waba_id: string; display_phone_number: string };

const metadataOf = (number: BusinessNumber) => ({
  display_phone_number: number.display_phone_number,
  phone_number_id: number.id,
});

/**
 * The emulator's control endpoints of people (decisions §28, upstream-facts §9.A): a user's switches, a BSUID
 * or number change (the system message and `user_id_update`), a marketing preference (`user_preferences`) and a
 * person's message by BSUID. Undefined when the path is not one of them.
 */
export function peopleControl(ctx: PeopleContext, method: string, path: string, body: Record<string, unknown>): Answer | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/_emulator/users') return setUser(ctx.people, body);
  const userAction = /^\/_emulator\/users\/([^/]+)\/(change-user-id|change-number|preferences)$/.exec(path);
  if (userAction) return actOnUser(ctx, decodeURIComponent(userAction[1]), userAction[2], body);
  // A person's message to a number ({from} or {user_id}, text?): a username user's webhook carries no number (§9.A3).
  const inbound = /^\/_emulator\/numbers\/([^/]+)\/inbound$/.exec(path);
  if (inbound) return receiveInbound(ctx, inbound[1], body);
  return undefined;
}

/** A user as a test gives it ({user_id, phone?, username?, phone_withheld?}). */
function setUser(people: EmulatedPeople, body: Record<string, unknown>): Answer {
  const userId = String(body.user_id ?? '');
  if (!BSUID.test(userId)) return { status: 400, body: { error: 'user_id must be a BSUID' } };
  const phone = body.phone === undefined ? undefined : digitsOf(body.phone);
  const user: EmulatedUser = {
    user_id: userId,
    ...(phone && { phone }),
    ...(typeof body.username === 'string' && { username: body.username }),
    ...(body.phone_withheld === true && { phone_withheld: true }),
  };
  return { status: 200, body: people.set(user) };
}

/** A user's marketing preference or a change of their BSUID or number, as one business number's webhooks tell it. */
function actOnUser(ctx: PeopleContext, userId: string, action: string, body: Record<string, unknown>): Answer {
  const user = ctx.people.byUserId(userId);
  if (!user) return { status: 404, body: { error: 'no such user (POST /_emulator/users first)' } };
  const number = ctx.model.phoneNumbers.get(String(body.phone_number_id ?? ''));
  if (!number) return { status: 400, body: { error: 'phone_number_id must be one of the emulator’s numbers' } };
  if (!ctx.notifier) return { status: 409, body: { error: 'no webhook target configured' } };
  if (action === 'preferences') return setPreference(ctx.people, ctx.notifier, number, user, body);
  return moveUser(ctx.people, ctx.notifier, number, user, action === 'change-number', body);
}

/** A marketing preference ({value: "stop"|"resume"}): Meta's `user_preferences` webhook. */
function setPreference(
  people: EmulatedPeople,
  notifier: MetaNotifier,
  number: BusinessNumber,
  user: EmulatedUser,
  body: Record<string, unknown>,
): Answer {
  if (!['stop', 'resume'].includes(String(body.value))) return { status: 400, body: { error: 'value must be stop or resume' } };
  const shared = people.phoneShared(number.id, user);
  notifier.notify(number.waba_id, 'user_preferences', {
    messaging_product: 'whatsapp',
    metadata: metadataOf(number),
    contacts: [people.contactOf(number.id, user, true)],
    user_preferences: [
      {
        ...(shared && { wa_id: user.phone }),
        user_id: user.user_id,
        detail: `User requested to ${body.value} marketing messages`,
        category: 'marketing_messages',
        value: body.value,
        timestamp: now(),
      },
    ],
  });
  return { status: 200, body: { user_id: user.user_id, value: body.value } };
}

/** A new BSUID ({new_user_id?}) and, for a change of number, a new number ({phone}): the system message and `user_id_update`. */
function moveUser(
  people: EmulatedPeople,
  notifier: MetaNotifier,
  number: BusinessNumber,
  user: EmulatedUser,
  changesNumber: boolean,
  body: Record<string, unknown>,
): Answer {
  const newId = typeof body.new_user_id === 'string' ? body.new_user_id : undefined;
  if (newId !== undefined && !BSUID.test(newId)) return { status: 400, body: { error: 'new_user_id must be a BSUID' } };
  const newPhone = changesNumber ? digitsOf(body.phone) : undefined;
  if (changesNumber && !newPhone) return { status: 400, body: { error: 'phone (the new number) is required' } };
  const sharedBefore = people.phoneShared(number.id, user);
  const moved = people.move(user, { ...(newPhone && { phone: newPhone }), ...(newId && { user_id: newId }) });
  const shared = sharedBefore && people.phoneShared(number.id, moved);
  notifier.notify(number.waba_id, 'messages', userChangedMessage(number, user, moved, { sharedBefore, shared, newNumber: !!newPhone }));
  notifier.notify(number.waba_id, 'user_id_update', {
    messaging_product: 'whatsapp',
    metadata: metadataOf(number),
    contacts: [{ profile: { name: 'Emulated person' }, ...(shared && { wa_id: moved.phone }) }],
    user_id_update: [
      {
        ...(shared && { wa_id: moved.phone }),
        detail: 'User id for Emulated person has been updated.',
        user_id: { previous: user.user_id, current: moved.user_id },
        timestamp: now(),
      },
    ],
  });
  return { status: 200, body: { previous: user.user_id, ...moved } };
}

/** The system message of a change: no contacts; `from` and `wa_id` only where the number may be shared (§9.A5). */
function userChangedMessage(
  number: BusinessNumber,
  user: EmulatedUser,
  moved: EmulatedUser,
  seen: { sharedBefore: boolean; shared: boolean; newNumber: boolean },
) {
  return {
    messaging_product: 'whatsapp',
    metadata: metadataOf(number),
    messages: [
      {
        ...(seen.sharedBefore && { from: user.phone }),
        id: `wamid.sys.${randomBytes(6).toString('hex')}`,
        timestamp: now(),
        type: 'system',
        system: {
          body: `User Emulated person changed from ${user.user_id} to ${moved.user_id}`,
          ...(seen.shared && { wa_id: moved.phone }),
          user_id: moved.user_id,
          type: seen.newNumber && seen.shared ? 'user_changed_number' : 'user_changed_user_id',
        },
      },
    ],
  };
}

/** A person's message to a number ({from} or {user_id}, text?): the `messages` webhook when it has a text. */
function receiveInbound(ctx: PeopleContext, numberId: string, body: Record<string, unknown>): Answer {
  const { people } = ctx;
  const number = ctx.model.phoneNumbers.get(numberId);
  if (!number) return { status: 404, body: { error: 'no such phone number' } };
  const from = body.from === undefined ? undefined : digitsOf(body.from);
  const userId = typeof body.user_id === 'string' ? body.user_id : undefined;
  if (!from && !userId) return { status: 400, body: { error: 'from or user_id is required' } };
  const user = people.userOf({ ...(from && { phone: from }), ...(userId && { user_id: userId }) });
  const shared = people.phoneShared(number.id, user);
  if (user.phone) ctx.inboundAt(number.id, user.phone);
  const id = `wamid.in.${randomBytes(6).toString('hex')}`;
  if (typeof body.text === 'string')
    ctx.notifier?.notify(number.waba_id, 'messages', {
      messaging_product: 'whatsapp',
      metadata: metadataOf(number),
      contacts: [people.contactOf(number.id, user, true)],
      messages: [
        { ...(shared && { from: user.phone }), from_user_id: user.user_id, id, timestamp: now(), type: 'text', text: { body: body.text } },
      ],
    });
  // The person wrote: the number may see their phone number for 30 days (§9.A2).
  people.talked(number.id, user);
  return { status: 200, body: { id: numberId, ...(shared && { from: user.phone }), user_id: user.user_id, message_id: id } };
}
