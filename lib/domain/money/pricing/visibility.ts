import type { Caller } from '../../shared/caller.ts';

/** Which of a message's amounts a caller sees (decisions §27). */
export interface MoneyShown {
  cost: boolean;
  price: boolean;
  margin: boolean;
}

/**
 * BSP_CN sees Meta's cost, the client's price and the margin (price and margin where a price exists); an agent
 * of a client with a price list sees the price alone, never the cost or the margin; an agent of a client with
 * none sees the cost, which is then what it pays.
 */
export function moneyShown(caller: Caller, hasPriceList: boolean): MoneyShown {
  if (caller.isBsp) return { cost: true, price: true, margin: true };
  return hasPriceList ? { cost: false, price: true, margin: false } : { cost: true, price: false, margin: false };
}

/** What a client's own webhooks and event consumers see: as its agents do. */
export const clientView = (hasPriceList: boolean): MoneyShown => ({ cost: !hasPriceList, price: hasPriceList, margin: false });
