import { addCost, marketOfPoint } from './meta-costs.ts';
import type { LedgerEntry, MetaCostEntry, MetaShare } from './ports.ts';

/**
 * Meta's figures by who sent (decisions §32): a figure of a WABA's day on a number, in a market and category, is
 * shared by each client's part of the ledger's messages there (a figure without a number, by their part on the
 * whole WABA), so a client sending from another's number carries its own spend, and a number's history stays with
 * the clients that sent (the ledger names them), wherever the number goes later.
 */

/** Who a figure goes to where the ledger has no message of it: the client whose number it is, if any. */
export type NumberOwner = (digits: string) => number | undefined;

const digitsOf = (did: string) => did.replace(/\D/g, '');
/** Meta names `authentication-international`, the ledger `authentication_international`. */
const categoryOf = (category: string) => category.replace(/-/g, '_');

/** One of Meta's figures, its points summed, and the messages each client sent under it. */
interface Figure {
  day: string;
  market: string;
  category: string;
  currency?: string;
  volume: number;
  micros: number | null | undefined;
  sent: Map<number, number>;
}

/**
 * Each client's parts of Meta's figures of one WABA's day, by market and category, in integer micro-units whose
 * sum is Meta's figure exactly (largestRemainder). A figure no client sent under and whose number is no client's is
 * nobody's. A figure Meta gave no COST stays unknown (no `micros`) in every part.
 */
export function sharesOfDay(
  points: MetaCostEntry[],
  ledger: { client_id: number; entry: LedgerEntry }[],
  ownerOf: NumberOwner,
): Map<number, MetaShare[]> {
  const figures = figuresOf(points);
  for (const { client_id, entry } of ledger) {
    const category = categoryOf(entry.category);
    for (const number of [digitsOf(entry.did), '']) {
      const figure = figures.get(`${number}|${entry.market}|${category}`);
      figure?.sent.set(client_id, (figure.sent.get(client_id) ?? 0) + entry.messages);
    }
  }
  const shares = new Map<number, Map<string, MetaShare>>();
  for (const [key, figure] of figures) {
    const number = key.slice(0, key.indexOf('|'));
    const owner = ownerOf(number);
    const sent = [...figure.sent.values()].some((n) => n > 0) ? figure.sent : new Map(owner === undefined ? [] : [[owner, 1]]);
    const volumes = largestRemainder(figure.volume, sent);
    const micros = typeof figure.micros === 'number' ? largestRemainder(figure.micros, sent) : undefined;
    for (const clientId of sent.keys()) {
      const own = shares.get(clientId) ?? shares.set(clientId, new Map()).get(clientId)!;
      addShare(own, figure, volumes.get(clientId) ?? 0, micros && (micros.get(clientId) ?? 0));
    }
  }
  return new Map([...shares].map(([clientId, own]) => [clientId, [...own.values()]]));
}

/** Meta's points summed by number (none: ''), market and category. */
function figuresOf(points: MetaCostEntry[]) {
  const figures = new Map<string, Figure>();
  for (const point of points) {
    const market = marketOfPoint(point);
    const category = categoryOf(point.category);
    const key = `${point.phone_number === undefined ? '' : digitsOf(point.phone_number)}|${market}|${category}`;
    const figure: Figure = figures.get(key) ?? { day: point.day, market, category, volume: 0, micros: undefined, sent: new Map() };
    figure.volume += point.volume;
    figure.micros = addCost(figure.micros, point);
    if (point.currency) figure.currency = point.currency;
    figures.set(key, figure);
  }
  return figures;
}

/** A client's part of a figure added to its share of the figure's market and category. */
function addShare(own: Map<string, MetaShare>, figure: Figure, volume: number, micros: number | undefined) {
  const key = `${figure.market}|${figure.category}|${figure.currency ?? ''}`;
  const known = own.get(key);
  if (!known) {
    own.set(key, {
      day: figure.day,
      market: figure.market,
      category: figure.category,
      ...(figure.currency && { currency: figure.currency }),
      volume,
      ...(micros !== undefined && { micros }),
    });
    return;
  }
  known.volume += volume;
  // Unknown once any part is: never a smaller sum.
  if (known.micros === undefined || micros === undefined) delete known.micros;
  else known.micros += micros;
}

/**
 * `total` divided by `weights` in integers that sum to it exactly (the largest remainder method): each its floor,
 * then one more to the largest remainders (ties to the lower id). Computed in BigInt: micros × messages can pass 2^53.
 */
export function largestRemainder(total: number, weights: Map<number, number>): Map<number, number> {
  const sum = BigInt([...weights.values()].reduce((a, b) => a + b, 0));
  if (sum === 0n) return new Map([...weights.keys()].map((id) => [id, 0]));
  const whole = BigInt(Math.round(total));
  const parts = [...weights].map(([id, weight]) => {
    const exact = whole * BigInt(weight);
    return { id, part: exact / sum, rest: exact % sum };
  });
  let left = whole - parts.reduce((given, p) => given + p.part, 0n);
  const order = [...parts].sort((a, b) => (a.rest === b.rest ? a.id - b.id : a.rest > b.rest ? -1 : 1));
  for (const p of order) {
    if (left <= 0n) break;
    p.part += 1n;
    left -= 1n;
  }
  return new Map(parts.map((p) => [p.id, Number(p.part)]));
}
