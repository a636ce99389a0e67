import { BSP_PERMISSION, type Caller } from '../shared/caller.ts';
import { Forbidden, NotFound } from '../shared/errors.ts';
import { CLIENT_ADMIN_ROLE } from '../shared/onboarding.ts';
import type { DirectoryStore } from '../shared/ports.ts';

/**
 * A cap on marketing per person (issue 56 item 4, decisions §33; the rules in docs/frequency-caps.md): a client may
 * send a person at most `max` MARKETING messages in any `days` days, across all its sends. The count follows the
 * person (the people map's pair of a number and a BSUID is one person) and is kept per person, bounded by `max`:
 * the times of the person's last messages still inside the window, no more.
 */

/** At most `max` MARKETING messages to one person in any `days` days (a rolling window of `days` × 24 h). */
export interface FrequencyCap {
  max: number;
  days: number;
}

/**
 * The bounds a cap may take: a person's count item holds at most `max` times (8 bytes each), so 50 keeps it
 * under 1 KB (one write unit); 90 days is a quarter, the longest marketing window the anchors sell.
 */
export const FREQUENCY_CAP_LIMITS = { max: 50, days: 90 } as const;

/** A client's caps as kept: the MARKETING one (no other category is capped), and when it was set. */
export interface ClientFrequencyCap {
  marketing: FrequencyCap;
  updated_at: string;
}

/** Each client's cap setting. */
export interface FrequencyCaps {
  get(clientId: number): Promise<ClientFrequencyCap | null>;
  /** Sets the client's cap, or removes it (`null`). */
  put(clientId: number, marketing: FrequencyCap | null, at: string): Promise<void>;
}

/**
 * Each person's MARKETING messages counted under a client's cap, one item a person (its number's `p:<digits>`,
 * else its BSUID's `u:<bsuid>`): the times (epoch seconds) of its messages still in the window, at most `max`.
 * `keys` are a person's halves, the one its count is written under first (`capKeysOf`); the others are read too,
 * so what was counted under a BSUID before its number was known still counts.
 */
export interface MarketingCounts {
  /** Each person's messages in the window at `nowMs` (a dry run's reading): one read per 100 items. */
  counted(clientId: number, people: string[][], cap: FrequencyCap, nowMs: number): Promise<number[]>;
  /**
   * Counts one message to the person at `nowMs` when it is under the cap, with a write conditioned on the count as
   * read (of two dispatchers at once, one writes; the other reads again): the time taken, or null at the cap.
   */
  take(clientId: number, keys: string[], cap: FrequencyCap, nowMs: number): Promise<number | null>;
  /** Gives back a message taken at `takenAt` (epoch seconds) that was never sent. */
  giveBack(clientId: number, keys: string[], cap: FrequencyCap, takenAt: number): Promise<void>;
}

/** The window's length in seconds. */
export const windowSecondsOf = (cap: FrequencyCap) => cap.days * 86_400;

/** A message at `at` counts at `nowSec` while less than `days` × 24 h have passed since (a rolling window). */
export const isCounted = (at: number, cap: FrequencyCap, nowSec: number) => nowSec - at < windowSecondsOf(cap);

/** How many of these times count at `nowSec`. */
export const countedOf = (ats: number[], cap: FrequencyCap, nowSec: number) => ats.filter((at) => isCounted(at, cap, nowSec)).length;

/** Whether one more message may go to a person whose messages are at these times (its halves' together). */
export const hasRoom = (ats: number[], cap: FrequencyCap, nowSec: number) => countedOf(ats, cap, nowSec) < cap.max;

/**
 * A person's item after a message at `nowSec`: its times still counted, the newest `max - 1` of them, and the new
 * one. Never more than `max` times, whatever the person's history.
 */
export function timesAfterTake(own: number[], cap: FrequencyCap, nowSec: number): number[] {
  const kept = own.filter((at) => isCounted(at, cap, nowSec)).sort((a, b) => a - b);
  return [...kept.slice(Math.max(0, kept.length - (cap.max - 1))), nowSec];
}

/** A person's item after giving back the message taken at `takenAt`: that time, once, removed. */
export function timesAfterGiveBack(own: number[], takenAt: number): number[] {
  const i = own.lastIndexOf(takenAt);
  return i < 0 ? own : [...own.slice(0, i), ...own.slice(i + 1)];
}

/**
 * A person's keys in the order their count is kept by: a number's (`p:`) first, so a person known by both halves
 * is counted under its number however a send names them; then its BSUID's.
 */
export const capKeysOf = (keys: string[]) => [...keys.filter((k) => k.startsWith('p:')), ...keys.filter((k) => !k.startsWith('p:'))];

/** The time of `ms` as a count item keeps it. */
export const secondsOf = (ms: number) => Math.floor(ms / 1000);

/** BSP_CN for any client; the client's administrator for its own (as onboarding, decisions §34). */
function mayChange(caller: Caller, clientId: number) {
  if (caller.isBsp || caller.permissions.includes(BSP_PERMISSION)) return;
  if (caller.clientId === clientId && caller.role === CLIENT_ADMIN_ROLE) return;
  throw new Forbidden('BSP_CN, or an administrator of the client, may set its frequency cap');
}

/** BSP_CN for any client; anyone of the client for its own. */
function mayRead(caller: Caller, clientId: number) {
  if (caller.isBsp || caller.clientId === clientId) return;
  throw new Forbidden('BSP_CN permission required for cross-client access');
}

export interface FrequencyCapDeps {
  caps: FrequencyCaps;
  directory: Pick<DirectoryStore, 'getClient'>;
  now?: () => string;
}

const answerOf = (clientId: number, kept: ClientFrequencyCap | null) => ({
  client_id: clientId,
  marketing: kept?.marketing ?? null,
  ...(kept && { updated_at: kept.updated_at }),
});

/** `PUT /v1/clients/{client_id}/frequency-cap`: the client's MARKETING cap set, or removed with `null`. */
export async function putFrequencyCap(deps: FrequencyCapDeps, caller: Caller, clientId: number, body: { marketing: FrequencyCap | null }) {
  mayChange(caller, clientId);
  if (!(await deps.directory.getClient(clientId))) throw new NotFound(`Client ${clientId} does not exist`);
  const at = deps.now?.() ?? new Date().toISOString();
  await deps.caps.put(clientId, body.marketing, at);
  return answerOf(clientId, body.marketing ? { marketing: body.marketing, updated_at: at } : null);
}

/** `GET /v1/clients/{client_id}/frequency-cap`: the client's cap, `marketing: null` when it has none. */
export async function getFrequencyCap(deps: FrequencyCapDeps, caller: Caller, clientId: number) {
  mayRead(caller, clientId);
  if (!(await deps.directory.getClient(clientId))) throw new NotFound(`Client ${clientId} does not exist`);
  return answerOf(clientId, await deps.caps.get(clientId));
}
