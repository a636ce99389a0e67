import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  BILLING_CURRENCIES,
  CARD_FILES,
  MISSING_CARDS,
  REGION_MAPS,
  rateCards,
  regionMapOn,
} from '#lib/domain/money/pricing/cards/index.ts';
import { cardIdOf, OTHER_MARKET, type PricingCategory, type RegionMap, type Tier } from '#lib/domain/money/pricing/rate-card.ts';
import { KNOWN_REGIONS } from '#lib/domain/money/pricing/region.ts';

/**
 * Meta's rate cards as data (decisions §26, docs/rate-cards.md): every card covers every region the phone-number
 * library knows, prices every market it names, cites its sources, and agrees, row by row, with what a source
 * other than the card itself printed. A new card, or a new `null` rate, fails here until docs/rate-cards.md and
 * the tables below say what it is.
 */
const ROOT = join(import.meta.dirname, '../..');
const guide = readFileSync(join(ROOT, 'docs/rate-cards.md'), 'utf8');

/** The first day of every quarter with a USD card: Meta's per-message pricing started on 2025-07-01. */
const USD_CARD_DATES = ['2025-07-01', '2025-10-01', '2026-01-01', '2026-04-01', '2026-07-01', '2026-10-01'];
const FIRST_DAY = USD_CARD_DATES[0];
const NEWEST_DAY = USD_CARD_DATES.at(-1)!;
const LISTED_RATES = ['marketing', 'utility', 'authentication'] as const;

/**
 * The rates Meta has that no source gave (`null` in the card file), as docs/rate-cards.md lists them under "Known
 * gaps": Meta gives the nine markets of 2026-10-01 an authentication-international rate that no source printed.
 */
const KNOWN_GAPS = [
  'meta-2026-10-01-USD Bangladesh authentication_international',
  'meta-2026-10-01-USD Iraq authentication_international',
  'meta-2026-10-01-USD Kazakhstan authentication_international',
  'meta-2026-10-01-USD Kuwait authentication_international',
  'meta-2026-10-01-USD Morocco authentication_international',
  'meta-2026-10-01-USD Nepal authentication_international',
  'meta-2026-10-01-USD Oman authentication_international',
  'meta-2026-10-01-USD Sri Lanka authentication_international',
  'meta-2026-10-01-USD Ukraine authentication_international',
  // tobachat's AED row of Egypt is cut off before this column (decisions §31: nothing converted from USD)
  'meta-2026-10-01-AED Egypt authentication_international',
];

type RegionMapFile = RegionMap & { notes_by_region?: Record<string, string> };
const cards = rateCards.all().map((card) => [cardIdOf(card), card] as const);
/** Cards that give every market of their date; a partial one gives only the markets a source printed (decisions §31). */
const wholeCards = cards.filter(([, card]) => !card.partial);
const partialCards = cards.filter(([, card]) => card.partial);
const usdCardOf = (date: string) => rateCards.all().find((card) => card.currency === 'USD' && card.effective_from === date)!;
const maps = REGION_MAPS.map((map) => [map.effective_from, map as RegionMapFile] as const);
/** The categories a row or market has a rate for: authentication-international only where it has one. */
const categoriesOf = (rates: { authentication_international?: number | null }): PricingCategory[] => [
  ...LISTED_RATES,
  ...(rates.authentication_international === undefined ? [] : (['authentication_international'] as const)),
];
const micros = (amount: number) => Math.round(amount * 1_000_000);

describe('every region has a market on every card (decisions §26)', () => {
  it.each(wholeCards)('%s names every region the library knows, each in a market the card prices', (_, card) => {
    // Prepare
    const map = card.regions.regions;
    // Act
    const leftOut = [...KNOWN_REGIONS.keys()].filter((region) => !Object.hasOwn(map, region));
    const unpriced = Object.entries(map).filter(([, market]) => !Object.hasOwn(card.markets, market));
    // Assess
    expect(leftOut).toEqual([]);
    expect(unpriced).toEqual([]);
    expect(card.markets).toHaveProperty(OTHER_MARKET);
  });

  it.each(partialCards)('%s gives only markets its date’s USD card prices, under the same names, and its date’s region map', (_, card) => {
    // Prepare
    const usd = usdCardOf(card.effective_from);
    // Act
    const unknown = Object.keys(card.markets).filter((market) => !Object.hasOwn(usd.markets, market));
    // Assess
    expect(Object.keys(card.markets).length).toBeGreaterThan(0);
    expect(unknown).toEqual([]);
    expect(card.regions).toBe(usd.regions);
  });

  it.each(cards)('%s puts a region in Other only where its region map lists it as Other', (_, card) => {
    // Prepare
    const mapOfTheDay = regionMapOn(card.effective_from).regions;
    // Act
    const marketOf = (region: string) => rateCards.marketOfRegion(region, card.effective_from);
    const wrong = [...KNOWN_REGIONS.keys()].filter(
      (region) => card.regions.regions[region] !== mapOfTheDay[region] || marketOf(region) !== mapOfTheDay[region],
    );
    // Assess
    expect(wrong).toEqual([]);
  });

  it.each(maps)('the region map of %s names no region the library does not know', (_, map) => {
    // Act
    const unknown = Object.keys(map.regions).filter((region) => !KNOWN_REGIONS.has(region));
    // Assess
    expect(unknown).toEqual([]);
  });
});

describe('every card is complete and sourced (decisions §26)', () => {
  it.each(cards)('%s gives every market a marketing, utility and authentication rate above 0', (_, card) => {
    // Act
    const missing = Object.entries(card.markets).flatMap(([market, rates]) =>
      categoriesOf(rates)
        .filter((category) => !(typeof rates[category] === 'number' && Number.isFinite(rates[category]) && rates[category] > 0))
        .map((category) => `${market} ${category}`),
    );
    // Assess
    expect(missing).toEqual([]);
  });

  it.each(cards)('%s cites at least two sources (a partial card one), each with its title, address and the day it was taken', (_, card) => {
    // Act
    const incomplete = card.sources.filter((source) => !source.title || !source.url || !/^\d{4}-\d{2}-\d{2}$/.test(source.taken_on));
    // Assess
    expect(card.sources.length).toBeGreaterThanOrEqual(card.partial ? 1 : 2);
    expect(incomplete).toEqual([]);
  });

  it.each(cards)('%s says why it kept each value its sources disagree on', (_, card) => {
    // Act
    const unexplained = card.disagreements.filter((row) => !row.why?.trim());
    // Assess
    expect(unexplained).toEqual([]);
  });

  it('has a USD card for every quarter from 2025-07-01 to 2026-10-01, and no card outside those dates', () => {
    // Prepare
    const all = rateCards.all();
    // Act
    const usdDates = all.filter((card) => card.currency === 'USD').map((card) => card.effective_from);
    const outside = all.filter((card) => card.effective_from < FIRST_DAY || card.effective_from > NEWEST_DAY).map(cardIdOf);
    // Assess
    expect(usdDates).toEqual(USD_CARD_DATES);
    expect(outside).toEqual([]);
    expect(all.map(cardIdOf).sort()).toEqual(CARD_FILES.map(cardIdOf).sort());
  });

  it('has a null rate only among the known gaps, each one named in docs/rate-cards.md and in its card’s disagreements', () => {
    // Act
    const nulls = CARD_FILES.flatMap((file) =>
      Object.entries(file.markets).flatMap(([market, rates]) =>
        Object.entries(rates)
          .filter(([, rate]) => rate === null)
          .map(([category]) => `${cardIdOf(file)} ${market} ${category}`),
      ),
    );
    const undocumented = KNOWN_GAPS.filter((gap) => {
      const [cardId, ...rest] = gap.split(' ');
      const category = rest.pop()!;
      return !guide.includes(`| ${cardId} | ${rest.join(' ')} | ${category} |`);
    });
    const unrecorded = KNOWN_GAPS.filter((gap) => {
      const file = CARD_FILES.find((card) => gap.startsWith(`${cardIdOf(card)} `))!;
      return !file.disagreements.some((row) => row.kept === null && gap === `${cardIdOf(file)} ${row.market} ${row.category}`);
    });
    // Assess
    expect(nulls.sort()).toEqual([...KNOWN_GAPS].sort());
    expect(undocumented).toEqual([]);
    expect(unrecorded).toEqual([]);
  });

  it('prices a known gap as authentication: Kazakhstan’s authentication-international on 2026-10-01 at its authentication rate', () => {
    // Prepare: OCT (index id 70856709963) prints Kazakhstan authentication 0.018 and no authentication-international.
    const day = '2026-10-01';
    // Act
    const price = rateCards.priceMicros('Kazakhstan', 'authentication_international', day);
    // Assess
    expect(price).toBe(micros(0.018));
  });
});

