import type { MessagePricing } from '#lib/domain/shared/message-status.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { BASE_CURRENCY, pricingCategoryOf } from '#lib/domain/money/pricing/rate-card.ts';
import { DAY_MS, dayIn, dayOf, dayStartIn, dayStartMs, monthOf } from '#lib/domain/shared/calendar.ts';
import { DEFAULT_WABA_ZONE, zoneOfMetaTimezone } from '#lib/domain/shared/meta-timezones.ts';
import { fromMicros, toMicros } from '#lib/domain/shared/money.ts';
import { regionOf } from '#lib/domain/money/pricing/region.ts';
import type { GraphModel, SentMessage } from './model.ts';
import { personOf } from './recipients.ts';

/**
 * Meta's pricing as the emulator plays it (upstream-facts §8): the `pricing` object of each status, and the
 * `pricing_analytics` of what it delivered, priced at the repository's rate card (Meta is the card's source).
 */

/** The customer service window: a utility template inside it is free. */
const WINDOW_MS = 24 * 3_600_000;

/** One delivered message in Meta's books: its sending number, day, country, category and cost. */
interface Delivered {
  waba_id: string;
  /** The sending number's display digits, as the PHONE dimension names it. */
  phone_number: string;
  day: string;
  country: string;
  category: string;
  type: string;
  /** In micro-units of `currency`, the WABA's (USD unless set through the emulator). */
  micros: number;
  currency: string;
  /** A max-price message (decisions §34): its bid per 1,000 deliveries and what Meta charged for it, per message. */
  max_price?: EmulatedMaxPrice;
}

/** What the emulator charged a max-price message (docs/platform-2027.md §5: Meta's own report is UNCONFIRMED). */
export interface EmulatedMaxPrice {
  amount_per_1000: number;
  charged_amount: number;
  currency: string;
}

/** A status's `pricing`, with what a max-price message was charged. */
export type EmulatedMessagePricing = MessagePricing & { max_price?: EmulatedMaxPrice };

/**
 * The share of its max price a max-price message is charged. Meta's one documented rule is "the max price or less"
 * (and partners: "calculated dynamically"; Meta publishes no algorithm, docs/platform-2027.md §5.0): the ratio is in
 * (0, 1], so a charge is never above the bid; the share itself is the emulator's, deterministic so a test knows the
 * figure: `EMULATOR_MAX_PRICE_CLEARING` (default 0.8), or per WABA by `/_emulator/wabas/{id}/max-price-clearing`.
 */
export const DEFAULT_CLEARING_RATIO = (() => {
  const set = Number(process.env.EMULATOR_MAX_PRICE_CLEARING);
  return Number.isFinite(set) && set > 0 && set <= 1 ? set : 0.8;
})();

/** Data points a page of pricing_analytics holds when the read asks no `limit`: a large day comes in pages. */
export const ANALYTICS_PAGE_SIZE = 500;

const digitsOf = (value: unknown) => String(value ?? '').replace(/\D/g, '');

export class EmulatedPricing {
  /** When each recipient last wrote to each number (`<phone number id>|<digits>`): opens the 24-hour window. */
  readonly inbound = new Map<string, number>();
  readonly delivered: Delivered[] = [];
  /** The same messages by WABA (the first `indexed` of them): a WABA's read scans its own, not every WABA's. */
  private readonly deliveredByWaba = new Map<string, Delivered[]>();
  private indexed = 0;
  /** A day's COST as Meta reports it, multiplied (a skew, for the reconciliation's test): `<waba>|<day>`. */
  readonly skews = new Map<string, number>();
  /** Each WABA's billable messages of a month by market and category (`<waba>|<month>|<market>|<category>`): its tier. */
  readonly volumes = new Map<string, number>();
  /** WABAs on a partner's credit line: their pricing_analytics carry no `cost` (upstream-facts §9.F). */
  readonly creditLines = new Set<string>();
  /** A WABA's pricing_analytics page size when the read asks none (a test's paging), else ANALYTICS_PAGE_SIZE. */
  readonly pageSizes = new Map<string, number>();
  /** A WABA's clearing ratio of max prices (a share in (0, 1]), where a test set one. */
  readonly clearing = new Map<string, number>();
  /** Messages already in the books (a delivered status reported twice is charged once). */
  private readonly charged = new Set<string>();

  constructor(private readonly model: GraphModel) {}

