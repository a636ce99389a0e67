import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type DirectoryFile, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { billingZoneOf } from '#lib/domain/money/billing-zone.ts';
import { getBudget } from '#lib/domain/money/budget.ts';
import { closeMonths } from '#lib/domain/money/statements/close-months.ts';
import { CLOSE_GRACE_MS, closesAt, lastMonthToClose, lateFiledUnder } from '#lib/domain/money/statements/months.ts';
import { statement } from '#lib/domain/money/statements/statement.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import { applyMessageStatuses, type MessageStatusNotification } from '#lib/domain/sends/message-statuses.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryKnownCurrencies } from '../../support/memory/money/known-currencies.ts';
import { MemoryStatementStore } from '../../support/memory/money/statement-store.ts';
import { bspCaller, DEMO_FIXTURE, memoryWorld } from '../../support/memory/world.ts';

/**
 * A client's billing timezone (decisions §31, issue 53 item 3): its statement months close, and its budget's month
 * turns, at 00:00 there. The demo's client 9 bills one WABA (100200400); client 7 two (100200300, 100200301).
 */
const INDIA = '71';
const KOLKATA = 'Asia/Kolkata';
/** October's close in India: 00:00 on 3 November there. */
const OCTOBER_CLOSES_IN_INDIA = Date.parse('2026-11-02T18:30:00Z');
const OCTOBER_CLOSES_IN_UTC = Date.parse('2026-11-03T00:00:00Z');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The demo directory, with billing timezones set for some clients. */
function directoryWith(zones: Record<number, string>): DirectoryFile {
  const file = structuredClone(DEMO_FIXTURE);
  for (const client of file.clients) if (zones[client.client_id]) client.billing_timezone = zones[client.client_id];
  return file;
}

/** The stores the close job and the statement read, each WABA kept in a zone: India for those named, else none. */
async function books(indiaWabas: string[], zones: Record<number, string> = {}) {
  const world = memoryWorld(directoryWith(zones));
  const known = new MemoryKnownCurrencies();
  for (const waba of indiaWabas) await known.put(waba, 'USD', '2026-10-01T00:00:00Z', INDIA);
  const ledger = new MemoryCostLedger();
  const statements = new MemoryStatementStore();
  const deps = { ledger, directory: world.directory, known, statements, sha256, priceLists: { lists: async () => [] }, log: silentLog };
  /** An October charge of a client's WABA, applied on time. */
  const chargeOctober = (waba: string, clientId: number) =>
    ledger.charge(waba, clientId, {
      day: '2026-10-15',
      did: '5215550001',
      market: 'Mexico',
      category: 'marketing',
      currency: 'USD',
      messages: 1,
      billable: 1,
      micros: 43_600,
    });
  /** The months the close job has kept of a client after a run at `atMs`. */
  const closedAt = async (atMs: number, clientId: number) => {
    await closeMonths(deps, atMs);
    return (await statements.latest(clientId))?.month;
  };
  return { world, known, deps, chargeOctober, closedAt };
}

describe('the client’s billing timezone (decisions §31)', () => {
  it('is the one set; else its WABAs’ zone when they agree; else the westernmost; else UTC', () => {
    // Prepare / Act / Assess
    expect(billingZoneOf({ set: 'Europe/Madrid', wabas: [KOLKATA, 'UTC'] }, '2026-10')).toBe('Europe/Madrid');
    expect(billingZoneOf({ wabas: [KOLKATA, KOLKATA] }, '2026-10')).toBe(KOLKATA);
    expect(billingZoneOf({ wabas: [KOLKATA, 'UTC', 'America/Sao_Paulo'] }, '2026-10')).toBe('America/Sao_Paulo');
    expect(billingZoneOf({ wabas: [] }, '2026-10')).toBe('UTC');
  });

  it('is taken by the directory file when Intl knows it, and refused naming it when not', () => {
    // Prepare
    const bad = directoryWith({ 9: 'Asia/Kolkatta' });
    const offset = directoryWith({ 9: '+05:30' });
    // Act
    const good = parseDirectoryFile(directoryWith({ 9: KOLKATA }));
    // Assess
    expect(good.clients.find((c) => c.client_id === 9)?.billing_timezone).toBe(KOLKATA);
    expect(() => parseDirectoryFile(bad)).toThrow(/clients\[2\]\.billing_timezone: unknown time zone "Asia\/Kolkatta"/);
    expect(() => parseDirectoryFile(offset)).toThrow(/unknown time zone "\+05:30"/);
  });
});