describe('every null rate names the sources tried (decisions §31, issue 53 item 4)', () => {
  const nullCells = (file: (typeof CARD_FILES)[number]) =>
    Object.entries(file.markets).flatMap(([market, rates]) =>
      Object.entries(rates)
        .filter(([, rate]) => rate === null)
        .map(([category]) => `${market} ${category}`),
    );

  it.each(CARD_FILES.map((file) => [cardIdOf(file), file] as const))('%s names, for each null cell, where it was looked for', (_, file) => {
    // Act
    const named = (file.nulls ?? []).filter((cell) => cell.tried.length > 0 && cell.tried.every((place) => place.trim() !== ''));
    // Assess: each null cell named once with its places tried, and no note for a cell that has a rate
    expect(named.map((cell) => `${cell.market} ${cell.category}`).sort()).toEqual(nullCells(file).sort());
    expect(file.nulls ?? []).toHaveLength(named.length);
  });
});

/**
 * A card in another currency against the USD card of its date (issue 53 item 1): Meta converts every cell at one rate
 * of the quarter, rounded to the card's decimals, so a cell outside its card's band is a typo. India's utility,
 * authentication and authentication-international in INR are set in rupees (×82.1), not converted.
 */
const RATE_BANDS: Record<string, [low: number, high: number]> = {
  'meta-2025-10-01-INR': [73.0, 73.6],
  'meta-2026-01-01-INR': [73.0, 73.6],
  'meta-2026-10-01-INR': [73.0, 73.6],
  'meta-2026-07-01-BRL': [5.14, 5.15],
  'meta-2026-10-01-BRL': [5.14, 5.15],
  'meta-2026-07-01-IDR': [14_260, 14_270],
  'meta-2026-10-01-IDR': [14_260, 14_270],
  'meta-2026-07-01-GBP': [0.715, 0.74],
  'meta-2026-10-01-GBP': [0.715, 0.74],
  'meta-2026-07-01-CLP': [882.5, 883.5],
  // Colombia's 0.0029 against USD 0.0008 is 3.625: a 4-decimal cell of a small rate
  'meta-2026-10-01-AED': [3.62, 3.68],
};
const SET_IN_RUPEES: [low: number, high: number] = [82.0, 82.3];
const setInRupees = (cardId: string, market: string, category: string) =>
  cardId.endsWith('-INR') && market === 'India' && category !== 'marketing';

describe('a card in another currency is the USD card of its date at one rate (issue 53 item 1)', () => {
  const foreign = cards.filter(([id, card]) => card.currency !== 'USD' && id !== 'meta-2026-07-01-EUR');

  it('has a band for every card in another currency but the EUR card of 2026-07-01', () => {
    // Assess
    expect(foreign.map(([id]) => id).sort()).toEqual(Object.keys(RATE_BANDS).sort());
  });

  it.each(foreign)('%s: every cell over the USD card’s cell is within the card’s band', (id, card) => {
    // Prepare
    const usd = usdCardOf(card.effective_from);
    // Act
    const outside = Object.entries(card.markets).flatMap(([market, rates]) =>
      Object.entries(rates).flatMap(([category, rate]) => {
        const [low, high] = setInRupees(id, market, category) ? SET_IN_RUPEES : RATE_BANDS[id];
        const dollars = usd.markets[market]?.[category as PricingCategory];
        // Bangladesh's AED authentication-international has no USD cell to compare (a known USD gap)
        if (dollars === undefined) return category === 'authentication_international' ? [] : [`${market} ${category}: no USD cell`];
        const ratio = rate / dollars;
        return ratio >= low && ratio <= high ? [] : [`${market} ${category}: ${ratio}`];
      }),
    );
    // Assess
    expect(outside).toEqual([]);
  });

  it('fails a typo: India’s INR marketing of 2025-10-01 with a digit changed is outside the band', () => {
    // Prepare
    const [low, high] = RATE_BANDS['meta-2025-10-01-INR'];
    // Act
    const ratio = 0.7946 / usdCardOf('2025-10-01').markets.India.marketing;
    // Assess
    expect(ratio < low || ratio > high).toBe(true);
  });
});

describe('the card index names every currency and card date without a whole card (decisions §31)', () => {
  const named = (currency: string, date: string) => MISSING_CARDS.filter((m) => m.currency === currency && m.effective_from === date);
  const pairs = BILLING_CURRENCIES.flatMap(({ code }) => USD_CARD_DATES.map((date) => [code, date] as const));

  it('knows Meta’s 16 billing currencies, each in docs/research/issue-53/currencies.md', () => {
    // Prepare
    const research = readFileSync(join(ROOT, 'docs/research/issue-53/currencies.md'), 'utf8');
    // Act
    const codes = BILLING_CURRENCIES.map((currency) => currency.code);
    // Assess
    expect(new Set(codes).size).toBe(16);
    expect(codes.filter((code) => !research.includes(code))).toEqual([]);
  });

  it.each(pairs)('%s on %s is a whole card, or named with the places tried (a partial card with its markets)', (currency, date) => {
    // Prepare
    const card = rateCards.all().find((c) => c.currency === currency && c.effective_from === date);
    // Act
    const entries = named(currency, date);
    // Assess
    if (card && !card.partial) expect(entries).toEqual([]);
    else {
      expect(entries).toHaveLength(1);
      expect(entries[0].tried.length).toBeGreaterThan(0);
      expect(entries[0].status === 'partial').toBe(card !== undefined);
      expect(entries[0].markets?.sort()).toEqual(card ? Object.keys(card.markets).sort() : undefined);
    }
  });

  it('names a currency not billed yet only before the day Meta began billing in it', () => {
    // Act
    const wrong = MISSING_CARDS.filter((m) => {
      const since = BILLING_CURRENCIES.find((c) => c.code === m.currency)?.since;
      return (m.status === 'not_billed') !== (since !== null && since !== undefined && m.effective_from < since);
    });
    // Assess
    expect(wrong).toEqual([]);
  });

  it('names only billing currencies and card dates', () => {
    // Act
    const stray = MISSING_CARDS.filter(
      (m) => !BILLING_CURRENCIES.some((c) => c.code === m.currency) || !USD_CARD_DATES.includes(m.effective_from),
    );
    // Assess
    expect(stray).toEqual([]);
  });
});

