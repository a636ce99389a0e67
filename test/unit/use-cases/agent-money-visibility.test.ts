import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { directoryEntities } from '#lib/adapters/directory-file.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { estimateOf, inClientPrice } from '#lib/domain/money/pricing/estimate.ts';
import type { PriceList } from '#lib/domain/money/pricing/price-list.ts';
import type { PriceTable } from '#lib/domain/money/pricing/price-table.ts';
import type { PricingCategory } from '#lib/domain/money/pricing/rate-card.ts';
import { moneyShown, sees, WHO_SEES, viewerOf } from '#lib/domain/money/pricing/visibility.ts';
import { getPriceLists, putPriceList } from '#lib/domain/money/price-lists.ts';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import { shownEstimate } from '#lib/domain/sends/accept/send-estimate.ts';
import { getSend, listSends, sendStatusOf } from '#lib/domain/sends/send-status.ts';
import { PriceListsResponse } from '#lib/schemas/price-list.ts';
import { Estimate as EstimateSchema } from '#lib/schemas/send.ts';
import { MemoryPriceListStore } from '../../support/memory/money/price-list-store.ts';
import { MemorySendRecords } from '../../support/memory/sends/send-records.ts';
import { MemorySendTable } from '../../support/memory/sends/send-table.ts';
import { MemoryDirectoryStore } from '../../support/memory/shared/directory-store.ts';
import { bspCaller, callerOf, DEMO_FIXTURE } from '../../support/memory/world.ts';

/**
 * Agents never see Meta's cost, the margin or the markup where their client has a price list (decisions §32, issue
 * 52 item 2), on in-memory stores: the price list as a table of prices, estimates that name what they cannot
 * price, and a send accepted before its list started.
 */
const agent = callerOf(7);
const bsp = bspCaller(7);
const TODAY = '2026-11-25';
const NOW = `${TODAY}T10:00:00.000Z`;
const MEXICO = '5215550000';
const BRAZIL = '5511955550000';
const rate = (market: string, category: PricingCategory = 'marketing', day = TODAY) => rateCards.priceMicros(market, category, day);

const list = (extra: Partial<PriceList> = {}): PriceList => ({
  client_id: 7,
  effective_from: TODAY,
  currency: 'USD',
  markup_percent: 20,
  created_at: NOW,
  ...extra,
});

async function listsWorld(...lists: PriceList[]) {
  const priceLists = new MemoryPriceListStore();
  for (const one of lists) await priceLists.put({ ...one, created_at: '2026-11-01T00:00:00.000Z' });
  return { priceLists, directory: new MemoryDirectoryStore(directoryEntities(DEMO_FIXTURE)), now: () => NOW };
}

describe('who sees each money figure (visibility.ts)', () => {
  it('shows BSP_CN every figure, an agent of a priced client the price alone, an agent of an unpriced one the cost', () => {
    // Act
    const table = (['bsp', 'agent_of_priced_client', 'agent_of_unpriced_client'] as const).map((viewer) =>
      Object.keys(WHO_SEES).filter((figure) => sees(viewer, figure as keyof typeof WHO_SEES)),
    );
    // Assess
    expect(table).toEqual([['cost', 'price', 'margin', 'markup'], ['price'], ['cost']]);
    expect(viewerOf(agent, true)).toBe('agent_of_priced_client');
    expect(moneyShown(agent, true)).toEqual({ cost: false, price: true, margin: false });
    expect(moneyShown(bsp, true)).toEqual({ cost: true, price: true, margin: true });
  });
});

describe('a price list as its client’s agent sees it (decisions §32)', () => {
  it('is a table of the prices the markup gives on the card in force, never the markup; BSP_CN sees the list as set', async () => {
    // Prepare
    const deps = await listsWorld(list({ prices: { Mexico: { marketing: 0.05 } } }));
    // Act
    const own = await getPriceLists(deps, agent, 7);
    const byBsp = await getPriceLists(deps, bsp, 7);
    // Assess
    expect(v.is(PriceListsResponse, own)).toBe(true);
    const shown = own.in_force as PriceTable;
    expect(shown.markup_percent).toBeUndefined();
    expect(JSON.stringify(own)).not.toContain('markup');
    expect(shown.rate_card).toBe('meta-2026-10-01-USD');
    expect(shown.prices?.Mexico?.marketing).toBe(0.05);
    expect(shown.prices?.Brazil?.marketing).toBe(Math.round((rate('Brazil') * 120) / 100) / 1e6);
    expect(shown.prices?.Brazil?.utility).toBe(Math.round((rate('Brazil', 'utility') * 120) / 100) / 1e6);
    expect(Object.keys(shown.prices ?? {})).toEqual(Object.keys(rateCards.inForce(TODAY).card.markets).sort());
    expect(byBsp.in_force).toMatchObject({ markup_percent: 20, prices: { Mexico: { marketing: 0.05 } } });
  });

  it('names the markets a list in a currency without a card cannot price, and shows no figure for them', async () => {
    // Prepare: no EUR card is in force in November 2026: a markup on EUR has no EUR cost to apply to
    const deps = await listsWorld(list({ effective_from: '2026-12-01', currency: 'EUR', prices: { Mexico: { marketing: 0.04 } } }));
    // Act
    const own = await getPriceLists(deps, agent, 7);
    // Assess
    const upcoming = own.upcoming[0] as PriceTable;
    expect(upcoming.prices).toEqual({ Mexico: { marketing: 0.04 } });
    expect(upcoming.unpriced_markets).toContain('Brazil');
    expect(upcoming.unpriced_markets).toContain('Mexico');
  });

  it('is answered as the table to an agent after BSP_CN puts it, while BSP_CN’s own answer keeps the markup', async () => {
    // Prepare
    const deps = await listsWorld();
    // Act
    const put = await putPriceList(deps, bsp, 7, { effective_from: TODAY, currency: 'USD', markup_percent: 35 });
    const own = await getPriceLists(deps, agent, 7);
    // Assess
    expect(put.in_force?.markup_percent).toBe(35);
    expect(own.in_force?.markup_percent).toBeUndefined();
    expect(own.in_force?.prices?.Brazil?.marketing).toBe(Math.round((rate('Brazil') * 135) / 100) / 1e6);
  });
});

