import { identityScopeOf } from './people-map.ts';
import type { Log } from '../shared/log.ts';
import type { IdentityMap, SuppressionStore } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { applyMarketingPreference } from './suppression.ts';

/**
 * What Meta's webhooks say of people (decisions §28): who is who (a phone number and a BSUID seen together),
 * a person's move to a new BSUID or number, and a person's marketing preference.
 */
export type PeopleNotification =
  | {
      /** Pairs of phone number and BSUID a webhook showed (an inbound message's contacts). */
      kind: 'people_seen';
      waba_id: string;
      at: number;
      people: { phone: string; user_id: string; username?: string }[];
    }
  | {
      /** `user_changed_user_id` / `user_changed_number` system messages and the `user_id_update` field. */
      kind: 'identity_move';
      waba_id: string;
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
    };

export interface PeopleDeps {
  suppressions: SuppressionStore;
  /** Without it nothing is learned and opt-outs keep to the halves the webhook names. */
  identities?: IdentityMap;
  directory: Pick<DirectoryStore, 'getChannel' | 'getWaba'>;
  log: Log;
}

/** A pair a notification of a batch showed, with its WABA. */
export interface SeenPair {
  waba_id: string;
  phone: string;
  user_id: string;
  username?: string;
  at: number;
}

/**
 * The pairs of a batch of notifications learned at once: one learn per scope (the WABA's portfolio), so a
 * campaign's statuses cost one call per batch, and nothing for pairs the map knows already.
 */
export async function learnPeople(deps: PeopleDeps, pairs: SeenPair[]) {
  if (!deps.identities || pairs.length === 0) return 0;
  const byScope = new Map<string, { phone: string; user_id: string; username?: string; at: string }[]>();
  for (const pair of pairs) {
    const scope = await identityScopeOf(pair.waba_id, deps.directory);
    const group = byScope.get(scope) ?? [];
    group.push({
      phone: pair.phone,
      user_id: pair.user_id,
      ...(pair.username && { username: pair.username }),
      at: new Date(pair.at).toISOString(),
    });
    byScope.set(scope, group);
  }
  let written = 0;
  for (const [scope, group] of byScope) written += await deps.identities.learn(scope, group);
  return written;
}

/** A person moved to a new BSUID or number: the map follows them, the old pair kept as history. */
export async function applyIdentityMove(deps: PeopleDeps, n: Extract<PeopleNotification, { kind: 'identity_move' }>) {
  if (!deps.identities) return 'ignored' as const;
  await deps.identities.move(await identityScopeOf(n.waba_id, deps.directory), n.from, n.to, new Date(n.at).toISOString());
  deps.log.info('a person moved', { change: n.change });
  return 'applied' as const;
}

/** The `user_preferences` webhook, on the suppression list of the client whose number it is about. */
export async function applyPreference(deps: PeopleDeps, n: Extract<PeopleNotification, { kind: 'marketing_preference' }>) {
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