describe('a partial card prices only the markets it gives (decisions §31)', () => {
  it('prices an INR WABA’s message to India on the INR card and one to Brazil on the USD card, said so', () => {
    // Prepare
    const day = '2026-11-28';
    // Act
    const india = rateCards.inForce(day, 'INR', ['India']);
    const brazil = rateCards.inForce(day, 'INR', ['Brazil']);
    const both = rateCards.inForce(day, 'INR', ['India', 'Brazil']);
    const none = rateCards.inForce(day, 'INR');
    // Assess
    expect(india).toMatchObject({ card: { effective_from: '2026-10-01', currency: 'INR' }, currency_mismatch: false });
    expect(brazil).toMatchObject({ card: { effective_from: '2026-10-01', currency: 'USD' }, currency_mismatch: true });
    expect(both).toMatchObject({ card: { currency: 'USD' }, currency_mismatch: true });
    expect(none).toMatchObject({ card: { currency: 'USD' }, currency_mismatch: true });
    expect(rateCards.priceMicros('India', 'marketing', day, 'INR')).toBe(micros(0.8631));
    expect(rateCards.priceMicros('Brazil', 'marketing', day, 'INR')).toBe(micros(0.0625));
  });

  it('prices on the whole INR card of 2025-10-01 every market, and on no INR card the quarter of 2026-04-01', () => {
    // Act
    const brazil = rateCards.inForce('2025-11-15', 'INR', ['Brazil']);
    const april = rateCards.inForce('2026-05-15', 'INR', ['India']);
    // Assess
    expect(brazil).toMatchObject({ card: { currency: 'INR' }, currency_mismatch: false });
    expect(rateCards.priceMicros('Brazil', 'marketing', '2025-11-15', 'INR')).toBe(micros(4.5808));
    expect(april).toMatchObject({ card: { currency: 'USD' }, currency_mismatch: true });
  });

  it('prices a null cell of a partial card as the market’s authentication rate: Egypt in AED on 2026-10-01', () => {
    // Act
    const price = rateCards.priceMicros('Egypt', 'authentication_international', '2026-10-01', 'AED');
    // Assess
    expect(price).toBe(micros(0.0132));
  });
});

/** A band that starts the message after the one before it ends, at a rate no dearer. */
const follows = (before: Tier, band: Tier) => before.to !== null && band.from === before.to + 1 && band.rate <= before.rate;

/** The cards with volume tiers: April's from Meta's tier CSV, carried to July and October (docs/rate-cards.md §5). */
const TIERED_CARDS = ['meta-2026-04-01-USD', 'meta-2026-07-01-USD', 'meta-2026-10-01-USD'];
const APRIL_TIERS = '2026-04-01';
/** The cards April's bands are carried to, market-category by market-category, where the list rate is April's. */
const CARRIED_TO = ['2026-07-01', '2026-10-01'];
const tieredCards = rateCards
  .all()
  .filter((card) => card.tiers)
  .map((card) => [cardIdOf(card), card] as const);

describe('volume tiers (Meta’s tier CSV of 2026-04-01, carried to 2026-07-01 and 2026-10-01)', () => {
  it('gives tiers on the USD cards of 2026-04-01, 2026-07-01 and 2026-10-01 only', () => {
    // Assess
    expect(tieredCards.map(([id]) => id)).toEqual(TIERED_CARDS);
  });

  it.each(tieredCards)('%s: each market’s bands contiguous from 0, open at the top, never dearer, from the list rate', (_, card) => {
    // Act
    const broken = Object.entries(card.tiers!).flatMap(([market, byCategory]) =>
      Object.entries(byCategory).flatMap(([category, bands]) => {
        const ok =
          bands.length > 0 &&
          bands[0].from === 0 &&
          bands.at(-1)!.to === null &&
          bands.every((band, i) => i === 0 || follows(bands[i - 1], band)) &&
          bands[0].rate === card.markets[market]?.[category as PricingCategory];
        return ok ? [] : [`${market} ${category}`];
      }),
    );
    // Assess
    expect(broken).toEqual([]);
  });

  it.each(CARRIED_TO)(
    'the %s card has April’s bands exactly where its list rate is April’s, and none where it changed or for a market new since April',
    (date) => {
      // Prepare
      const april = usdCardOf(APRIL_TIERS);
      const card = usdCardOf(date);
      const notes = CARD_FILES.find((file) => cardIdOf(file) === cardIdOf(card))!.notes?.join(' ') ?? '';
      // Act
      const aprilCells = Object.entries(april.tiers!).flatMap(([market, byCategory]) =>
        Object.keys(byCategory).map((category) => [market, category as Exclude<PricingCategory, 'marketing'>] as const),
      );
      const unchanged = aprilCells.filter(([market, category]) => card.markets[market]?.[category] === april.markets[market][category]);
      const changed = aprilCells.filter((cell) => !unchanged.includes(cell)).map(([market, category]) => `${market} ${category}`);
      const notCarried = unchanged.filter(
        ([market, category]) => !isDeepStrictEqual(card.tiers![market]?.[category], april.tiers![market][category]),
      );
      const tieredAnyway = aprilCells
        .filter((cell) => !unchanged.includes(cell) && card.tiers![cell[0]]?.[cell[1]] !== undefined)
        .map(([market, category]) => `${market} ${category}`);
      const newMarketsTiered = Object.keys(card.tiers!).filter((market) => !Object.hasOwn(april.markets, market));
      const unnamed = changed.filter((cell) => !notes.includes(cell));
      // Assess: every cell April tiers is carried or left out, the changed ones named in the card's notes
      expect(notCarried.map(([market, category]) => `${market} ${category}`)).toEqual([]);
      expect(tieredAnyway).toEqual([]);
      expect(newMarketsTiered).toEqual([]);
      expect(Object.keys(card.tiers!).sort()).toEqual([...new Set(unchanged.map(([market]) => market))].sort());
      expect(unnamed).toEqual([]);
      expect(notes).toContain('CARRIED from meta-2026-04-01-USD');
    },
  );

  it('leaves without tiers, on 2026-10-01, the six market-categories whose list rate changed from April', () => {
    // Prepare
    const card = usdCardOf('2026-10-01');
    // Act
    const untiered = ['Pakistan', 'Peru', 'South Africa'].flatMap((market) =>
      (['utility', 'authentication'] as const)
        .filter((category) => card.tiers![market]?.[category] === undefined)
        .map((c) => `${market} ${c}`),
    );
    // Assess
    expect(untiered).toHaveLength(6);
    expect(Object.keys(card.tiers!.Pakistan)).toEqual(['authentication_international']);
  });

  /**
   * The tier fragments found for July and October 2026 (docs/research/issue-53/findings-session5.md §1.2), bands as each
   * source prints them (first message of a band as `from`, "--" or "+" as `to: null`): each equals the USD card's
   * bands of its date for its market and category, in thresholds, and in rates where it is in USD (in the steps off
   * the list rate where it is in another currency, since a 4-decimal USD rate rounds its step).
   * Left out: the BRL table of 2026-10-01 (index id 69119156404) says authentication has utility's bands, which April
   * and the July fixture contradict; the INR bands of India (index id 20927514944) are undated.
   */
  const FRAGMENTS: {
    source: string;
    date: string;
    currency: string;
    market: string;
    category: 'utility' | 'authentication';
    bands: Tier[];
  }[] = [
    {
      // MEA: "0.0157 → 0.0149 (>100K) → 0.0141 (>1M) → 0.0133 (>4.5M) → 0.0126 (>40M) → 0.0118 (>80M)"
      source: 'MEA, index id 68321867788',
      date: '2026-07-01',
      currency: 'USD',
      market: 'United Arab Emirates',
      category: 'utility',
      bands: [
        { from: 0, to: 100_000, rate: 0.0157 },
        { from: 100_001, to: 1_000_000, rate: 0.0149 },
        { from: 1_000_001, to: 4_500_000, rate: 0.0141 },
        { from: 4_500_001, to: 40_000_000, rate: 0.0133 },
        { from: 40_000_001, to: 80_000_000, rate: 0.0126 },
        { from: 80_000_001, to: null, rate: 0.0118 },
      ],
    },
    {
      source: 'D-Card, index id 71176599289 (Meta’s USD rate card of 2026-10-01, its volume-tier pages)',
      date: '2026-10-01',
      currency: 'USD',
      market: 'Rest of Africa',
      category: 'utility',
      bands: [
        { from: 0, to: 100_000, rate: 0.004 },
        { from: 100_001, to: 1_000_000, rate: 0.0038 },
        { from: 1_000_001, to: 4_500_000, rate: 0.0036 },
        { from: 4_500_001, to: 40_000_000, rate: 0.0034 },
        { from: 40_000_001, to: 80_000_000, rate: 0.0032 },
        { from: 80_000_001, to: null, rate: 0.003 },
      ],
    },
    {
      // BRL-T prints `{ from: 250_000, to: 2_000_000 }` with each band's top exclusive (its comment): the band's first
      // message is 250,001, as Meta prints it
      source: 'BRL-T, index id 69119156404 (Meta’s BRL PDF of 2026-10-01)',
      date: '2026-10-01',
      currency: 'BRL',
      market: 'Brazil',
      category: 'utility',
      bands: [
        { from: 0, to: 250_000, rate: 0.035 },
        { from: 250_001, to: 2_000_000, rate: 0.0333 },
        { from: 2_000_001, to: 17_000_000, rate: 0.0315 },
        { from: 17_000_001, to: 35_000_000, rate: 0.0298 },
        { from: 35_000_001, to: 70_000_000, rate: 0.028 },
        { from: 70_000_001, to: null, rate: 0.0263 },
      ],
    },
    {
      // A parser's test fixture of Meta's BRL tier CSV, 3 of its 6 bands (so weak)
      source: 'SZ-T, index id 59798159530',
      date: '2026-07-01',
      currency: 'BRL',
      market: 'Brazil',
      category: 'utility',
      bands: [
        { from: 0, to: 250_000, rate: 0.035 },
        { from: 250_001, to: 2_000_000, rate: 0.0333 },
        { from: 70_000_001, to: null, rate: 0.0263 },
      ],
    },
    {
      source: 'SZ-T, index id 59798159530',
      date: '2026-07-01',
      currency: 'BRL',
      market: 'Brazil',
      category: 'authentication',
      bands: [
        { from: 0, to: 500_000, rate: 0.035 },
        { from: 500_001, to: 3_000_000, rate: 0.0333 },
        { from: 20_000_001, to: null, rate: 0.0263 },
      ],
    },
  ];
  /** How far a band's rate is below its list rate, as a fraction (Meta's steps are 5 % each). */
  const offList = (rate: number, list: number) => 1 - rate / list;

  it.each(FRAGMENTS)('$source: $market $category on the $date card has the fragment’s bands', (fragment) => {
    // Prepare
    const bands = usdCardOf(fragment.date).tiers![fragment.market]?.[fragment.category] ?? [];
    const own = rateCards.all().find((card) => card.currency === fragment.currency && card.effective_from === fragment.date)!;
    const list = own.markets[fragment.market][fragment.category];
    // Act
    const matched = fragment.bands.map(
      (printed) => [printed, bands.find((band) => band.from === printed.from && band.to === printed.to)] as const,
    );
    const unmatched = matched.filter(([, band]) => !band).map(([printed]) => `${printed.from}-${printed.to}`);
    const rateOff = matched.filter(
      ([printed, band]) =>
        band &&
        (fragment.currency === 'USD'
          ? band.rate !== printed.rate
          : Math.abs(offList(printed.rate, list) - offList(band.rate, bands[0].rate)) > 0.01),
    );
    // Assess
    expect(unmatched).toEqual([]);
    expect(rateOff).toEqual([]);
    expect(fragment.bands[0].rate).toBe(list);
    if (fragment.bands.length === 6) expect(bands).toHaveLength(6);
  });

  it.each([
    // Meta's USD volume-tier CSV effective 2026-04-01 (raw/ali/USD_volume_tiers_2026-04-01.csv;
    // alihasnainh3techs/daily-pricing-scraper public/USD_volume_tiers.csv@5bce6c1)
    ['India', 'utility', '2026-04-15', 24_999_999, 0.0014],
    ['India', 'utility', '2026-04-15', 25_000_000, 0.0013],
    ['India', 'utility', '2026-04-15', 300_000_000, 0.001],
    ['India', 'authentication', '2026-04-15', 750_000, 0.0013],
    ['Mexico', 'authentication', '2026-04-15', 250_000, 0.0081],
    ['Brazil', 'utility', '2026-04-15', 70_000_000, 0.0051],
    // April's bands carried: MEA (index id 68321867788) prints UAE's July utility tiers
    ['United Arab Emirates', 'utility', '2026-07-15', 100_000, 0.0149],
    ['United Arab Emirates', 'utility', '2026-07-15', 80_000_000, 0.0118],
    ['India', 'utility', '2026-09-30', 25_000_000, 0.0013],
    // D-Card (index id 71176599289) prints Rest of Africa's October utility tiers
    ['Rest of Africa', 'utility', '2026-10-15', 80_000_000, 0.003],
    ['Brazil', 'authentication', '2026-11-28', 20_000_000, 0.0051],
    // List rate at any volume: a rate changed since April (bands unknown), a market new since April
    ['Pakistan', 'utility', '2026-10-15', 300_000_000, 0.015],
    ['South Africa', 'authentication', '2026-10-15', 300_000_000, 0.0095],
    ['Hong Kong', 'utility', '2026-07-15', 300_000_000, 0.026],
    ['Kazakhstan', 'authentication', '2026-10-15', 300_000_000, 0.018],
  ] as const)('prices %s %s on %s after %i messages of the month at %d', (market, category, day, volume, rate) => {
    // Act
    const price = rateCards.priceMicros(market, category, day, 'USD', volume);
    // Assess
    expect(price).toBe(micros(rate));
  });
});

