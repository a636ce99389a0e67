import { describe, expect, it } from 'vitest';
import { budgetMicrosOf } from '#lib/domain/money/budget-amount.ts';
import { getBudget, setBudget } from '#lib/domain/money/budget.ts';
import { chargerFor } from '#lib/domain/money/pricing/charging.ts';
import type { PriceList } from '#lib/domain/money/pricing/price-list.ts';
import { recipientEstimate, reservationFor } from '#lib/domain/money/pricing/reservation.ts';
import { Conflict } from '#lib/domain/shared/errors.ts';
import type { Log } from '#lib/domain/shared/log.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { MemoryBudgetStore } from '../../support/memory/money/budget-store.ts';
import { MemoryPriceListStore } from '../../support/memory/money/price-list-store.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * A budget in one currency that says it (decisions §31, issue 53 item 6) on in-memory stores: fixed when BSP_CN
 * sets it; what a delivered message spends and what a send reserves are in it, whatever the price list's currency.
 * A Mexican UTILITY message costs 0.0085 USD (the 2026-10-01 card); client 7's EUR list marks it up 20 % at
 * 0.9 EUR a USD (9_180 EUR micro-units), and names GBP at 1.15 EUR a GBP.
 */
const acme = callerOf(7);
const bsp = { ...callerOf(7), isBsp: true };
const NOW = '2026-11-25T10:00:00.000Z';
const MEXICAN = '5215512345678';
const EUR_LIST: PriceList = {
  client_id: 7,
  effective_from: '2026-11-01',
  currency: 'EUR',
  markup_percent: 20,
  exchange_rates: { USD: 0.9, GBP: 1.15 },
  created_at: '2026-10-20T00:00:00.000Z',
};

/** A log that keeps what was written, to see what was logged as not convertible. */
function keptLog() {
  const lines: { message: string; fields: Record<string, unknown> }[] = [];
  const keep = (message: string, fields: Record<string, unknown>) => lines.push({ message, fields });
  const log: Log = { debug: keep, info: keep, warn: keep, error: keep };
  return { log, lines };
}

describe('what a message counts against a budget, in its currency (budgetMicrosOf)', () => {
  const cost = { micros: 8_500, currency: 'USD' };
  const price = { micros: 9_180, currency: 'EUR' };
  const base = () => 8_500;

  it('counts the price where it is in the budget’s currency, else the cost where it is', () => {
    // Act
    const inEuro = budgetMicrosOf('EUR', { cost, price, list: EUR_LIST, baseCostMicros: base });
    const inDollars = budgetMicrosOf('USD', { cost, price, list: EUR_LIST, baseCostMicros: base });
    const costOnly = budgetMicrosOf('USD', { cost, baseCostMicros: base });
    // Assess: the cost alone in the budget's currency is the charge's own figure
    expect([inEuro, inDollars, costOnly]).toEqual([9_180, 8_500, undefined]);
  });

  it('converts by the list’s exchange rates, else counts the base currency’s cost and logs it', () => {
    // Prepare
    const { log, lines } = keptLog();
    // Act: GBP is named by the list; JPY is not
    const inPounds = budgetMicrosOf('GBP', { cost, price, list: EUR_LIST, baseCostMicros: base }, log);
    const inYen = budgetMicrosOf('JPY', { cost, price, list: EUR_LIST, baseCostMicros: () => 8_400 }, log);
    // Assess: 9_180 EUR / 1.15 EUR a GBP
    expect(inPounds).toBe(7_983);
    expect(inYen).toBe(8_400);
    expect(lines).toEqual([expect.objectContaining({ fields: { budget_currency: 'JPY', cost_currency: 'USD', price_currency: 'EUR' } })]);
  });
});

