import { describe, expect, it } from 'vitest';
import type { ChargedSend } from '#lib/domain/money/ports.ts';
import { usage } from '#lib/domain/money/usage.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { bspCaller, memoryWorld } from '../../support/memory/world.ts';

/**
 * Usage by send keeps each figure in its own currency (decisions §31, issue 53 item 6): a send of a USD WABA priced by
 * an EUR list shows its cost in USD, its price in EUR, and no margin between them.
 */
const DAY = '2026-11-02';
const sendOf = (id: string, more: Partial<ChargedSend>): ChargedSend => ({
  send_id: id,
  created_at: `${DAY}T10:00:00.000Z`,
  template: { name: 'promo' },
  currency: 'USD',
  charges: { marketing: { messages: 2, billable: 2, micros: 100_000, price_micros: 120_000 } },
  ...more,
});

function usageOf(sends: ChargedSend[]) {
  const world = memoryWorld();
  const deps = {
    ledger: new MemoryCostLedger(),
    directory: world.directory,
    sends: { list: async () => ({ sends, total: sends.length }) },
    priceLists: world.priceLists,
  };
  return usage(deps, bspCaller(), { client_id: 7, from: DAY, to: DAY, group_by: 'send' });
}

describe('usage by send, one currency per figure (decisions §31)', () => {
  it('shows an EUR price beside a USD cost, without a margin across them', async () => {
    // Act
    const answer = await usageOf([sendOf('s-eur', { price_list: { currency: 'EUR' } })]);
    // Assess
    expect(answer.data).toEqual([
      expect.objectContaining({ send: 's-eur', currency: 'USD', amount: 0.1, price: 0.12, price_currency: 'EUR' }),
    ]);
    expect(answer.data[0]).not.toHaveProperty('margin');
  });

  it('leaves out a price whose currency the send cannot name, never labelling it as the cost’s', async () => {
    // Act
    const answer = await usageOf([sendOf('s-late', {})]);
    // Assess
    expect(answer.data).toEqual([expect.objectContaining({ send: 's-late', currency: 'USD', amount: 0.1 })]);
    expect(answer.data[0]).not.toHaveProperty('price');
    expect(answer.data[0]).not.toHaveProperty('margin');
  });

  it('shows a price in the cost’s currency with its margin', async () => {
    // Act
    const answer = await usageOf([sendOf('s-usd', { price_list: { currency: 'USD' } })]);
    // Assess
    expect(answer.data[0]).toMatchObject({ currency: 'USD', amount: 0.1, price: 0.12, margin: 0.02 });
  });
});