/** One row of a spot table: a number on a day, where it is priced, and the rates a source printed for its market. */
interface Spot {
  digits: string;
  day: string;
  region: string;
  market: string;
  marketing: number;
  utility: number;
  /** Absent only in a table whose source prints no authentication column (its `printed` says so). */
  authentication?: number;
  authentication_international?: number;
}
type Rates = [marketing: number, utility: number, authentication: number];
const spot = (digits: string, day: string, region: string, market: string, rates: Rates, authInternational?: number): Spot => ({
  digits,
  day,
  region,
  market,
  marketing: rates[0],
  utility: rates[1],
  authentication: rates[2],
  ...(authInternational === undefined ? {} : { authentication_international: authInternational }),
});

/** A row of a source that prints marketing and utility only (no authentication column). */
const printedRow = (digits: string, day: string, region: string, market: string, [marketing, utility]: [number, number]): Spot => ({
  digits,
  day,
  region,
  market,
  marketing,
  utility,
});
/** The categories a source without an authentication column prints. */
const MARKETING_AND_UTILITY: readonly PricingCategory[] = ['marketing', 'utility'];

/**
 * Spot tables, one per USD card (and the cards in other currencies), and one more for a card per later source that
 * confirms it (`source`): the prices a source OTHER than the card file printed, taken from the raw copies in
 * /work/scratch/ratecards or the source itself (docs/rate-cards.md names each source with its address). A row whose
 * value no second source prints (carried from a neighbouring card, or derived) says so in its comment. A table whose
 * source prints only some categories names them (`printed`), and its rows assert only those.
 */
