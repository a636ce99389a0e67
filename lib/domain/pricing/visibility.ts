import type { Caller } from '../caller.ts';

/**
 * Who sees what of a message's money (decisions §27): BSP_CN sees `cost`, `price` and `margin` (price and margin
 * only where a price exists); an agent of a client with any price list sees `price` only; an agent of a client
 * with no price list sees `cost` only, as before price lists.
 */
export function moneyShown(caller: Caller, hasPriceList: boolean): { cost: boolean; price: boolean; margin: boolean } {
  if (caller.isBsp) return { cost: true, price: true, margin: true };
  return hasPriceList ? { cost: false, price: true, margin: false } : { cost: true, price: false, margin: false };
}
