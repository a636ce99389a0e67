import { CALENDAR_ZONE, dayStartIn, type Month, monthAfter } from '../shared/calendar.ts';
import { DEFAULT_WABA_ZONE, zoneOfMetaTimezone } from '../shared/meta-timezones.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { billingOfWaba } from './billing-currencies.ts';
import type { BillingCurrencies, KnownCurrencies } from './ports.ts';

// A client's billing timezone (decisions §31): the zone its statement months close in and its budget's month turns.

/** The clocks a client's months are counted by: the zone BSP_CN set for it, if any, and its WABAs' zones. */
export interface ClientClocks {
  set?: string;
  wabas: string[];
}

/**
 * The client's billing timezone for `month`: the one BSP_CN set; else its WABAs' zone when they agree, else the one
 * whose month ends last (the westernmost: no WABA's day of the month is still running when it ends, ties to the
 * first by name); else, with no WABA, UTC.
 */
export function billingZoneOf(clocks: ClientClocks, month: Month): string {
  if (clocks.set) return clocks.set;
  let last: { zone: string; at: number } | undefined;
  for (const zone of [...new Set(clocks.wabas)].sort()) {
    const at = dayStartIn(`${monthAfter(month)}-01`, zone);
    if (!last || at > last.at) last = { zone, at };
  }
  return last?.zone ?? CALENDAR_ZONE;
}

export interface LateMarkDeps {
  currencies?: BillingCurrencies;
  /** The directory's clients, for a billing timezone BSP_CN set: without them, the WABA's zone alone. */
  clients?: Pick<DirectoryStore, 'getClient'>;
}

/**
 * The zone the status path marks a charge late by (decisions §30, §31): the client's set billing timezone, else
 * its WABA's (UTC where it cannot be read, as its charge's day), whose close time the close job waits for.
 */
export async function lateMarkZoneOf(deps: LateMarkDeps, wabaId: string | undefined, clientId: number | undefined) {
  const client = clientId !== undefined && deps.clients ? await deps.clients.getClient(clientId) : null;
  if (client?.billing_timezone) return client.billing_timezone;
  if (!wabaId || !deps.currencies) return DEFAULT_WABA_ZONE;
  const billing = await billingOfWaba(deps.currencies, wabaId).catch(() => undefined);
  return billing?.zone ?? DEFAULT_WABA_ZONE;
}

export interface ClientClockDeps {
  directory: Pick<DirectoryStore, 'getClient' | 'listClientWabas'>;
  /** Each WABA's timezone as kept (decisions §31; no Graph read): without it, or for a WABA not seen yet, UTC. */
  known?: Pick<KnownCurrencies, 'get'>;
}

/** A client's clocks as the directory and the kept WABAs say them. */
export async function clientClocks(deps: ClientClockDeps, clientId: number): Promise<ClientClocks> {
  const [client, wabaIds] = await Promise.all([deps.directory.getClient(clientId), deps.directory.listClientWabas(clientId)]);
  const wabas = await Promise.all(wabaIds.map(async (wabaId) => wabaZoneOf(deps, wabaId)));
  return { ...(client?.billing_timezone && { set: client.billing_timezone }), wabas };
}

async function wabaZoneOf(deps: ClientClockDeps, wabaId: string) {
  const kept = await deps.known?.get(wabaId);
  return zoneOfMetaTimezone(kept?.timezone_id) ?? DEFAULT_WABA_ZONE;
}
