import { describe, expect, it } from 'vitest';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { ANALYTICS_PAGES, readPricingAnalytics } from '#lib/adapters/graph/pricing-analytics.ts';
import { UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { memoryWorld } from '../support/memory/world.ts';

/** Graph's pricing_analytics in pages (issue 51): every page of a day is read, on our own base and credentials. */
const WABA = '100200300';
const DAY_START = Date.parse('2026-11-19T00:00:00Z') / 1000;
const point = (country: string) => ({
  start: DAY_START,
  end: DAY_START + 86_400,
  country,
  pricing_category: 'MARKETING',
  volume: 1,
  cost: 0.05,
});

/** A Graph client answering each call from `pages` in turn (a page's `next` as given), and what it was asked. */
function graphAnswering(pages: unknown[]) {
  const seen: { url: string; authorization: string }[] = [];
  const fetch = (async (url: URL, init: RequestInit) => {
    seen.push({ url: String(url), authorization: (init.headers as Record<string, string>).authorization });
    return new Response(JSON.stringify(pages[Math.min(seen.length - 1, pages.length - 1)]), { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  return {
    graph: new GraphClient({ baseUrl: 'https://graph.test', token: async () => 'secret-token', fetch, baseDelayMs: 1, log: silentLog }),
    seen,
  };
}

describe('pricing_analytics in pages (Graph adapter)', () => {
  it('reads every page the emulator gives, so a day of many points is whole', async () => {
    // Prepare: Meta's books of one day in five countries, answered two data points a page
    const world = memoryWorld();
    for (const country of ['MX', 'BR', 'AR', 'CO', 'IN'])
      world.emulator.pricing.delivered.push({
        waba_id: WABA,
        phone_number: '5215550001',
        day: '2026-11-19',
        country,
        category: 'marketing',
        type: 'regular',
        micros: 10_000,
        currency: 'USD',
      });
    world.emulator.pricing.pageSizes.set(WABA, 2);
    // Act
    const entries = await world.upstream.pricingAnalytics(WABA, DAY_START, DAY_START + 86_400);
    // Assess: three pages asked, each after the last; every country once
    const reads = world.emulator.calls.filter((c) => c.path.endsWith(`/${WABA}`));
    expect(reads).toHaveLength(3);
    expect(reads.slice(1).every((c) => c.query.fields.includes('.after('))).toBe(true);
    expect(entries.map((e) => e.country).sort()).toEqual(['AR', 'BR', 'CO', 'IN', 'MX']);
    expect(entries.every((e) => e.micros === 10_000 && e.volume === 1)).toBe(true);
  });

  it('asks a next page on its own Graph base, with the token in the header only, in the edge’s own shape', async () => {
    // Prepare: a first page whose next URL names another host and carries an access_token
    const next = 'https://graph.facebook.com/v23.0/100200300/pricing_analytics?access_token=leaked&after=QUFB&limit=1';
    const { graph, seen } = graphAnswering([
      { pricing_analytics: { data: [{ data_points: [point('MX')] }], paging: { cursors: { after: 'QUFB' }, next } }, id: WABA },
      { data: [{ data_points: [point('BR')] }], paging: { cursors: { before: 'QUFB' } } },
    ]);
    // Act
    const entries = await readPricingAnalytics(graph, WABA, DAY_START, DAY_START + 86_400);
    // Assess
    expect(entries.map((e) => e.country)).toEqual(['MX', 'BR']);
    expect(seen[1].url).toBe('https://graph.test/v24.0/100200300/pricing_analytics?after=QUFB&limit=1');
    expect(seen[1].authorization).toBe('Bearer secret-token');
  });

  it('fails the read, never takes part of a day, when the pages never end', async () => {
    // Prepare: a next page that names itself, and pages that name a new cursor each time
    const again = 'https://graph.test/v23.0/100200300/pricing_analytics?after=same';
    const looping = graphAnswering([{ data: [{ data_points: [point('MX')] }], paging: { next: again } }]);
    let n = 0;
    const endlessGraph = new GraphClient({
      baseUrl: 'https://graph.test',
      token: async () => 't',
      log: silentLog,
      fetch: (async () =>
        new Response(JSON.stringify({ data: [], paging: { next: `https://graph.test/v23.0/x?after=${n++}` } }))) as unknown as typeof fetch,
    });
    // Act
    const loop = readPricingAnalytics(looping.graph, WABA, DAY_START, DAY_START + 86_400);
    const never = readPricingAnalytics(endlessGraph, WABA, DAY_START, DAY_START + 86_400);
    // Assess
    await expect(loop).rejects.toBeInstanceOf(UpstreamUnavailable);
    await expect(never).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(looping.seen).toHaveLength(2);
    expect(n).toBe(ANALYTICS_PAGES);
  });
});
