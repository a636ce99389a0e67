import type { Caller } from '../../shared/caller.ts';

/** A money figure an answer may carry (decisions §27, §32). */
export type MoneyFigure = 'cost' | 'price' | 'margin' | 'markup';

/** Who reads an answer: BSP_CN, or an agent (or webhook) of a client with a price list or without one. */
export type Viewer = 'bsp' | 'agent_of_priced_client' | 'agent_of_unpriced_client';

/**
 * Who sees each figure (decisions §27, §32): the one place this is decided. Meta's cost is what a client without
 * a price list pays, so its agents see it. Where the client has a list, the cost, the margin and the markup are
 * BSP_CN's alone: any one of them with the price gives the others (cost = price ÷ (1 + markup)).
 */
export const WHO_SEES: Readonly<Record<MoneyFigure, readonly Viewer[]>> = {
  cost: ['bsp', 'agent_of_unpriced_client'],
  price: ['bsp', 'agent_of_priced_client'],
  margin: ['bsp'],
  markup: ['bsp'],
};

export const viewerOf = (caller: Pick<Caller, 'isBsp'>, hasPriceList: boolean): Viewer => {
  if (caller.isBsp) return 'bsp';
  return hasPriceList ? 'agent_of_priced_client' : 'agent_of_unpriced_client';
};

export const sees = (viewer: Viewer, figure: MoneyFigure): boolean => WHO_SEES[figure].includes(viewer);

/**
 * A client has a price list from the day one is set, in force or to come: from then on its agents see prices or
 * nothing, never a cost that would give the markup of the list they are shown.
 */
export const hasPriceList = (lists: readonly unknown[]): boolean => lists.length > 0;

/**
 * A send is priced for its agents when its client's list was in force as it was accepted, or priced any of its
 * deliveries since (a send accepted before the list started): it then shows a price or nothing, never a cost.
 */
export const isPricedSend = (send: { price_list?: object; charges?: Record<string, { price_micros?: number }> }): boolean =>
  send.price_list !== undefined || Object.values(send.charges ?? {}).some((charge) => charge.price_micros !== undefined);

/** Which of a message's amounts a caller sees (decisions §27): WHO_SEES for one viewer. */
export interface MoneyShown {
  cost: boolean;
  price: boolean;
  margin: boolean;
}

const shownTo = (viewer: Viewer): MoneyShown => ({
  cost: sees(viewer, 'cost'),
  price: sees(viewer, 'price'),
  margin: sees(viewer, 'margin'),
});

export const moneyShown = (caller: Pick<Caller, 'isBsp'>, priced: boolean): MoneyShown => shownTo(viewerOf(caller, priced));