describe('months that close in the client’s billing timezone (decisions §30, §31)', () => {
  it('closes a +05:30 month at 00:00 on the 3rd there: October at 18:30 UTC on 2 November; UTC’s as before', () => {
    // Act
    const closes = closesAt('2026-10', KOLKATA);
    // Assess
    expect(new Date(closes).toISOString()).toBe('2026-11-02T18:30:00.000Z');
    expect(lastMonthToClose(OCTOBER_CLOSES_IN_INDIA - 1, KOLKATA)).toBe('2026-09');
    expect(lastMonthToClose(OCTOBER_CLOSES_IN_INDIA, KOLKATA)).toBe('2026-10');
    expect(lastMonthToClose(OCTOBER_CLOSES_IN_INDIA)).toBe('2026-09');
    expect(closesAt('2026-10')).toBe(OCTOBER_CLOSES_IN_UTC);
  });

  it('files a charge of 31 October applied at 19:00 UTC on 2 November under November, and one of 18:00 on time', () => {
    // Prepare
    const [onTime, late] = [Date.parse('2026-11-02T18:00:00Z'), Date.parse('2026-11-02T19:00:00Z')];
    // Act / Assess
    expect(lateFiledUnder('2026-10-31', onTime, KOLKATA)).toBeUndefined();
    expect(lateFiledUnder('2026-10-31', late, KOLKATA)).toBe('2026-11');
    expect(lateFiledUnder('2026-10-31', late)).toBeUndefined();
  });

  it('closes a +05:30 client’s October by the close job once its close time and the grace have passed, not before', async () => {
    // Prepare
    const { chargeOctober, closedAt } = await books(['100200400']);
    chargeOctober('100200400', 9);
    // Act
    const before = await closedAt(OCTOBER_CLOSES_IN_INDIA + CLOSE_GRACE_MS - 1, 9);
    const after = await closedAt(OCTOBER_CLOSES_IN_INDIA + CLOSE_GRACE_MS, 9);
    // Assess
    expect(before).toBeUndefined();
    expect(after).toBe('2026-10');
  });

  it('closes a client whose WABAs are in +05:30 and UTC, with no zone set, at the later close', async () => {
    // Prepare
    const { chargeOctober, closedAt } = await books(['100200300']);
    chargeOctober('100200300', 7);
    // Act
    const atIndiasClose = await closedAt(OCTOBER_CLOSES_IN_INDIA + CLOSE_GRACE_MS, 7);
    const atUtcsClose = await closedAt(OCTOBER_CLOSES_IN_UTC + CLOSE_GRACE_MS, 7);
    // Assess
    expect(atIndiasClose).toBeUndefined();
    expect(atUtcsClose).toBe('2026-10');
  });

  it('closes the same client by the zone BSP_CN set for it', async () => {
    // Prepare
    const { chargeOctober, closedAt } = await books(['100200300'], { 7: KOLKATA });
    chargeOctober('100200300', 7);
    // Act
    const closed = await closedAt(OCTOBER_CLOSES_IN_INDIA + CLOSE_GRACE_MS, 7);
    // Assess
    expect(closed).toBe('2026-10');
  });

  it('shows a statement’s closes_at at 00:00 on the 3rd in the client’s zone', async () => {
    // Prepare
    const india = await books(['100200400']);
    india.chargeOctober('100200400', 9);
    const utc = await books([]);
    utc.chargeOctober('100200400', 9);
    const now = () => Date.parse('2026-10-20T12:00:00Z');
    const issuer = { name: 'Acme Messaging Ltd', address: 'Dublin' };
    // Act
    const inIndia = await statement({ ...india.deps, issuer, now }, bspCaller(), { client_id: 9, month: '2026-10' });
    const inUtc = await statement({ ...utc.deps, issuer, now }, bspCaller(), { client_id: 9, month: '2026-10' });
    // Assess
    expect([inIndia.status, inIndia.closes_at]).toEqual(['open', '2026-11-02T18:30:00.000Z']);
    expect(inUtc.closes_at).toBe('2026-11-03T00:00:00.000Z');
  });
});

