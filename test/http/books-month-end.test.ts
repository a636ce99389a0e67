import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { lastMonthToClose } from '#lib/domain/money/statements/months.ts';
import { dayStartMs, monthAfter } from '#lib/domain/shared/calendar.ts';
import { call, emulator, tokens } from '../support/api.ts';
import { postMessagesChange } from '../support/meta-change.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { closeStatements } from '../support/scheduled-workers.ts';
import { until } from '../support/until.ts';

/**
 * A month end through the stack (issue 51, "done when"; decisions §30). The status path dates a charge by the
 * status's own timestamp (Meta's `timestamp`, lib/adapters/meta/webhook-payload.ts), not by when it is applied.
 * Client 653 sends two UTILITY messages; Meta (the emulator) reports only `sent`. The test then posts, signed as
 * Meta, each message's `delivered` with a timestamp two months back (a month past its close time): the first before
 * the CloseStatements worker runs (as its schedule runs it), the second after, a late charge. The closed month never
 * moves; the late charge is one more adjustment line naming its month on the first month not closed. Where the first
 * charge is billed (the closed month's line, or already an adjustment, its month's close time having passed when it
 * was applied) is the books' choice: §30 asks only that it is billed once, which the last test says.
 */
const client = new OwnClient(653);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const monthOf = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
};
/** Past its close time whatever the day: the 3rd of the month after it has passed. */
const CLOSED = monthOf(2);
/** The first month the close job has not closed: it bills the closed months' late charges. */
const FIRST_OPEN = monthAfter(lastMonthToClose(Date.now()));
/** The days of the closed month the two deliveries say they happened on (noon UTC). */
const FIRST_DAY = `${CLOSED}-10`;
const LATE_DAY = `${CLOSED}-20`;
const RECIPIENTS = [`5218${run}00001`, `5218${run}00002`];

type Sent = { id: string; message: { to: string; biz_opaque_callback_data?: string } };
type Line = { kind: string; market: string; category: string; of_month?: string; messages: number; amount: number };
type Statement = { status: string; lines_sha256: string; statements: { lines: Line[] }[] };

/** Meta's `delivered` of one of the service's messages, priced, stamped at noon (UTC) of a past day. */
function deliveredOn(message: Sent, day: string) {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: client.did, phone_number_id: client.numberId },
    statuses: [
      {
        id: message.id,
        status: 'delivered',
        timestamp: String(Math.floor((dayStartMs(day) + 12 * 3_600_000) / 1000)),
        recipient_id: message.message.to,
        ...(message.message.biz_opaque_callback_data && { biz_opaque_callback_data: message.message.biz_opaque_callback_data }),
        pricing: { billable: true, category: 'utility', type: 'regular', pricing_model: 'PMP' },
      },
    ],
  };
  return postMessagesChange(client.waba, value);
}

const statementOf = async (month: string) =>
  call<Statement>('GET', `/v1/clients/${client.clientId}/statements/${month}`, { token: await tokens.bsp() });
const delivered = (sendId: string, count: number) =>
  until(
    () => client.status(sendId),
    (s) => s.delivered === count,
    60_000,
    250,
  );
const sumOf = (values: number[]) => values.reduce((sum, n) => sum + n, 0);
const micros = (amount: number) => Math.round(amount * 1e6);

let sendId: string;
let messages: Sent[];
let firstClose: Awaited<ReturnType<typeof closeStatements>>;

beforeAll(async () => {
  await client.seed('Month end', [demoTemplateAs('order_update', { id: '653001' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent'] });
  const accepted = await client.send('order_update', RECIPIENTS);
  expect(accepted.status).toBe(200);
  sendId = accepted.body.send_id;
  await client.settled(sendId, (s) => s.status === 'completed' && s.sent === 2, 60_000);
  messages = (await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as Sent[];
  expect(messages).toHaveLength(2);
  // The month's first charge, applied before the close job runs; then the month closed.
  expect((await deliveredOn(messages[0], FIRST_DAY)).status).toBe(200);
  expect((await delivered(sendId, 1)).delivered).toBe(1);
  firstClose = await closeStatements();
}, 120_000);

type Adjusted = { messages: number; micros: number; lines: [string, string, string | undefined][] };
/** The adjustment lines of a statement that bill the closed month: their messages, amount and what they name. */
function adjustmentsOfClosed(statement: Statement): Adjusted {
  const lines = statement.statements.flatMap((s) => s.lines).filter((l) => l.kind === 'adjustment' && l.of_month === CLOSED);
  return {
    messages: sumOf(lines.map((l) => l.messages)),
    micros: sumOf(lines.map((l) => micros(l.amount))),
    lines: lines.map((l) => [l.market, l.category, l.of_month]),
  };
}

describe('a status of a month past its close time, applied after the close (decisions §30)', () => {
  let closed: Statement;
  let openBefore: Statement;
  let again: Statement;
  let afterRerun: Statement;
  let open: Statement;
  let send: Record<string, any>;

  beforeAll(async () => {
    // Prepare: the closed month as the close job kept it, and the first open month before the late status
    closed = (await statementOf(CLOSED)).body;
    openBefore = (await statementOf(FIRST_OPEN)).body;
    // Act: the second message's delivery, dated in the closed month, arrives after the close; the job runs again
    expect((await deliveredOn(messages[1], LATE_DAY)).status).toBe(200);
    send = await delivered(sendId, 2);
    again = (await statementOf(CLOSED)).body;
    const rerun = await closeStatements();
    expect(rerun.failed).toBe(0);
    afterRerun = (await statementOf(CLOSED)).body;
    open = (await statementOf(FIRST_OPEN)).body;
  }, 120_000);

  it('keeps the closed month as it was closed: the same lines and lines_sha256 on every read', () => {
    // Assess
    expect(firstClose.failed).toBe(0);
    expect(closed.status).toBe('closed');
    expect(closed.lines_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(again).toEqual(closed);
    expect(afterRerun).toEqual(closed);
    expect(afterRerun.lines_sha256).toBe(closed.lines_sha256);
  });

  it('bills the late charge on the first open month, as an adjustment naming the closed month', () => {
    // Prepare
    const late = rateCards.priceMicros('Mexico', 'utility', LATE_DAY);
    const [before, after] = [adjustmentsOfClosed(openBefore), adjustmentsOfClosed(open)];
    // Assess: one more message on the closed month's adjustments, at the card's price of its day
    expect(open.status).toBe('open');
    expect(after.messages - before.messages).toBe(1);
    expect(after.micros - before.micros).toBe(late);
    expect(after.lines).toContainEqual(['Mexico', 'utility', CLOSED]);
  });

  it('bills both messages once: the closed statement and its adjustments hold the send’s cost to the micro-unit', () => {
    // Prepare
    const onClosed = closed.statements.flatMap((s) => s.lines).filter((l) => l.kind === 'charge');
    const adjusted = adjustmentsOfClosed(open);
    const cards = rateCards.priceMicros('Mexico', 'utility', FIRST_DAY) + rateCards.priceMicros('Mexico', 'utility', LATE_DAY);
    // Assess
    expect(send).toMatchObject({ sent: 2, delivered: 2, pending: 0 });
    expect(sumOf(onClosed.map((l) => l.messages)) + adjusted.messages).toBe(2);
    // Both applied after the month's close time: both billed as adjustments (routed when applied, months.ts)
    expect(adjusted.messages).toBe(2);
    expect(sumOf(onClosed.map((l) => micros(l.amount))) + adjusted.micros).toBe(micros(send.cost.amount));
    expect(micros(send.cost.amount)).toBe(cards);
  });
});
