import { type LearnedPair, peopleMapScopeOf } from './people-map.ts';
import type { Log } from '../shared/log.ts';
import type { PeopleMap, SuppressionStore } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { applyInboundConsent, applyMarketingPreference } from './suppression.ts';

/**
 * What Meta's webhooks say of people (decisions §28): who is who (a phone number and a BSUID seen together),
 * a person's move to a new BSUID or number, a person's marketing preference, and a person's own message to one
 * of the numbers (an opt-out or opt-in keyword, decisions §25).
 */
export type PeopleNotification =
  | {
      /** Pairs of phone number and BSUID a webhook showed (an inbound message's contacts). */
      kind: 'people_seen';
      waba_id: string;
      /** The number whose change showed them (its client is taught the pairs, decisions §32). */
      number_digits?: string;
      at: number;
      people: { phone: string; user_id: string; username?: string }[];
    }
  | {
      /** `user_changed_user_id` / `user_changed_number` system messages and the `user_id_update` field. */
      kind: 'person_move';
      waba_id: string;
      /** The number Meta told (its client's view of the person moves, decisions §32). */
      number_digits?: string;
      at: number;
      change: 'user_changed_user_id' | 'user_changed_number' | 'user_id_update';
      from: { phone?: string; user_id?: string };
      to: { phone?: string; user_id?: string };
    }
  | {
      /** The `user_preferences` webhook: the person stopped or resumed marketing from the business. */
      kind: 'marketing_preference';
      waba_id: string;
      number_digits: string;
      at: number;
      phone?: string;
      user_id?: string;
      value: 'stop' | 'resume';
    }
  | InboundMessageNotification;

/**
 * A person's message to one of the numbers (`number_digits`): a text may be an opt-out or opt-in keyword (decisions
 * §25); any message may answer a send's message (decisions §33: `context_id`, a quick-reply `button`).
 */
export interface InboundMessageNotification {
  kind: 'inbound_message';
  waba_id: string;
  number_digits: string;
  /** The sender's digits: absent for a username user whose number Meta does not share (decisions §28). */
  from?: string;
  /** The sender's BSUID and username (decisions §28). */
  user_id?: string;
  username?: string;
  message_id: string;
  /** A text message's body; absent for any other type. */
  text?: string;
  /** The message it answers (`context.id`), when it quotes one. */
  context_id?: string;
  /** A quick-reply button of a template (`type: button`): its label and payload. */
  button?: { text?: string; payload?: string };
  at: number;
}

/**
 * Who is who (decisions §28): the people map, and the directory that names each WABA's scope in it and each
 * number's client (who is taught what its number shows, decisions §32).
 */
export interface PeopleMapDeps {
  peopleMap: PeopleMap;
  directory: Pick<DirectoryStore, 'getWaba' | 'getChannel'>;
  log: Log;
}

/** A person's consent on the suppression list of the client whose number it reached (decisions §25). */
export interface ConsentNoticeDeps {
  suppressions: SuppressionStore;
  /** The other half of a pair the people map knows; undefined, opt-outs keep to the halves the webhook names. */
  peopleMap: PeopleMap | undefined;
  directory: Pick<DirectoryStore, 'getChannel' | 'getWaba'>;
  log: Log;
}

/** A pair a notification of a batch showed, with its WABA. */
export interface SeenPair {
  waba_id: string;
  /** The number whose traffic showed it: its client is taught the pair (none: the pair is served to no client). */
  number_digits?: string;
  phone: string;
  user_id: string;
  username?: string;
  at: number;
}

/**
 * The client of each number a batch names, each read once: the client whose own traffic teaches the map a pair
 * (decisions §32). A number no client has (or none given) teaches nobody.
 */
function clientsOfNumbers(directory: Pick<DirectoryStore, 'getChannel'>) {
  const clients = new Map<string, Promise<number | undefined>>();
  return (digits: string | undefined) => {
    if (!digits) return Promise.resolve(undefined);
    if (!clients.has(digits))
      clients.set(
        digits,
        directory.getChannel(digits).then((channel) => (channel && !channel.deleted ? channel.client_id : undefined)),
      );
    return clients.get(digits)!;
  };
}

/**
 * The pairs of a batch of notifications learned at once: one learn per scope (the WABA's portfolio), so a
 * campaign's statuses cost one call per batch, and nothing for pairs the map knows already. Each pair is taught
 * to the client whose number showed it; one no client's number showed is kept, and served to no client.
 */