describe('the budget’s month in the client’s billing timezone (decisions §27, §31)', () => {
  it('is October at 20:00 UTC on 30 September for a +05:30 client, September for a UTC one', async () => {
    // Prepare
    const { world, known } = await books(['100200400']);
    const deps = {
      budgets: world.budgets,
      priceLists: world.priceLists,
      directory: world.directory,
      known,
      now: () => '2026-09-30T20:00:00.000Z',
    };
    // Act
    const [india, utc] = [await getBudget(deps, bspCaller(), 9), await getBudget(deps, bspCaller(), 10)];
    // Assess
    expect(india.month).toBe('2026-10');
    expect(utc.month).toBe('2026-09');
  });
});

describe('the status path marks a charge late by the client’s statement clock (decisions §30, §31)', () => {
  const DID = '5215550001';
  const block = { first: 0, size: 1, sendable: 1 };
  /** Delivered on 31 October in India (and in UTC), to Mexico. */
  const delivered: MessageStatusNotification = {
    kind: 'message_status',
    message_id: 'wamid.0',
    status: 'delivered',
    reference: messageReference('s1', 0, 0),
    at: Date.parse('2026-10-31T12:00:00Z'),
    waba_id: '100200300',
    recipient: '5215512345678',
    pricing: { category: 'marketing', type: 'regular', billable: true },
  };

  /** Client 7's sent message, its WABA kept in India, its status applied at `appliedAt`: the month it is filed under. */
  async function filedUnder(appliedAt: string, zones: Record<number, string> = {}) {
    const world = memoryWorld(directoryWith(zones));
    const base = { client_id: 7, did: DID, template: { name: 'order_update', language: 'es' }, created_at: 'now', total: 1, jobs: 1 };
    await world.sends.begin({ send_id: 's1', status: 'queuing', ...base });
    const lease = { holder: 'h', untilMs: Date.now() + 60_000 };
    await world.blocks.claimBlock('s1', block, lease, Date.now());
    await world.blocks.settleBlock('s1', block, [{ kind: 'sent', message_id: 'wamid.0' }], lease);
    const known = new MemoryKnownCurrencies();
    await known.put('100200300', 'USD', new Date(Date.parse(appliedAt) - 60_000).toISOString(), INDIA);
    const currencies = new KeptBillingCurrencies({ known, upstream: world.upstream, log: silentLog, now: () => Date.parse(appliedAt) });
    world.sendTable.clock = () => Date.parse(appliedAt);
    await applyMessageStatuses({ ...world, currencies, tiers: undefined, priceLists: undefined, clients: world.directory }, [delivered]);
    return Object.keys(world.sendTable.lateLedger).map((key) => key.split('|')[0]);
  }

  it('files it under November when applied at 19:00 UTC on 2 November, past India’s close; on time at 18:00', async () => {
    // Act
    const late = await filedUnder('2026-11-02T19:00:00Z');
    const onTime = await filedUnder('2026-11-02T18:00:00Z');
    // Assess
    expect(late).toEqual(['2026-11']);
    expect(onTime).toEqual([]);
  });

  it('marks it by the zone BSP_CN set for the client where there is one', async () => {
    // Act
    const late = await filedUnder('2026-11-02T19:00:00Z', { 7: 'UTC' });
    // Assess
    expect(late).toEqual([]);
  });
});