const SPOT_TABLES: { card: string; currency: string; source?: string; printed?: readonly PricingCategory[]; rows: Spot[] }[] = [
  {
    card: '2025-07-01',
    currency: 'USD',
    // J7 (index id 30005247748): marketing + utility of 18 countries; SENT (docs.sent.dm, "effective July 1, 2025"):
    // Argentina and the regional rows; PRE_m (index id 35670377019): marketing of all 32 markets. Copies: raw/parsed.json.
    rows: [
      // marketing PRE_m; utility/authentication 0.004 DERIVED (a ×1.1 July-era table ÷ 1.1); XB prints 0.0040 on the Oct card
      spot('12025550123', '2025-07-01', 'US', 'North America', [0.025, 0.004, 0.004]),
      spot('14165550123', '2025-07-15', 'CA', 'North America', [0.025, 0.004, 0.004]),
      // SENT (Rest of Latin America row)
      spot('17875550123', '2025-07-01', 'PR', 'Rest of Latin America', [0.074, 0.0113, 0.0113]),
      // SENT (Other row): +376 (Andorra) is a calling code Meta's table does not list, so Other
      spot('376312345', '2025-07-01', 'AD', OTHER_MARKET, [0.0604, 0.0077, 0.0077]),
      // J7 marketing + utility; authentication CARRIED back from T20 (no July source prints it)
      spot('525512345678', '2025-07-01', 'MX', 'Mexico', [0.0436, 0.0085, 0.0085]),
      // J7 marketing + utility; authentication CARRIED back from T20
      spot('5511987654321', '2025-07-01', 'BR', 'Brazil', [0.0625, 0.0068, 0.0068]),
      // J7 marketing + utility; authentication and authentication-international CARRIED back from T20 (PRE, a pre-July card, prints 0.0280)
      spot('919876543210', '2025-07-01', 'IN', 'India', [0.0107, 0.0014, 0.0014], 0.028),
      // PRE_m marketing; utility/authentication CARRIED back from T20
      spot('442079460958', '2025-07-01', 'GB', 'United Kingdom', [0.0529, 0.022, 0.022]),
      // J7 marketing + utility; authentication CARRIED back from T20
      spot('4930123456', '2025-07-01', 'DE', 'Germany', [0.1365, 0.055, 0.055]),
      // J7 marketing + utility; authentication CARRIED back from T20
      spot('74951234567', '2025-07-01', 'RU', 'Russia', [0.0802, 0.04, 0.04]),
      // As the Russia row: +7 7xx is Kazakhstan, billed by its calling code +7 as Russia up to 2026-09-30
      spot('77012345678', '2025-07-01', 'KZ', 'Russia', [0.0802, 0.04, 0.04]),
      // SENT (Other row): Zimbabwe is Other up to 2025-09-30
      spot('263771234567', '2025-09-30', 'ZW', OTHER_MARKET, [0.0604, 0.0077, 0.0077]),
      // SENT (Argentina row), J7 utility 0.0289
      spot('5491123456789', '2025-07-01', 'AR', 'Argentina', [0.0618, 0.0289, 0.0289]),
      // SENT (Rest of Africa row)
      spot('254712345678', '2025-07-01', 'KE', 'Rest of Africa', [0.0225, 0.004, 0.004]),
    ],
  },
  {
    card: '2025-10-01',
    currency: 'USD',
    // XB: XploreByte "pricing outside India" pricingData, USD (index id 1919361609; undated, its values are the
    // 2025-10-01 card: EG/FR/IN marketing and North America utility before the 2026-01-01 changes). Every row below.
    rows: [
      spot('12025550123', '2025-10-01', 'US', 'North America', [0.025, 0.004, 0.004]),
      spot('14165550123', '2025-12-31', 'CA', 'North America', [0.025, 0.004, 0.004]),
      spot('17875550123', '2025-10-01', 'PR', 'Rest of Latin America', [0.074, 0.0113, 0.0113]),
      spot('376312345', '2025-10-01', 'AD', OTHER_MARKET, [0.0604, 0.0077, 0.0077]),
      spot('525512345678', '2025-10-01', 'MX', 'Mexico', [0.0305, 0.0085, 0.0085]),
      spot('5511987654321', '2025-10-01', 'BR', 'Brazil', [0.0625, 0.0068, 0.0068]),
      spot('919876543210', '2025-10-01', 'IN', 'India', [0.0107, 0.0014, 0.0014], 0.028),
      spot('442079460958', '2025-10-01', 'GB', 'United Kingdom', [0.0529, 0.022, 0.022]),
      spot('4930123456', '2025-10-01', 'DE', 'Germany', [0.1365, 0.055, 0.055]),
      spot('74951234567', '2025-10-01', 'RU', 'Russia', [0.0802, 0.04, 0.04]),
      spot('77012345678', '2025-10-01', 'KZ', 'Russia', [0.0802, 0.04, 0.04]),
      // Zimbabwe moves from Other to Rest of Africa on 2025-10-01 (Meta's changelog; region map 2025-10-01)
      spot('263771234567', '2025-10-01', 'ZW', 'Rest of Africa', [0.0225, 0.004, 0.004]),
      spot('5491123456789', '2025-10-01', 'AR', 'Argentina', [0.0618, 0.026, 0.026]),
      spot('201001234567', '2025-10-01', 'EG', 'Egypt', [0.1073, 0.0036, 0.0036], 0.065),
    ],
  },
  {
    card: '2026-01-01',
    currency: 'USD',
    // T20: Intelli-Holdings/intelli-chatbot my-app/app/whatsapp-broadcast/page.tsx@ea9be95, "effective January 1, 2026"
    // (raw/t20.txt). Every row below.
    rows: [
      spot('12025550123', '2026-01-01', 'US', 'North America', [0.025, 0.0034, 0.0034]),
      spot('14165550123', '2026-01-01', 'CA', 'North America', [0.025, 0.0034, 0.0034]),
      spot('17875550123', '2026-01-01', 'PR', 'Rest of Latin America', [0.074, 0.0113, 0.0113]),
      spot('376312345', '2026-01-01', 'AD', OTHER_MARKET, [0.0604, 0.0077, 0.0077]),
      spot('525512345678', '2026-01-01', 'MX', 'Mexico', [0.0305, 0.0085, 0.0085]),
      spot('5511987654321', '2026-01-01', 'BR', 'Brazil', [0.0625, 0.0068, 0.0068]),
      spot('919876543210', '2026-03-31', 'IN', 'India', [0.0118, 0.0014, 0.0014], 0.028),
      spot('442079460958', '2026-01-01', 'GB', 'United Kingdom', [0.0529, 0.022, 0.022]),
      spot('4930123456', '2026-01-01', 'DE', 'Germany', [0.1365, 0.055, 0.055]),
      spot('74951234567', '2026-01-01', 'RU', 'Russia', [0.0802, 0.04, 0.04]),
      spot('77012345678', '2026-01-01', 'KZ', 'Russia', [0.0802, 0.04, 0.04]),
      spot('263771234567', '2026-01-01', 'ZW', 'Rest of Africa', [0.0225, 0.004, 0.004]),
      spot('923001234567', '2026-01-01', 'PK', 'Pakistan', [0.0473, 0.0054, 0.0054], 0.075),
      spot('966501234567', '2026-01-01', 'SA', 'Saudi Arabia', [0.0455, 0.0107, 0.0107], 0.0598),
    ],
  },
  {
    card: '2026-04-01',
    currency: 'USD',
    // ALI: Meta's own CSV "Cost per message in USD …, effective April 1, 2026", copied by
    // alihasnainh3techs/daily-pricing-scraper public/USD_rates.csv@5bce6c1 (raw/ali/USD_rates_2026-04-01.csv). Every row below.
    rows: [
      spot('12025550123', '2026-04-01', 'US', 'North America', [0.025, 0.0034, 0.0034]),
      spot('14165550123', '2026-04-01', 'CA', 'North America', [0.025, 0.0034, 0.0034]),
      spot('17875550123', '2026-04-01', 'PR', 'Rest of Latin America', [0.074, 0.0113, 0.0113]),
      spot('376312345', '2026-04-01', 'AD', OTHER_MARKET, [0.0604, 0.0077, 0.0077]),
      spot('525512345678', '2026-04-01', 'MX', 'Mexico', [0.0305, 0.0085, 0.0085]),
      spot('5511987654321', '2026-04-01', 'BR', 'Brazil', [0.0625, 0.0068, 0.0068]),
      spot('919876543210', '2026-04-01', 'IN', 'India', [0.0118, 0.0014, 0.0014], 0.0304),
      spot('442079460958', '2026-06-30', 'GB', 'United Kingdom', [0.0529, 0.022, 0.022]),
      spot('4930123456', '2026-04-01', 'DE', 'Germany', [0.1365, 0.055, 0.055]),
      spot('74951234567', '2026-04-01', 'RU', 'Russia', [0.0802, 0.04, 0.04]),
      spot('77012345678', '2026-04-01', 'KZ', 'Russia', [0.0802, 0.04, 0.04]),
      spot('263771234567', '2026-04-01', 'ZW', 'Rest of Africa', [0.0225, 0.004, 0.004]),
      spot('923001234567', '2026-04-01', 'PK', 'Pakistan', [0.0473, 0.01, 0.01], 0.075),
      spot('966501234567', '2026-04-01', 'SA', 'Saudi Arabia', [0.0501, 0.0107, 0.0107], 0.0598),
      spot('905321234567', '2026-04-01', 'TR', 'Turkey', [0.0109, 0.0009, 0.0009]),
    ],
  },
  {
    card: '2026-07-01',
    currency: 'USD',
    // No whole USD table dated July 2026 was found. PIX (Pixel2Tech, index id 71361380605, "rate cards effective July 1,
    // 2026") prints 8 markets; MEA (index id 68321867788, Meta's endpoint, "effective 1 Jul 2026") prints 8 MEA rows with
    // authentication and authentication-international. The other rows are CARRIED from ALI (April; Meta's July list does
    // not name them) or carried BACK from OCT (the six markets new on 2026-07-01); JUL (the table after this one) prints
    // their July marketing and utility, and the July EUR card fits them (ratio ≈ 0.83).
    rows: [
      // PIX "North America (US and Canada)"
      spot('12025550123', '2026-07-01', 'US', 'North America', [0.025, 0.0034, 0.0034]),
      spot('14165550123', '2026-07-01', 'CA', 'North America', [0.025, 0.0034, 0.0034]),
      // CARRIED from ALI; JUL prints marketing and utility, no July source prints authentication
      spot('17875550123', '2026-07-01', 'PR', 'Rest of Latin America', [0.074, 0.0113, 0.0113]),
      spot('376312345', '2026-07-01', 'AD', OTHER_MARKET, [0.0604, 0.0077, 0.0077]),
      spot('525512345678', '2026-07-01', 'MX', 'Mexico', [0.0305, 0.0085, 0.0085]),
      spot('5511987654321', '2026-07-01', 'BR', 'Brazil', [0.0625, 0.0068, 0.0068]),
      spot('919876543210', '2026-07-01', 'IN', 'India', [0.0118, 0.0014, 0.0014], 0.0304),
      // PIX: the United Kingdom's marketing rises to 0.0635 on 2026-07-01
      spot('442079460958', '2026-07-01', 'GB', 'United Kingdom', [0.0635, 0.022, 0.022]),
      // PIX
      spot('4930123456', '2026-07-01', 'DE', 'Germany', [0.1365, 0.055, 0.055]),
      spot('393123456789', '2026-07-01', 'IT', 'Italy', [0.0795, 0.03, 0.03]),
      // CARRIED from ALI; JUL prints marketing and utility, no July source prints authentication
      spot('74951234567', '2026-07-01', 'RU', 'Russia', [0.0802, 0.04, 0.04]),
      spot('77012345678', '2026-07-01', 'KZ', 'Russia', [0.0802, 0.04, 0.04]),
      spot('263771234567', '2026-09-30', 'ZW', 'Rest of Africa', [0.0225, 0.004, 0.004]),
      // CARRIED BACK from OCT (index id 70856709963): Poland is a market of its own from 2026-07-01; JUL prints its
      // marketing and utility, no July source its authentication
      spot('48601234567', '2026-07-01', 'PL', 'Poland', [0.0366, 0.0122, 0.0122]),
      // MEA (index id 68321867788): every category, authentication-international included
      spot('971501234567', '2026-07-01', 'AE', 'United Arab Emirates', [0.0499, 0.0157, 0.0157], 0.051),
      spot('966501234567', '2026-07-01', 'SA', 'Saudi Arabia', [0.0501, 0.0107, 0.0107], 0.0598),
      spot('97433123456', '2026-07-01', 'QA', 'Qatar', [0.0341, 0.012, 0.012]),
      spot('201001234567', '2026-08-15', 'EG', 'Egypt', [0.0644, 0.0036, 0.0036], 0.065),
      spot('2348031234567', '2026-08-15', 'NG', 'Nigeria', [0.0516, 0.0067, 0.0067], 0.075),
      spot('27821234567', '2026-09-30', 'ZA', 'South Africa', [0.0379, 0.0076, 0.0076], 0.02),
    ],
  },
  {
    card: '2026-07-01',
    currency: 'USD',
    source: 'JUL',
    printed: MARKETING_AND_UTILITY,
    // JUL: TS META_PRICING "Tabela de preços Meta API oficial (jul/2026+)", read from Meta's pricing calculator
    // (wp-json/wab/v1/pricing), marketing and utility per country (index id 55170941228). It prints the rows carried back
    // from OCT (the six new markets), the rows carried from ALI, and the kept side of the eleven disagreements.
    rows: [
      printedRow('85291234567', '2026-07-01', 'HK', 'Hong Kong', [0.0732, 0.026]),
      printedRow('6591234567', '2026-07-01', 'SG', 'Singapore', [0.0732, 0.016]),
      printedRow('36201234567', '2026-07-01', 'HU', 'Hungary', [0.086, 0.035]),
      printedRow('48601234567', '2026-08-15', 'PL', 'Poland', [0.0366, 0.0122]),
      printedRow('40712345678', '2026-08-15', 'RO', 'Romania', [0.086, 0.029]),
      printedRow('97433123456', '2026-09-30', 'QA', 'Qatar', [0.0341, 0.012]),
      // the kept side of the card's disagreements (OCT's values are October's)
      printedRow('525512345678', '2026-07-01', 'MX', 'Mexico', [0.0305, 0.0085]),
      printedRow('51912345678', '2026-07-01', 'PE', 'Peru', [0.0703, 0.02]),
      printedRow('27821234567', '2026-07-01', 'ZA', 'South Africa', [0.0379, 0.0076]),
      printedRow('923001234567', '2026-07-01', 'PK', 'Pakistan', [0.0473, 0.01]),
      printedRow('971501234567', '2026-07-01', 'AE', 'United Arab Emirates', [0.0499, 0.0157]),
      printedRow('966501234567', '2026-07-01', 'SA', 'Saudi Arabia', [0.0501, 0.0107]),
      printedRow('639171234567', '2026-07-01', 'PH', 'Rest of Asia Pacific', [0.0732, 0.0113]),
      printedRow('962791234567', '2026-07-01', 'JO', 'Rest of Middle East', [0.0341, 0.0091]),
      // CARRIED from ALI
      printedRow('919876543210', '2026-09-30', 'IN', 'India', [0.0118, 0.0014]),
      // JUL lists these under their July regional markets, before they are markets of their own on 2026-10-01
      printedRow('8801712345678', '2026-09-30', 'BD', 'Rest of Asia Pacific', [0.0732, 0.0113]),
      printedRow('96550012345', '2026-09-30', 'KW', 'Rest of Middle East', [0.0341, 0.0091]),
      printedRow('212612345678', '2026-09-30', 'MA', 'Rest of Africa', [0.0225, 0.004]),
      printedRow('380501234567', '2026-09-30', 'UA', 'Rest of Central & Eastern Europe', [0.086, 0.0212]),
    ],
  },
  {
    card: '2026-10-01',
    currency: 'USD',
    // OCT: TS WHATSAPP_RATES "Meta's official USD rate card … effective 1 Oct 2026" (index id 70856709963;
    // _src/usd_2026-10-01_ts.txt); the only whole USD table of that date, with no authentication-international column.
    // PIX says the 8 markets it prints stay unchanged in October (US, CA, GB, DE rows).
    rows: [
      spot('12025550123', '2026-10-01', 'US', 'North America', [0.025, 0.0034, 0.0034]),
      spot('14165550123', '2026-10-01', 'CA', 'North America', [0.025, 0.0034, 0.0034]),
      spot('17875550123', '2026-10-01', 'PR', 'Rest of Latin America', [0.074, 0.0113, 0.0113]),
      spot('376312345', '2026-10-01', 'AD', OTHER_MARKET, [0.0604, 0.0077, 0.0077]),
      // Mexico marketing 0.0397 is a change Meta's October list does not name (in the card's disagreements); ES (the table
      // after this one) prints it too
      spot('525512345678', '2026-10-01', 'MX', 'Mexico', [0.0397, 0.0085, 0.0085]),
      spot('5511987654321', '2026-10-01', 'BR', 'Brazil', [0.0625, 0.0068, 0.0068]),
      // authentication-international CARRIED from ALI (April): OCT has no such column
      spot('919876543210', '2026-10-01', 'IN', 'India', [0.0118, 0.0014, 0.0014], 0.0304),
      spot('442079460958', '2026-10-01', 'GB', 'United Kingdom', [0.0635, 0.022, 0.022]),
      spot('4930123456', '2026-10-01', 'DE', 'Germany', [0.1365, 0.055, 0.055]),
      spot('74951234567', '2026-10-01', 'RU', 'Russia', [0.0802, 0.04, 0.04]),
      // Kazakhstan is a market of its own from 2026-10-01 (its authentication-international is a known gap); ES prints its
      // marketing and utility, authentication is OCT's alone
      spot('77012345678', '2026-10-01', 'KZ', 'Kazakhstan', [0.0604, 0.018, 0.018]),
      spot('263771234567', '2026-10-01', 'ZW', 'Rest of Africa', [0.0225, 0.004, 0.004]),
      // New markets of 2026-10-01: ES prints their marketing and utility, authentication is OCT's alone
      spot('8801712345678', '2026-10-01', 'BD', 'Bangladesh', [0.0732, 0.0037, 0.0037]),
      spot('212612345678', '2026-10-01', 'MA', 'Morocco', [0.0414, 0.023, 0.023]),
    ],
  },
  {
    card: '2026-10-01',
    currency: 'USD',
    source: 'ES',
    printed: MARKETING_AND_UTILITY,
    // ES: TS META_MARKET_RATES, META_RATE_CARD_EFFECTIVE_DATE = "2026-10-01", "copia a mano del rate card oficial de Meta"
    // (index id 70161666885): marketing, utility and service of all 47 markets, no authentication column. It prints
    // the nine new markets and the changes Meta's October list does not name.
    rows: [
      printedRow('8801712345678', '2026-10-01', 'BD', 'Bangladesh', [0.0732, 0.0037]),
      printedRow('9647901234567', '2026-10-01', 'IQ', 'Iraq', [0.0341, 0.0079]),
      printedRow('77012345678', '2026-10-01', 'KZ', 'Kazakhstan', [0.0604, 0.018]),
      printedRow('96550012345', '2026-10-01', 'KW', 'Kuwait', [0.0792, 0.044]),
      printedRow('212612345678', '2026-10-01', 'MA', 'Morocco', [0.0414, 0.023]),
      printedRow('9779841234567', '2026-10-01', 'NP', 'Nepal', [0.0732, 0.0034]),
      printedRow('96892123456', '2026-11-28', 'OM', 'Oman', [0.0341, 0.0247]),
      printedRow('94771234567', '2026-11-28', 'LK', 'Sri Lanka', [0.0732, 0.002]),
      printedRow('380501234567', '2026-11-28', 'UA', 'Ukraine', [0.086, 0.0298]),
      // the changes Meta's October list does not name (the card's disagreements)
      printedRow('525512345678', '2026-10-01', 'MX', 'Mexico', [0.0397, 0.0085]),
      printedRow('51912345678', '2026-10-01', 'PE', 'Peru', [0.0703, 0.03]),
      printedRow('27821234567', '2026-10-01', 'ZA', 'South Africa', [0.0379, 0.0095]),
      printedRow('971501234567', '2026-10-01', 'AE', 'United Arab Emirates', [0.0576, 0.0157]),
      printedRow('639171234567', '2026-10-01', 'PH', 'Rest of Asia Pacific', [0.0842, 0.0113]),
      printedRow('962791234567', '2026-10-01', 'JO', 'Rest of Middle East', [0.0392, 0.0091]),
      printedRow('966501234567', '2026-10-01', 'SA', 'Saudi Arabia', [0.0576, 0.0107]),
      printedRow('923001234567', '2026-10-01', 'PK', 'Pakistan', [0.0473, 0.015]),
      // markets new on 2026-07-01
      printedRow('85291234567', '2026-10-01', 'HK', 'Hong Kong', [0.0732, 0.026]),
      printedRow('36201234567', '2026-10-01', 'HU', 'Hungary', [0.086, 0.035]),
    ],
  },
  {
    card: '2026-07-01',
    currency: 'EUR',
    // EUR: PHP wa_pricing_rate_seed() "per-message rates in EUR, effective 2026-07-01" (index id 69014075277;
    // _src/eur_2026-07-01_php.txt). PIX prints the same EUR figures for US/CA, GB and DE.
    rows: [
      spot('12025550123', '2026-07-01', 'US', 'North America', [0.0207, 0.0028, 0.0028]),
      spot('442079460958', '2026-07-01', 'GB', 'United Kingdom', [0.0526, 0.0182, 0.0182]),
      spot('4930123456', '2026-07-01', 'DE', 'Germany', [0.1131, 0.0456, 0.0456]),
      spot('919876543210', '2026-07-01', 'IN', 'India', [0.0099, 0.0012, 0.0012], 0.0252),
      spot('48601234567', '2026-07-01', 'PL', 'Poland', [0.0303, 0.0101, 0.0101]),
      // The PHP's Russia row: +7 7xx is Kazakhstan, billed by its calling code +7 as Russia up to 2026-09-30
      spot('77012345678', '2026-07-01', 'KZ', 'Russia', [0.0664, 0.0331, 0.0331]),
    ],
  },
  {
    card: '2025-10-01',
    currency: 'INR',
    // India: digitaltechbyte.com (the rupee-billing article's old rates). The other rows: ONLY the card's own source (index
    // id 21180047369), each the USD card's row at ×73.3 (the band test above).
    rows: [
      spot('919876543210', '2025-10-01', 'IN', 'India', [0.7846, 0.115, 0.115], 2.3),
      spot('5511987654321', '2025-12-31', 'BR', 'Brazil', [4.5808, 0.4984, 0.4984]),
      spot('4930123456', '2025-10-01', 'DE', 'Germany', [10.0073, 4.0322, 4.0322]),
    ],
  },
  {
    card: '2026-01-01',
    currency: 'INR',
    // whats91.com/pricing and digitaltechbyte.com (the rupee-billing article's new rates)
    rows: [spot('919876543210', '2026-03-31', 'IN', 'India', [0.8631, 0.115, 0.115], 2.3)],
  },
  {
    card: '2026-10-01',
    currency: 'INR',
    // ONLY the card's own source (index id 70464847943, quoting Meta's INR sheet of 2026-10-01)
    rows: [spot('919876543210', '2026-11-28', 'IN', 'India', [0.8631, 0.115, 0.115], 2.4971)],
  },
  {
    card: '2026-07-01',
    currency: 'BRL',
    // Brazil: index ids 60787170015, 58564383671 and 59798159530 beside the card's first; Argentina: ONLY 59798159530
    rows: [
      spot('5511987654321', '2026-07-01', 'BR', 'Brazil', [0.3217, 0.035, 0.035]),
      spot('5491123456789', '2026-09-30', 'AR', 'Argentina', [0.3181, 0.1338, 0.1338]),
    ],
  },
  {
    card: '2026-10-01',
    currency: 'BRL',
    // index id 70814694976 (Meta's BRL table of 2026-10-01, consulted 2026-10-09)
    rows: [spot('5511987654321', '2026-11-28', 'BR', 'Brazil', [0.3217, 0.035, 0.035])],
  },
  {
    card: '2026-07-01',
    currency: 'IDR',
    // ONLY the card's own source (index id 70929950981); the reseller's ~3 % higher prices agree
    rows: [spot('6281234567890', '2026-07-01', 'ID', 'Indonesia', [586.33, 356.65, 356.65], 1940.13)],
  },
  {
    card: '2026-10-01',
    currency: 'IDR',
    rows: [spot('6281234567890', '2026-10-01', 'ID', 'Indonesia', [586.33, 356.65, 356.65], 1940.13)],
  },
  {
    card: '2026-07-01',
    currency: 'GBP',
    // ONLY the card's own source (PIX, index id 71361380605), whose USD and EUR columns equal those cards
    rows: [
      spot('442079460958', '2026-07-01', 'GB', 'United Kingdom', [0.0458, 0.0159, 0.0159]),
      spot('12025550123', '2026-09-30', 'US', 'North America', [0.018, 0.0025, 0.0025]),
    ],
  },
  {
    card: '2026-10-01',
    currency: 'GBP',
    // PIX: "Meta's October rate cards keep [these rates] unchanged"
    rows: [spot('4930123456', '2026-10-01', 'DE', 'Germany', [0.0985, 0.0397, 0.0397])],
  },
  {
    card: '2026-07-01',
    currency: 'CLP',
    // ONLY the card's own source (index id 56025517130, Meta's CLP CSV of July 2026)
    rows: [spot('56912345678', '2026-07-01', 'CL', 'Chile', [78.4917, 17.6584, 17.6584])],
  },
  {
    card: '2026-10-01',
    currency: 'AED',
    // ONLY the card's own source (tobachat's dataset viewer); Bangladesh's authentication-international is AED's alone
    rows: [
      spot('5511987654321', '2026-10-01', 'BR', 'Brazil', [0.2295, 0.025, 0.025]),
      spot('8801712345678', '2026-11-28', 'BD', 'Bangladesh', [0.2688, 0.0136, 0.0136], 0.3526),
    ],
  },
];