  /** The `pricing` a status of this message carries. */
  pricingOf(message: SentMessage, atMs = Date.now()): EmulatedMessagePricing {
    const to = personOf(message);
    const template = message.message.template as { name?: string; language?: { code?: string } } | undefined;
    const number = this.model.phoneNumbers.get(message.phone_number_id);
    const waba = number ? this.model.wabas.get(number.waba_id) : undefined;
    const found = waba?.templates.find((t) => t.name === template?.name && t.language === template?.language?.code);
    // A Direct Send is priced by its `category` (the utility rate, platform-2027 §2).
    let category: string = pricingCategoryOf(found?.category ?? (message.message.category as string | undefined));
    // Meta's rule: an OTP to a market with an international rate on the card, from a business of another region.
    const day = dayOf(atMs);
    const { region, market } = rateCards.placeOfPerson(to, day);
    const international = rateCards.on(day).markets[market]?.authentication_international !== undefined;
    if (category === 'authentication' && international && regionOf(digitsOf(number?.display_phone_number)) !== region)
      category = 'authentication_international';
    const wrote = this.inbound.get(`${message.phone_number_id}|${to}`);
    if (category === 'utility' && wrote !== undefined && atMs - wrote < WINDOW_MS)
      return { billable: false, category: 'utility', type: 'free_customer_service' };
    // The Marketing Messages API's category (upstream-facts §9.B), priced as marketing.
    if (category === 'marketing' && message.api === 'mm') {
      const maxPrice = this.maxPriceOf(message, number?.waba_id ?? '', waba?.currency ?? BASE_CURRENCY);
      return { billable: true, category: 'marketing_lite', type: 'regular', ...(maxPrice && { max_price: maxPrice }) };
    }
    return { billable: true, category, type: 'regular' };
  }

  /**
   * A max-price message's charge (decisions §34): its `optimization_spec.bid_amount` (per 1,000 deliveries, in the
   * WABA's currency) ÷ 1,000 times the WABA's clearing ratio, rounded down to the micro-unit: at or below the max.
   */
  private maxPriceOf(message: SentMessage, wabaId: string, currency: string): EmulatedMaxPrice | undefined {
    const bid = (message.message.optimization_spec as { bid_amount?: unknown } | undefined)?.bid_amount;
    if (typeof bid !== 'number' || !(bid > 0)) return undefined;
    const ratio = this.clearing.get(wabaId) ?? DEFAULT_CLEARING_RATIO;
    const charged = Math.floor(Math.round(bid * 1000) * ratio);
    return { amount_per_1000: bid, charged_amount: fromMicros(charged), currency };
  }

  /**
   * A delivered status reported: Meta's books take the message once, at the card's price that day (a max price's
   * charge). What it was charged, in micro-units of the WABA's currency; undefined when it was booked already.
   */
  book(message: SentMessage, pricing: EmulatedMessagePricing, atMs = Date.now()): number | undefined {
    if (this.charged.has(message.id)) return undefined;
    this.charged.add(message.id);
    const number = this.model.phoneNumbers.get(message.phone_number_id);
    const waba = this.model.wabas.get(number?.waba_id ?? '');
    // Meta's books count the WABA's days, in its timezone (decisions §31).
    const day = dayIn(atMs, this.zoneOf(number?.waba_id ?? ''));
    const { region, market } = rateCards.placeOfPerson(personOf(message), day);
    const category = pricingCategoryOf(pricing.category);
    const month = `${number?.waba_id}|${monthOf(day)}|${market}|${category}`;
    const volume = this.volumes.get(month) ?? 0;
    const currency = waba?.currency ?? BASE_CURRENCY;
    const carded = () => rateCards.priceMicros(market, category, day, currency, volume);
    const micros = !pricing.billable ? 0 : pricing.max_price ? toMicros(pricing.max_price.charged_amount) : carded();
    if (pricing.billable) this.volumes.set(month, volume + 1);
    this.delivered.push({
      waba_id: number?.waba_id ?? '',
      phone_number: digitsOf(number?.display_phone_number),
      day,
      country: region,
      category: pricing.category,
      type: pricing.type,
      micros,
      currency,
      ...(pricing.max_price && { max_price: pricing.max_price }),
    });
    return micros;
  }

