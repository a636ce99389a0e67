import { CALENDAR_ZONE, dayIn, monthOf } from '../../shared/calendar.ts';
import { rateCards } from './cards/index.ts';
import { type PriceList, priceOf } from './price-list.ts';
import { budgetMicrosOf } from '../budget-amount.ts';
import { type PricingCategory, pricingCategoryOf } from './rate-card.ts';

/**
 * What a send reserved of its client's month (decisions §27), carried by its record and jobs: the month it
 * reserved in (its `send_at`'s for a scheduled send), the day and category it priced its recipients at, and the
 * currency. Each recipient's part of the reservation is given back as it settles, so it is the same figure
 * whoever computes it: the card in force that day never changes.
 */
export interface SendReservation {
  month: string;
  priced_on: string;
  category: PricingCategory;
  currency: string;
  /** The client's price list in force that day: the reservation is in the client's price (decisions §27). */
  price_list?: PriceList;
  /**
   * The currency of the client's budget (decisions §31): each recipient's part is in it. Absent on reservations
   * made before, which keep their figure: the price, else the cost.
   */
  budget_currency?: string;
  /**
   * An AUTHENTICATION send reserves each recipient at the larger of the authentication and the
   * authentication-international rate of its market (decisions §30): Meta charges the international rate where
   * it applies, and only Meta knows where it does. Absent on reservations made before, which keep their figure.
   */
  international_bound?: true;
  /**
   * A max-price send of the Marketing Messages API (decisions §34): each recipient reserves the max price of one
   * delivery (its `amount_per_1000` ÷ 1,000, in micro-units of its currency, the WABA's) instead of the card's rate:
   * Meta charges that or less.
   */
  max_price?: { micros: number; currency: string };
}

/** A send's max price (decisions §34): per 1,000 deliveries, in a currency. */
export interface MaxPrice {
  amount_per_1000: number;
  currency: string;
}

/** The max price of one delivery, in micro-units: `amount_per_1000` has at most 3 decimals, so it is whole. */
export const maxPriceMicros = (max: MaxPrice) => Math.round(max.amount_per_1000 * 1000);

export function reservationFor(
  templateCategory: string | undefined,
  goesOn: string,
  currency: string,
  list?: PriceList,
  budgetCurrency?: string,
  /** The WABA's zone (decisions §31): the day and month the send goes are its. */
  zone: string = CALENDAR_ZONE,
  maxPrice?: MaxPrice,
): SendReservation {
  const category = pricingCategoryOf(templateCategory);
  const day = dayIn(goesOn, zone);
  return {
    month: monthOf(day),
    priced_on: day,
    category,
    currency,
    ...(list && { price_list: list }),
    ...(budgetCurrency && { budget_currency: budgetCurrency }),
    ...(category === 'authentication' && { international_bound: true as const }),
    ...(maxPrice && { max_price: { micros: maxPriceMicros(maxPrice), currency: maxPrice.currency } }),
  };
}

/**
 * What one message of a category in a market costs the client: the card's rate, or its price list's price for it;
 * in the budget's currency where the reservation names it (budget-amount.ts: the same rule as a charge's).
 */
function estimateAt(reservation: SendReservation, market: string, category: PricingCategory): number {
  const { priced_on: day, price_list: list, budget_currency: budgetCurrency, max_price: max } = reservation;
  // A max-price send (decisions §34) reserves its max price, resold as the list resells max-price charges.
  const currency = max?.currency ?? reservation.currency;
  const cost = max ? max.micros : rateCards.priceMicros(market, category, day, currency);
  const priced = { day, market, category, costMicros: cost, costCurrency: currency, billable: true, ...(max && { maxPrice: true }) };
  const price = list && priceOf([list], priced);
  if (!budgetCurrency) return price?.micros ?? cost;
  const baseCostMicros = () => (max ? cost : rateCards.priceMicros(market, category, day));
  return budgetMicrosOf(budgetCurrency, { cost: { micros: cost, currency }, price, list, baseCostMicros }) ?? cost;
}

/**
 * One recipient's part of its send's reservation, in micro-units: the card's rate, or the client's price for it;
 * bounded by the authentication-international one where the reservation says so (a market without that rate
 * prices it as authentication), so a charge never exceeds what was reserved for it.
 */
export function recipientEstimate(reservation: SendReservation, digits: string): number {
  const { market } = rateCards.placeOfPerson(digits, reservation.priced_on);
  const estimate = estimateAt(reservation, market, reservation.category);
  if (!reservation.international_bound) return estimate;
  return Math.max(estimate, estimateAt(reservation, market, 'authentication_international'));
}

/** The outcomes of a block or job that settle a recipient for good: it will never be delivered now. */
const NEVER_DELIVERED = new Set(['failed', 'expired', 'cancelled']);

/** What settling outcomes gives back of the reservation: every recipient that will never be delivered now. */
export function releasedBy(reservation: SendReservation | undefined, settled: { digits: string; kind: string }[]): number {
  if (!reservation) return 0;
  return settled
    .filter(({ kind }) => NEVER_DELIVERED.has(kind))
    .reduce((sum, { digits }) => sum + recipientEstimate(reservation, digits), 0);
}

/**
 * How a client's month moves when messages settle: `spent` by the month it was delivered in, `released` by the
 * month its send reserved in (decisions §27). Written in the same transaction as what settled them.
 */
export type BudgetMoves = Map<string, { spent: number; released: number }>;

export function addMove(moves: BudgetMoves, month: string, move: { spent?: number; released?: number }) {
  const known = moves.get(month) ?? { spent: 0, released: 0 };
  known.spent += move.spent ?? 0;
  known.released += move.released ?? 0;
  moves.set(month, known);
}