describe.each(
  SPOT_TABLES.map((table) => [`${table.card} ${table.currency}${table.source ? `, by ${table.source},` : ''}`, table] as const),
)('the %s card prices a number as its source printed', (_, { card, currency, printed, rows }) => {
  it('has at least 12 rows for a USD card', () => {
    // Assess
    expect(rows.length).toBeGreaterThanOrEqual(currency === 'USD' ? 12 : 1);
  });

  it.each(rows)('+$digits on $day is $region, in $market', (row) => {
    // Prepare: a source without an authentication column checks only what it prints
    const categories = printed ?? categoriesOf(row);
    const given = (['authentication', 'authentication_international'] as const).filter((category) => row[category] !== undefined);
    // Act
    const inForce = rateCards.inForce(row.day, currency, [row.market]);
    const place = rateCards.placeOf(row.digits, row.day);
    const priceOf = (category: PricingCategory) => rateCards.priceMicros(place.market, category, row.day, currency);
    const prices = Object.fromEntries(categories.map((category) => [category, priceOf(category)]));
    // Assess
    expect(inForce).toMatchObject({ card: { effective_from: card, currency }, currency_mismatch: false });
    expect(place).toEqual({ region: row.region, market: row.market });
    expect(prices).toEqual(Object.fromEntries(categories.map((category) => [category, micros(row[category]!)])));
    expect(given.every((category) => categories.includes(category))).toBe(true);
  });
});