  /**
   * `pricing_analytics` of a WABA from `start` to `end` (unix seconds), DAILY, by COUNTRY, PRICING_CATEGORY and
   * PRICING_TYPE, and by PHONE when asked (`byPhone`), with VOLUME and COST (Meta's shape: data points under
   * `data[0].data_points`); `phones` (display numbers) narrows it to those numbers, as Graph's `phone_numbers`.
   * Paged as Graph pages (upstream-facts §9.F): `limit` points a page (else the WABA's page size, else
   * ANALYTICS_PAGE_SIZE) from the cursor `after`, with `paging.next` (`nextUrl` of the next cursor) but on the last.
   */
  analytics(wabaId: string, start: number, end: number, asked: AnalyticsAsked = {}, nextUrl = (after: string) => after) {
    const points = this.pointsOf(wabaId, start, end, asked);
    const from = asked.after ? Number(Buffer.from(asked.after, 'base64url').toString()) || 0 : 0;
    const size = Math.max(1, asked.limit ?? this.pageSizes.get(wabaId) ?? ANALYTICS_PAGE_SIZE);
    const to = Math.min(from + size, points.length);
    const cursors = { before: cursorOf(from), after: cursorOf(to) };
    const paging = { cursors, ...(to < points.length && { next: nextUrl(cursors.after) }) };
    return { pricing_analytics: { data: [{ data_points: points.slice(from, to) }], paging }, id: wabaId };
  }

  /** A WABA's delivered messages: those `delivered` gained since the last read are indexed first (tests add some). */
  private deliveredOf(wabaId: string) {
    for (; this.indexed < this.delivered.length; this.indexed++) {
      const d = this.delivered[this.indexed];
      const ofWaba = this.deliveredByWaba.get(d.waba_id);
      if (ofWaba) ofWaba.push(d);
      else this.deliveredByWaba.set(d.waba_id, [d]);
    }
    return this.deliveredByWaba.get(wabaId) ?? [];
  }

  /** The zone of a WABA's days: its `timezone_id`'s, UTC unless set. */
  private zoneOf(wabaId: string) {
    return zoneOfMetaTimezone(this.model.wabas.get(wabaId)?.timezone_id) ?? DEFAULT_WABA_ZONE;
  }

  /** The WABA's data points from `start` to `end`, in the order Meta's books first had them. */
  private pointsOf(wabaId: string, start: number, end: number, { byPhone = false, phones = [] }: AnalyticsAsked) {
    const wanted = new Set(phones.map(digitsOf));
    const points = new Map<string, AnalyticsPoint & { micros: number }>();
    const zone = this.zoneOf(wabaId);
    for (const d of this.deliveredOf(wabaId)) {
      const dayStart = dayStartIn(d.day, zone) / 1000;
      if (dayStart < start || dayStart >= end) continue;
      if (wanted.size > 0 && !wanted.has(d.phone_number)) continue;
      const key = `${d.day}|${byPhone ? d.phone_number : ''}|${d.country}|${d.category}|${d.type}`;
      const point = points.get(key) ?? {
        start: dayStart,
        end: dayStartIn(dayOf(dayStartMs(d.day) + DAY_MS), zone) / 1000,
        ...(byPhone && { phone_number: d.phone_number }),
        country: d.country,
        pricing_category: d.category.toUpperCase().replace('-', '_'),
        pricing_type: d.type.toUpperCase(),
        volume: 0,
        micros: 0,
      };
      point.volume += 1;
      point.micros += d.micros;
      points.set(key, point);
    }
    return [...points.values()].map(({ micros, ...point }) => {
      if (this.creditLines.has(wabaId)) return point;
      const skew = this.skews.get(`${wabaId}|${dayIn(point.start * 1000, zone)}`) ?? 1;
      return { ...point, cost: fromMicros(micros * skew) };
    });
  }
}

/** What a pricing_analytics read asks beside its period: the PHONE dimension, numbers, a page's size and cursor. */
export interface AnalyticsAsked {
  byPhone?: boolean;
  phones?: string[];
  limit?: number;
  after?: string;
}

/** A cursor as Graph's are: opaque to the caller (here the offset of a page's first point). */
const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64url');

/** One data point of `pricing_analytics` (upstream-facts §9.F), before its `cost`. */
interface AnalyticsPoint {
  start: number;
  end: number;
  phone_number?: string;
  country: string;
  pricing_category: string;
  pricing_type: string;
  volume: number;
}