export async function learnPeople(deps: PeopleMapDeps, pairs: SeenPair[]) {
  if (pairs.length === 0) return 0;
  const clientOf = clientsOfNumbers(deps.directory);
  const byScope = new Map<string, LearnedPair[]>();
  for (const pair of pairs) {
    const scope = await peopleMapScopeOf(pair.waba_id, deps.directory);
    const teacher = await clientOf(pair.number_digits);
    const group = byScope.get(scope) ?? [];
    group.push({
      phone: pair.phone,
      user_id: pair.user_id,
      ...(pair.username && { username: pair.username }),
      at: new Date(pair.at).toISOString(),
      ...(teacher !== undefined && { taught_by: teacher }),
    });
    byScope.set(scope, group);
  }
  let written = 0;
  for (const [scope, group] of byScope) written += await deps.peopleMap.learn(scope, group);
  return written;
}

/**
 * A person moved to a new BSUID or number: the map follows them, the old pair kept as history, as the client
 * whose number Meta told knew them (never completed from another client's pairs, decisions §32).
 */
export async function applyPersonMove(deps: PeopleMapDeps, n: Extract<PeopleNotification, { kind: 'person_move' }>) {
  const scope = await peopleMapScopeOf(n.waba_id, deps.directory);
  const teacher = await clientsOfNumbers(deps.directory)(n.number_digits);
  await deps.peopleMap.move(scope, n.from, n.to, new Date(n.at).toISOString(), teacher);
  deps.log.info('a person moved', { change: n.change });
  return 'applied' as const;
}

/** The `user_preferences` webhook, on the suppression list of the client whose number it is about. */
export async function applyPreference(deps: ConsentNoticeDeps, n: Extract<PeopleNotification, { kind: 'marketing_preference' }>) {
  const channel = await deps.directory.getChannel(n.number_digits);
  if (!channel || channel.deleted) {
    deps.log.info('marketing preference ignored: a number no client has', { waba_id: n.waba_id });
    return 'ignored' as const;
  }
  await applyMarketingPreference(deps, channel.client_id, {
    ...(n.phone && { phone: n.phone }),
    ...(n.user_id && { user_id: n.user_id }),
    value: n.value,
    at: new Date(n.at).toISOString(),
    waba_id: n.waba_id,
  });
  deps.log.info('marketing preference from Meta', { client_id: channel.client_id, value: n.value });
  return 'applied' as const;
}

/**
 * A person's message to one of the numbers: an opt-out keyword puts them on the suppression list of the client
 * whose number it reached, an opt-in keyword takes them off (decisions §25). A number no client has is ignored.
 */
export async function applyInbound(deps: ConsentNoticeDeps, n: InboundMessageNotification) {
  const channel = await deps.directory.getChannel(n.number_digits);
  if (!channel || channel.deleted) {
    deps.log.info('inbound message ignored: a number no client has', { waba_id: n.waba_id });
    return 'ignored' as const;
  }
  if (n.text === undefined) return 'unchanged' as const;
  const consent = await applyInboundConsent(deps, channel.client_id, {
    ...(n.from && { from: n.from }),
    ...(n.user_id && { user_id: n.user_id }),
    waba_id: n.waba_id,
    text: n.text,
    id: n.message_id,
    at: new Date(n.at).toISOString(),
  });
  if (consent) deps.log.info('consent from an inbound message', { client_id: channel.client_id, consent });
  return consent ? ('applied' as const) : ('unchanged' as const);
}

/** The pair a notification names, when it names both halves and its WABA (decisions §28). */
export function pairSeen(seen: Partial<SeenPair> & { at: number }): SeenPair[] {
  const { waba_id, number_digits, phone, user_id, username, at } = seen;
  if (!phone || !user_id || !waba_id) return [];
  return [{ waba_id, ...(number_digits && { number_digits }), phone, user_id, ...(username && { username }), at }];
}

/** The pairs of phone number and BSUID a people notification shows: its contacts, or an inbound message's sender. */
export function pairsOf(n: PeopleNotification): SeenPair[] {
  if (n.kind === 'people_seen')
    return n.people.map((p) => ({ ...p, waba_id: n.waba_id, ...(n.number_digits && { number_digits: n.number_digits }), at: n.at }));
  if (n.kind !== 'inbound_message') return [];
  const { waba_id, number_digits, from: phone, user_id, username, at } = n;
  return pairSeen({ waba_id, number_digits, phone, user_id, username, at });
}