describe('an estimate for an agent of a priced client (decisions §32)', () => {
  const cost = () => estimateOf(rateCards, [MEXICO, BRAZIL], 'MARKETING', Date.parse(NOW));

  it('names a market its list cannot price, leaves it out of the amount and never fills it with Meta’s cost', () => {
    // Prepare: a EUR list with a fixed price for Mexico alone, on a USD estimate
    const lists = [list({ currency: 'EUR', markup_percent: 10, prices: { Mexico: { marketing: 0.04 } } })];
    // Act
    const priced = inClientPrice(cost(), lists, 'MARKETING', Date.parse(NOW));
    const shown = shownEstimate(priced, agent);
    // Assess
    expect(v.is(EstimateSchema, shown)).toBe(true);
    expect(shown).toMatchObject({ currency: 'EUR', amount: 0.04, unpriced_markets: ['Brazil'] });
    expect(shown.by_market).toEqual({ Brazil: { messages: 1 }, Mexico: { messages: 1, amount: 0.04 } });
    expect(shown).not.toHaveProperty('cost');
    expect(shownEstimate(priced, bsp).cost).toEqual({ currency: 'USD', amount: cost().amount });
  });

  it('prices a scheduled send on the day it goes: a list that starts before then prices all of it', () => {
    // Prepare: the list starts on 2026-12-01; the send is accepted today and goes on 2026-12-02
    const lists = [list({ effective_from: '2026-12-01', markup_percent: 50 })];
    // Act
    const shown = shownEstimate(inClientPrice(cost(), lists, 'MARKETING', Date.parse('2026-12-02T09:00:00Z')), agent);
    // Assess
    expect(shown.unpriced_markets).toBeUndefined();
    expect(shown.price_list).toBe('2026-12-01');
    expect(shown.by_market.Brazil.amount).toBe(Math.round((rate('Brazil') * 150) / 100) / 1e6);
  });

  it('names every market of a send that goes before its client’s first list starts: no cost shown', () => {
    // Prepare
    const lists = [list({ effective_from: '2026-12-01' })];
    // Act
    const shown = shownEstimate(inClientPrice(cost(), lists, 'MARKETING', Date.parse(NOW)), agent);
    // Assess
    expect(shown).toMatchObject({ amount: 0, unpriced_markets: ['Brazil', 'Mexico'] });
    expect(Object.values(shown.by_market).map((m) => m.amount)).toEqual([undefined, undefined]);
  });

  it('is Meta’s cost, unchanged, for a client without a price list: that is what it pays', () => {
    // Act
    const shown = shownEstimate(inClientPrice(cost(), [], 'MARKETING', Date.parse(NOW)), agent);
    // Assess
    expect(shown.amount).toBe(cost().amount);
    expect(shown.unpriced_markets).toBeUndefined();
  });
});

describe('a send accepted before its client’s list started (decisions §32)', () => {
  const spanning = (): SendRecord => ({
    send_id: 'send-span',
    client_id: 7,
    did: '15550000001',
    template: { name: 'promo', language: 'en_US' },
    status: 'queuing',
    created_at: '2026-11-30T23:00:00.000Z',
    total: 2,
    jobs: 1,
    // One message delivered before the list started (no price), one after (priced at 0.05).
    charges: { marketing: { messages: 2, billable: 2, micros: 2 * 31_100, price_micros: 50_000 } },
  });

  it('shows its agent no cost, on the send and in the list of sends; BSP_CN still sees it', async () => {
    // Prepare
    const sends = new MemorySendRecords(new MemorySendTable());
    await sends.begin(spanning());
    await sends.settle(spanning(), 'queued');
    const deps = { sends, priceLists: new MemoryPriceListStore() };
    // Act
    const own = await getSend(deps, agent, 'send-span');
    const listed = await listSends(deps, agent, {});
    const byBsp = await getSend(deps, bsp, 'send-span');
    // Assess
    expect(own).not.toHaveProperty('cost');
    expect(listed.data[0]).not.toHaveProperty('cost');
    expect(JSON.stringify([own, listed])).not.toContain('0.0622');
    expect(byBsp.cost?.amount).toBe(0.0622);
  });

  it('carries no cost in an event of a send billed wholly at Meta’s cost (its client may have a list by now)', () => {
    // Prepare: delivered before any list, so not priced
    const beforeList: SendRecord = { ...spanning(), charges: { marketing: { messages: 2, billable: 2, micros: 2 * 31_100 } } };
    // Act
    const event = sendStatusOf(beforeList);
    // Assess
    expect(event).not.toHaveProperty('cost');
    expect(JSON.stringify(event)).not.toContain('0.0622');
  });

  it('carries no cost in the send status its client’s webhooks get (a paused or resumed send’s event)', () => {
    // Act
    const event = sendStatusOf(spanning());
    // Assess
    expect(event).not.toHaveProperty('cost');
    expect(event).not.toHaveProperty('margin');
  });
});
