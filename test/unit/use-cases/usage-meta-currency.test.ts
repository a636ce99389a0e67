import { describe, expect, it } from 'vitest';
import { readPricingAnalytics } from '#lib/adapters/graph/pricing-analytics.ts';
import type { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import type { LedgerEntry, MetaShare } from '#lib/domain/money/ports.ts';
import { usage } from '#lib/domain/money/usage.ts';
import { csvOf } from '#lib/http/csv.ts';
import { USAGE_CSV } from '#lib/schemas/usage.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { bspCaller, memoryWorld } from '../../support/memory/world.ts';

/**
 * `meta_amount` carries Meta's currency (decisions §31, issue 53 item 6): Meta's figure stands beside the row of its
 * groups with `meta_currency` where it is not the row's, and figures of two currencies are never one sum. Client 7
 * has WABAs 100200300 (billed in INR, which has no card that day: priced in USD) and 100200301 (EUR).
 */
const DAY = '2026-11-02';
const INDIA = { day: DAY, did: '+52 1 555 000 1', market: 'India', category: 'marketing' };

function usageWith(entries: [string, LedgerEntry][], shares: [string, MetaShare[]][]) {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  for (const [waba, entry] of entries) ledger.charge(waba, 7, entry);
  for (const [waba, own] of shares) void ledger.putMetaShares(7, waba, DAY, own);
  const deps = { ledger, directory: world.directory, sends: { list: async () => ({ sends: [], total: 0 }) }, priceLists: world.priceLists };
  return usage(deps, bspCaller(), { client_id: 7, from: DAY, to: DAY, group_by: 'market' });
}

describe('Meta’s figures in Meta’s currency on usage rows (decisions §31)', () => {
  it('names Meta’s INR beside a row priced in USD, and keeps an EUR figure of the same market apart', async () => {
    // Prepare
    const priced: LedgerEntry = { ...INDIA, currency: 'USD', currency_mismatch: true, messages: 2, billable: 2, micros: 23_600 };
    const inRupees: MetaShare = { day: DAY, market: 'India', category: 'marketing', volume: 2, micros: 1_726_200, currency: 'INR' };
    const inEuro: MetaShare = { day: DAY, market: 'India', category: 'marketing', volume: 1, micros: 50_000, currency: 'EUR' };
    // Act
    const answer = await usageWith(
      [['100200300', priced]],
      [
        ['100200300', [inRupees]],
        ['100200301', [inEuro]],
      ],
    );
    // Assess: 1.7262 INR is not added to 0.05 EUR, and neither is labelled USD, in JSON or CSV
    expect(answer.data).toEqual([
      expect.objectContaining({ market: 'India', currency: 'EUR', messages: 0, meta_amount: 0.05 }),
      expect.objectContaining({ market: 'India', currency: 'USD', amount: 0.0236, meta_amount: 1.7262, meta_currency: 'INR' }),
    ]);
    expect(answer.data[0]).not.toHaveProperty('meta_currency');
    expect(csvOf(answer.data, USAGE_CSV).split('\r\n').slice(1, 3)).toEqual([
      '7,2026-11-02,2026-11-02,,India,,,,,EUR,0,0,0.0000,,,,0.0500,',
      '7,2026-11-02,2026-11-02,,India,,,,,USD,2,2,0.0236,,,,1.7262,INR',
    ]);
  });

  it('sums Meta’s figures of one currency on the row in it, without naming the currency twice', async () => {
    // Prepare
    const priced: LedgerEntry = { ...INDIA, currency: 'USD', messages: 3, billable: 3, micros: 35_400 };
    const part = (micros: number): MetaShare => ({ day: DAY, market: 'India', category: 'marketing', volume: 1, micros });
    // Act
    const answer = await usageWith(
      [['100200300', priced]],
      [
        ['100200300', [part(11_800)]],
        ['100200301', [part(23_600)]],
      ],
    );
    // Assess
    expect(answer.data).toEqual([expect.objectContaining({ currency: 'USD', amount: 0.0354, meta_amount: 0.0354 })]);
    expect(answer.data[0]).not.toHaveProperty('meta_currency');
  });
});

describe('pricing_analytics read with the WABA’s currency (Graph adapter)', () => {
  /** A Graph client answering one page of a WABA billed in `currency` (none: Graph leaves it out). */
  const graphOf = (currency?: string): GraphClient & { asked: string[] } => {
    const asked: string[] = [];
    const point = {
      start: 1_762_041_600,
      phone_number: '+52 1 555 000 1',
      country: 'IN',
      pricing_category: 'MARKETING',
      volume: 2,
      cost: 1.7262,
    };
    const request = async (_method: string, _path: string, options?: { query?: Record<string, string> }) => {
      asked.push(options?.query?.fields ?? '');
      return { pricing_analytics: { data: [{ data_points: [point] }] }, ...(currency && { currency }), id: '100200300' };
    };
    return { request, asked } as unknown as GraphClient & { asked: string[] };
  };

  it('asks the currency beside the figures and keeps it on each point but USD, Meta’s default', async () => {
    // Prepare
    const [rupees, dollars, unsaid] = [graphOf('INR'), graphOf('USD'), graphOf()];
    // Act
    const [inRupees, inDollars, notSaid] = await Promise.all(
      [rupees, dollars, unsaid].map((graph) => readPricingAnalytics(graph, '100200300', 0, 86_400)),
    );
    // Assess
    expect(rupees.asked[0]).toMatch(/,currency$/);
    expect(inRupees).toEqual([expect.objectContaining({ country: 'IN', micros: 1_726_200, currency: 'INR' })]);
    expect(inDollars[0]).not.toHaveProperty('currency');
    expect(notSaid[0]).not.toHaveProperty('currency');
  });
});