describe('a delivered message’s spend, in the budget’s currency (chargerFor)', () => {
  async function budgetMicrosWith(budget?: { currency?: string }) {
    const priceLists = new MemoryPriceListStore();
    await priceLists.put(EUR_LIST);
    const budgets = new MemoryBudgetStore();
    if (budget) budgets.budgets.set(7, { monthly_micros: 1_000_000, updated_at: NOW, ...budget });
    const at = Date.parse(NOW);
    const deps = { currencies: { currencyOf: async () => 'USD' }, priceLists, budgets };
    const price = await chargerFor(deps, { wabaId: '100200300', clientId: 7 }, [at]);
    return price({ category: 'utility', type: 'regular', billable: true }, MEXICAN, at).charge.budget_micros;
  }

  it('counts the price in an EUR budget, the cost in a USD one, and a budget set before currencies as USD', async () => {
    // Act
    const [inEuro, inDollars, inPounds, before, none] = await Promise.all([
      budgetMicrosWith({ currency: 'EUR' }),
      budgetMicrosWith({ currency: 'USD' }),
      budgetMicrosWith({ currency: 'GBP' }),
      budgetMicrosWith({}),
      budgetMicrosWith(),
    ]);
    // Assess: without a budget the month counts in the list's currency, as a budget set then would
    expect([inEuro, inDollars, inPounds, before, none]).toEqual([9_180, 8_500, 7_983, 8_500, 9_180]);
  });
});

describe('a budget’s currency as set and shown (decisions §31)', () => {
  function budgetWorld() {
    const world = memoryWorld();
    const template = world.emulator.model.findTemplate('9002')!.template;
    const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
    const deps = { ...world, now: () => NOW };
    let n = 0;
    /** A send of `count` Mexican numbers at UTILITY. */
    const send = (count: number) =>
      sendTemplate(deps, acme, {
        pathDid: '5215550001',
        sendId: `s-${n++}`,
        body: {
          did: '5215550001',
          type: 'template',
          channel: 'MSGCHAN',
          template: { name: 'order_update', language: 'es' },
          recipients: Array.from({ length: count }, (_, i) => ({
            to: `52155${n}${String(i).padStart(4, '0')}`,
            params: { body: Array.from({ length: variables }, () => 'v') },
          })),
        },
      });
    return { world, deps, send };
  }

  it('takes the body’s currency, else the list in force’s, and a budget set before says USD', async () => {
    // Prepare
    const { world, deps } = budgetWorld();
    await world.priceLists.put(EUR_LIST);
    // Act
    const byDefault = await setBudget(deps, bsp, 7, { monthly_amount: 10 });
    const named = await setBudget(deps, bsp, 7, { monthly_amount: 10, currency: 'GBP' });
    await world.budgets.set(7, 10_000_000, NOW);
    const before = await getBudget(deps, acme, 7);
    // Assess
    expect([byDefault.currency, named.currency, before.currency]).toEqual(['EUR', 'GBP', 'USD']);
  });

  it('reserves a send in the budget’s currency, and its 409 and its 80 % warning name it', async () => {
    // Prepare: 1 EUR; 100 messages reserve 0.918 EUR (0.85 USD in a USD budget)
    const { world, deps, send } = budgetWorld();
    await world.priceLists.put(EUR_LIST);
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    // Act
    const accepted = await send(100);
    const refused = await send(10).catch((e) => e);
    const shown = await getBudget(deps, acme, 7);
    // Assess
    expect(shown).toMatchObject({ currency: 'EUR', reserved: 0.918, remaining: 0.082 });
    expect(accepted.warnings).toEqual([expect.objectContaining({ message: expect.stringMatching(/budget of 1 EUR/) })]);
    expect(refused).toBeInstanceOf(Conflict);
    expect(refused.message).toBe("The send's estimate (0.0918 EUR) exceeds what is left of the client's budget this month (0.082 EUR)");
  });

  it('reserves at the cost in a USD budget beside an EUR list, each recipient’s part given back the same', () => {
    // Prepare
    const inDollars = reservationFor('UTILITY', NOW, 'USD', EUR_LIST, 'USD');
    const inEuro = reservationFor('UTILITY', NOW, 'USD', EUR_LIST, 'EUR');
    const before = reservationFor('UTILITY', NOW, 'USD', EUR_LIST);
    // Act
    const parts = [inDollars, inEuro, before].map((reservation) => recipientEstimate(reservation, MEXICAN));
    // Assess: a reservation made before budgets had a currency keeps its figure, the price
    expect(parts).toEqual([8_500, 9_180, 9_180]);
  });
});
