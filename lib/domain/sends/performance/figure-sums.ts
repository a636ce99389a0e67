import { fromMicros } from '../../shared/money.ts';
import type { Figure } from '../figures.ts';
import { type RateInterval, wilson } from './stats.ts';

/** Figures summed over days or variants (decisions §33): a sum below 0 (a failure taken back) reads as 0. */
export interface FigureSums {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  failed_by_code: Record<string, number>;
  replied: number;
  replied_after: number;
  buttons: Record<string, number>;
  cost_micros: number;
  price_micros: number;
}

const SIMPLE = ['sent', 'delivered', 'read', 'replied', 'replied_after'] as const;

/** The sums of figures, each figure's amounts added. */
export function sumsOf(figures: Iterable<readonly [Figure, number]>): FigureSums {
  const sums: FigureSums = {
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    failed_by_code: {},
    replied: 0,
    replied_after: 0,
    buttons: {},
    cost_micros: 0,
    price_micros: 0,
  };
  for (const [figure, n] of figures) {
    if ((SIMPLE as readonly string[]).includes(figure)) sums[figure as (typeof SIMPLE)[number]] += n;
    else if (figure === 'cost') sums.cost_micros += n;
    else if (figure === 'price') sums.price_micros += n;
    else if (figure.startsWith('failed:')) add(sums.failed_by_code, figure.slice('failed:'.length), n);
    else if (figure.startsWith('button:')) add(sums.buttons, figure.slice('button:'.length), n);
  }
  for (const field of SIMPLE) sums[field] = Math.max(0, sums[field]);
  sums.failed_by_code = Object.fromEntries(Object.entries(sums.failed_by_code).filter(([, n]) => n > 0));
  sums.failed = Object.values(sums.failed_by_code).reduce((sum, n) => sum + n, 0);
  return sums;
}

const add = (record: Record<string, number>, key: string, n: number) => {
  record[key] = (record[key] ?? 0) + n;
};

/** Which amounts a caller sees (decisions §32), in which currency. */
export interface MoneyView {
  cost?: string;
  price?: string;
}

/** A rate and the money per event: read and replied of delivered (with their 95 % intervals), cost and price per read and reply. */
export interface Rates {
  read_rate?: RateInterval;
  reply_rate?: RateInterval;
  replied_after_rate?: RateInterval;
  cost_per_read?: number;
  cost_per_reply?: number;
  price_per_read?: number;
  price_per_reply?: number;
}

/** Rates of sums: none where its denominator is 0. */
export function ratesOf(sums: FigureSums, money: MoneyView): Rates {
  const per = (micros: number, count: number) => (count > 0 ? fromMicros(micros / count) : undefined);
  const rates: Rates = {
    read_rate: wilson(Math.min(sums.read, sums.delivered), sums.delivered),
    reply_rate: wilson(Math.min(sums.replied, sums.delivered), sums.delivered),
    replied_after_rate: wilson(Math.min(sums.replied_after, sums.delivered), sums.delivered),
    ...(money.cost && { cost_per_read: per(sums.cost_micros, sums.read), cost_per_reply: per(sums.cost_micros, sums.replied) }),
    ...(money.price && { price_per_read: per(sums.price_micros, sums.read), price_per_reply: per(sums.price_micros, sums.replied) }),
  };
  return Object.fromEntries(Object.entries(rates).filter(([, value]) => value !== undefined)) as Rates;
}

/** Sums as an answer gives them: the counts, the amounts the caller sees, and the rates. */
export function figuresView(sums: FigureSums, money: MoneyView) {
  return {
    sent: sums.sent,
    delivered: sums.delivered,
    read: sums.read,
    failed: sums.failed,
    failed_by_code: sums.failed_by_code,
    replied: sums.replied,
    replied_after: sums.replied_after,
    buttons: sums.buttons,
    ...(money.cost && { cost: fromMicros(sums.cost_micros) }),
    ...(money.price && { price: fromMicros(sums.price_micros) }),
    ...ratesOf(sums, money),
  };
}
