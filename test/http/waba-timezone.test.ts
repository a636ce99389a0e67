import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { lateFiledUnder } from '#lib/domain/money/statements/months.ts';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * The WABA's clock (decisions §31, issue 53 item 3), on the running local stack: client 671's WABA is in India's
 * timezone (Meta's id 71, +05:30). Meta's status timestamp decides the day a message is charged: one delivered at
 * 20:00 UTC on 30 September is India's 1 October, priced on the 2026-10-01 card, on the ledger day 2026-10-01 and
 * billed with October; one delivered at 17:00 UTC the same day is still India's 30 September, on the July card.
 */
const client = new OwnClient(671);
const INDIA_TIMEZONE_ID = '71';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const MEXICO_LATE = `52155${run}0001`;
const MEXICO_EARLY = `52155${run}0002`;
const LATE_SEPTEMBER = Date.parse('2026-09-30T20:00:00Z');
const EARLY_EVENING = Date.parse('2026-09-30T17:00:00Z');
const market = rateCards.placeOfPerson(MEXICO_LATE, '2026-10-01').market;
/** Mexico's MARKETING rate on a day, as the USD cards give it. */
const rateOn = (day: string) => rateCards.priceMicros(market, 'marketing', day) / 1e6;

beforeAll(async () => {
  await client.seed('In India’s clock', [demoTemplateAs('order_update', { id: 't671', category: 'MARKETING' })]);
  await emulator('POST', `wabas/${client.waba}/timezone`, { timezone_id: INDIA_TIMEZONE_ID });
  // Meta reports only `sent` by itself: the test reports each delivery at the time it names.
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent'] });
}, 60_000);

describe('a WABA in India’s timezone (+05:30), charged by its own day (decisions §31)', () => {
  it('prices a message delivered at 20:00 UTC on 30 September on India’s 1 October, at the 2026-10-01 card', async () => {
    // Prepare
    expect(rateOn('2026-10-01')).not.toBe(rateOn('2026-09-30'));
    // Act
    const late = await client.deliveredAt('order_update', MEXICO_LATE, LATE_SEPTEMBER);
    const early = await client.deliveredAt('order_update', MEXICO_EARLY, EARLY_EVENING);
    const usage = await until(
      async () =>
        (await call('GET', '/v1/usage?from=2026-09-29&to=2026-10-02&group_by=day,market', { token: await client.token() })).body.data as {
          period: string;
          market: string;
          messages: number;
          amount: number;
          currency: string;
        }[],
      (rows) => rows.reduce((sum, row) => sum + row.messages, 0) === 2,
      60_000,
      500,
    );
    // Assess: each on its WABA's day, at that day's card
    expect([late.delivered, early.delivered]).toEqual([1, 1]);
    expect(usage.map((row) => [row.period, row.market, row.messages, row.amount, row.currency])).toEqual([
      ['2026-09-30', market, 1, rateOn('2026-09-30'), 'USD'],
      ['2026-10-01', market, 1, rateOn('2026-10-01'), 'USD'],
    ]);
  });

  it('bills the 1 October message with October: on its statement, or as October’s adjustment once October closed', async () => {
    // Act: October's statement, or the open month's where the charge came after October closed (decisions §30)
    const filedUnder = lateFiledUnder('2026-10-01', Date.now()) ?? '2026-10';
    const read = await call('GET', `/v1/clients/${client.clientId}/statements/${filedUnder}`, { token: await client.token() });
    const lines = (read.body.statements as { lines: Record<string, unknown>[] }[]).flatMap((s) => s.lines);
    // Assess
    expect(read.status).toBe(200);
    const october = lines.filter((l) => (filedUnder === '2026-10' ? l.kind !== 'adjustment' : l.of_month === '2026-10'));
    expect(october).toEqual([expect.objectContaining({ market, category: 'marketing', messages: 1, amount: rateOn('2026-10-01') })]);
  });
});