/**
 * The regions Meta bills by a calling code they share with a country its table lists (docs/rate-cards.md §2,
 * issue 53 item 7), each with that country: its calling code's market is theirs.
 */
const NANP_MEMBERS = [
  'AG',
  'AI',
  'AS',
  'BB',
  'BM',
  'BS',
  'DM',
  'GD',
  'GU',
  'KN',
  'KY',
  'LC',
  'MP',
  'MS',
  'SX',
  'TC',
  'TT',
  'VC',
  'VG',
  'VI',
];
const SHARING_A_LISTED_CODE: Record<string, string> = {
  ...{ GG: 'GB', JE: 'GB', IM: 'GB', AX: 'FI', SJ: 'NO', CC: 'AU', CX: 'AU', VA: 'IT', EH: 'MA' },
  ...Object.fromEntries(NANP_MEMBERS.map((region) => [region, 'US'])),
};
/** Kazakhstan shares +7 with Russia until it is a market of its own (2026-10-01). */
const sharingOn = (day: string): Record<string, string> =>
  day < '2026-10-01' ? { ...SHARING_A_LISTED_CODE, KZ: 'RU' } : SHARING_A_LISTED_CODE;

describe('the region maps bill a shared calling code as Meta does: by the code (issue 53 item 7)', () => {
  it.each(maps)('the map of %s puts no region sharing its calling code with a named region in Other', (_, map) => {
    // Prepare
    const codesNamed = new Set(
      Object.entries(map.regions)
        .filter(([, market]) => market !== OTHER_MARKET)
        .map(([region]) => KNOWN_REGIONS.get(region)),
    );
    // Act
    const sharingOthers = Object.entries(map.regions)
      .filter(([region, market]) => market === OTHER_MARKET && codesNamed.has(KNOWN_REGIONS.get(region)))
      .map(([region]) => region);
    // Assess
    expect(sharingOthers).toEqual([]);
  });

  it.each(maps)('the map of %s gives a region its calling code’s market, with a note naming the code and both sources', (_, map) => {
    // Prepare
    const sharing = Object.entries(sharingOn(map.effective_from));
    const disputed = new Set((map.disagreements ?? []).map((row) => row.region));
    // Act
    const wrong = sharing.filter(([region, listed]) => map.regions[region] !== map.regions[listed]);
    const unsourced = sharing.filter(([region]) => {
      const note = map.notes_by_region?.[region] ?? '';
      return !note.includes(`+${KNOWN_REGIONS.get(region)} `) || !note.includes("Meta's") || !note.includes('wa_recipient_geo()');
    });
    const stillDisputed = sharing.filter(([region]) => disputed.has(region));
    // Assess
    expect(wrong).toEqual([]);
    expect(unsourced).toEqual([]);
    expect(stillDisputed).toEqual([]);
  });

  it.each(maps)('the map of %s keeps, for each disputed region, the market it maps it to, and says why', (_, map) => {
    // Act
    const inconsistent = (map.disagreements ?? []).filter((row) => !row.region || map.regions[row.region] !== row.kept || !row.why?.trim());
    // Assess
    expect(inconsistent).toEqual([]);
  });

  it('puts Kazakhstan in Russia (its calling code +7) until 2026-09-30 and in its own market from 2026-10-01', () => {
    // Act
    const before = rateCards.marketOfRegion('KZ', '2026-09-30');
    const after = rateCards.marketOfRegion('KZ', '2026-10-01');
    // Assess
    expect([before, after]).toEqual(['Russia', 'Kazakhstan']);
  });

  it.each(USD_CARD_DATES)(
    'prices on %s Guernsey’s +44 7911 in United Kingdom, Anguilla’s +1 264 in North America and Andorra’s +376 in Other',
    (day) => {
      // Prepare
      const numbers = { guernsey: '447911123456', anguilla: '12644971234', andorra: '376312345' };
      const marketingIn = (market: string) => rateCards.priceMicros(market, 'marketing', day);
      // Act
      const places = Object.fromEntries(Object.entries(numbers).map(([name, digits]) => [name, rateCards.placeOf(digits, day)]));
      const prices = Object.fromEntries(Object.entries(places).map(([name, place]) => [name, marketingIn(place.market)]));
      // Assess
      expect(places).toEqual({
        guernsey: { region: 'GG', market: 'United Kingdom' },
        anguilla: { region: 'AI', market: 'North America' },
        andorra: { region: 'AD', market: OTHER_MARKET },
      });
      expect(prices).toEqual({
        guernsey: marketingIn('United Kingdom'),
        anguilla: marketingIn('North America'),
        andorra: marketingIn(OTHER_MARKET),
      });
      expect(new Set(Object.values(prices)).size).toBe(3);
    },
  );
});
