import { type RateCard, RateCards, type RegionMap } from '../rate-card.ts';
import inr20251001 from './meta-2025-10-01-INR.json' with { type: 'json' };
import usd20250701 from './meta-2025-07-01-USD.json' with { type: 'json' };
import usd20251001 from './meta-2025-10-01-USD.json' with { type: 'json' };
import inr20260101 from './meta-2026-01-01-INR.json' with { type: 'json' };
import usd20260101 from './meta-2026-01-01-USD.json' with { type: 'json' };
import usd20260401 from './meta-2026-04-01-USD.json' with { type: 'json' };
import brl20260701 from './meta-2026-07-01-BRL.json' with { type: 'json' };
import clp20260701 from './meta-2026-07-01-CLP.json' with { type: 'json' };
import eur20260701 from './meta-2026-07-01-EUR.json' with { type: 'json' };
import gbp20260701 from './meta-2026-07-01-GBP.json' with { type: 'json' };
import idr20260701 from './meta-2026-07-01-IDR.json' with { type: 'json' };
import usd20260701 from './meta-2026-07-01-USD.json' with { type: 'json' };
import aed20261001 from './meta-2026-10-01-AED.json' with { type: 'json' };
import brl20261001 from './meta-2026-10-01-BRL.json' with { type: 'json' };
import gbp20261001 from './meta-2026-10-01-GBP.json' with { type: 'json' };
import idr20261001 from './meta-2026-10-01-IDR.json' with { type: 'json' };
import inr20261001 from './meta-2026-10-01-INR.json' with { type: 'json' };
import usd20261001 from './meta-2026-10-01-USD.json' with { type: 'json' };
import regions20250701 from './regions-2025-07-01.json' with { type: 'json' };
import regions20251001 from './regions-2025-10-01.json' with { type: 'json' };
import regions20260701 from './regions-2026-07-01.json' with { type: 'json' };
import regions20261001 from './regions-2026-10-01.json' with { type: 'json' };

/**
 * Every rate card the service prices with (decisions §26), one file per effective date and currency, and the
 * region maps their markets come from (a map is in force from its date until the next). A new card is a new
 * file added here, never an edit of one in force: docs/rate-cards.md says how to add one and how it is checked.
 */
export const CARD_FILES = [
  usd20250701,
  usd20251001,
  inr20251001,
  usd20260101,
  inr20260101,
  usd20260401,
  usd20260701,
  eur20260701,
  brl20260701,
  clp20260701,
  gbp20260701,
  idr20260701,
  usd20261001,
  aed20261001,
  brl20261001,
  gbp20261001,
  idr20261001,
  inr20261001,
] as unknown as CardFile[];
export { BILLING_CURRENCIES, MISSING_CARDS, type MissingCard } from './missing-cards.ts';
export const REGION_MAPS = [regions20250701, regions20251001, regions20260701, regions20261001] as unknown as RegionMap[];

/** A card as its file holds it: its market of every region comes from the region map in force on its date. */
export type CardFile = Omit<RateCard, 'regions' | 'markets'> & {
  /** A rate Meta has but no source gave is `null` (docs/rate-cards.md lists them); it is priced as authentication. */
  markets: Record<string, Record<string, number | null>>;
  /** Each `null` rate and the places tried for it (decisions §31: a gap is named, never filled without a source). */
  nulls?: NullRate[];
  /** What a reader of the card should know: single sources, checks made, what the source also gave. */
  notes?: string[];
};

/** A rate no source gave, and where it was looked for. */
export interface NullRate {
  market: string;
  category: string;
  tried: string[];
}

/** The region map in force on a day: the newest from that day or before. */
export const regionMapOn = (day: string) =>
  REGION_MAPS.filter((map) => map.effective_from <= day)
    .sort((a, b) => a.effective_from.localeCompare(b.effective_from))
    .at(-1) ?? REGION_MAPS[0];

/** A card file as the domain prices with it: its known rates, and its date's region map. */
export function cardOf(file: CardFile): RateCard {
  const markets = Object.fromEntries(
    Object.entries(file.markets).map(([market, rates]) => [
      market,
      Object.fromEntries(Object.entries(rates).filter(([, rate]) => rate !== null)) as RateCard['markets'][string],
    ]),
  );
  return { ...file, markets, regions: regionMapOn(file.effective_from) };
}

export const rateCards = new RateCards(CARD_FILES.map(cardOf));
