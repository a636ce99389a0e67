import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { recipientEstimate, reservationFor } from '#lib/domain/money/pricing/reservation.ts';
import { closeMonths } from '#lib/domain/money/statements/close-months.ts';
import { statement } from '#lib/domain/money/statements/statement.ts';
import { applyMessageStatuses, type MessageStatusNotification } from '#lib/domain/sends/message-statuses.ts';
import { lastMonthToClose } from '#lib/domain/money/statements/months.ts';
import { dayOf, daysOfMonth, monthAfter, monthOf } from '#lib/domain/shared/calendar.ts';
import { NotFound } from '#lib/domain/shared/errors.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import type { SentMessage } from '../../../local/standins/graph/model.ts';
import '../../support/fast-check-seed.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryKnownCurrencies } from '../../support/memory/money/known-currencies.ts';
import { MemoryOutsideCharges } from '../../support/memory/money/outside-charges.ts';
import { MemoryStatementStore } from '../../support/memory/money/statement-store.ts';
import { TableCostLedger } from '../../support/memory/money/table-cost-ledger.ts';
import { bspCaller, memoryWorld } from '../../support/memory/world.ts';

/**
 * The books balance (issue 51, decisions §30): random sends, pauses, Graph outages, late and repeated statuses,
 * messages sent outside the service and close runs at random times, played on the in-memory stores against the
 * Graph emulator's pricing, in virtual time (an agenda of events in time order). After each run, to the micro-unit,
 * what each message was charged = the ledger = every month's statement lines = what Meta (the emulator) charged.
 */
const WABA = '100200300';
const START = Date.parse('2026-10-01T00:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Client 7 has a price list (cost + 50 %); client 8, on the same WABA, has none. */
const NUMBERS = {
  7: { did: '5215550001', phone_number_id: '110001' },
  8: { did: '5215550011', phone_number_id: '110011' },
} as const;
const TEMPLATES = {
  MARKETING: { name: 'summer_promo', language: 'en_US' },
  UTILITY: { name: 'order_update', language: 'es' },
} as const;
/** Mexico, Brazil, India, the United States: a prefix and the digits after it. */
const MARKETS = [
  ['52155', 8],
  ['551199', 7],
  ['9198', 8],
  ['1415555', 4],
] as const;
/** How long the worker waits before a status answered `later` is tried again. */
const RETRY_MS = MINUTE;

type Client = keyof typeof NUMBERS;
interface Reports {
  status: 'delivered' | 'read';
  /** When Meta sent it, after the launch: the day it is charged on. */
  afterMs: number;
  /** How long it took to be applied: a webhook retried or redriven from the dead-letter queue days later. */
  arrivesMs: number;
}
interface SendStep {
  kind: 'send';
  atMs: number;
  client: Client;
  category: keyof typeof TEMPLATES;
  recipients: { market: number; reports: Reports[] }[];
  /** Paused after this many were launched, for `pauseMs` (longer than the retry window), then the rest go. */
  pause?: { after: number; pauseMs: number };
}
interface OutsideStep {
  kind: 'outside';
  atMs: number;
  client: Client;
  market: number;
  reports: Reports[];
}
type Step = SendStep | OutsideStep | { kind: 'close'; atMs: number } | { kind: 'graph'; atMs: number; down: boolean };

const atMs = fc.integer({ min: 0, max: 80 * DAY });
const reports = fc.array(
  fc.record({
    status: fc.constantFrom('delivered' as const, 'read' as const),
    // Most statuses come within minutes; some days or weeks late; some are applied days after they were sent
    // (into a month closed meanwhile).
    afterMs: fc.oneof(fc.integer({ min: 1_000, max: 10 * MINUTE }), fc.integer({ min: DAY, max: 45 * DAY })),
    arrivesMs: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: MINUTE, max: 40 * DAY }) }),
  }),
  { minLength: 1, maxLength: 3 },
);
const client = fc.constantFrom<Client>(7, 8);
const market = fc.integer({ min: 0, max: MARKETS.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      atMs,
      client,
      category: fc.constantFrom('MARKETING' as const, 'UTILITY' as const),
      recipients: fc.array(fc.record({ market, reports }), { minLength: 1, maxLength: 6 }),
      pause: fc.option(fc.record({ after: fc.integer({ min: 0, max: 5 }), pauseMs: fc.integer({ min: 10 * MINUTE, max: 6 * HOUR }) }), {
        nil: undefined,
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('outside' as const), atMs, client, market, reports }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), atMs }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('graph' as const), atMs, down: fc.boolean() }) },
);

/** The world of one run: the stores, the emulator's pricing, the status and statement ports, and an agenda. */
async function booksWorld() {
  const world = memoryWorld();
  await world.priceLists.put({ client_id: 7, effective_from: '2026-09-01', currency: 'USD', markup_percent: 50, created_at: '2026-08-01' });
  const clock = { now: START };
  // Charges are applied in the run's virtual time: one applied after its month closed is filed under the open month.
  world.sendTable.clock = () => clock.now;
  const outsideLedger = new MemoryCostLedger(() => clock.now);
  const outsideCharges = new MemoryOutsideCharges(outsideLedger);
  const ledger = new TableCostLedger(world.sendTable, outsideLedger);
  const graph = { down: false };
  const currencies = new KeptBillingCurrencies({
    known: new MemoryKnownCurrencies(),
    upstream: {
      currencyOf: async (waba) => {
        if (graph.down) throw new Error('Graph unavailable');
        return world.upstream.currencyOf(waba);
      },
    },
    log: silentLog,
    now: () => clock.now,
  });
  const statusDeps = {
    ...world,
    currencies,
    tiers: undefined,
    priceLists: world.priceLists,
    outside: { outsideCharges, directory: world.directory },
  };
  const statementDeps = {
    ledger,
    directory: world.directory,
    statements: new MemoryStatementStore(),
    // The table's ledger keeps no prices: the statements are read at cost, as BSP_CN sees them.
    priceLists: { lists: async () => [] },
    sha256: (text: string) => createHash('sha256').update(text, 'utf8').digest('hex'),
    issuer: { name: 'Acme Messaging Ltd', address: '1 Quay Street, Dublin' },
    log: silentLog,
    now: () => clock.now,
  };
  return { world, ledger, outsideCharges, graph, clock, statusDeps, statementDeps, agenda: new Agenda(clock) };
}
type BooksWorld = Awaited<ReturnType<typeof booksWorld>>;

/** Events in virtual time: each runs at its time, in time order (ties in the order they were added). */
class Agenda {
  private readonly events: { at: number; order: number; run: () => Promise<void> }[] = [];
  private order = 0;
  constructor(private readonly clock: { now: number }) {}
  add(at: number, run: () => Promise<void>) {
    this.events.push({ at, order: this.order++, run });
  }
  async drain() {
    for (;;) {
      this.events.sort((a, b) => a.at - b.at || a.order - b.order);
      const next = this.events.shift();
      if (!next) return;
      this.clock.now = Math.max(this.clock.now, next.at);
      await next.run();
    }
  }
}

let serial = 0;
const person = (market: number) => {
  const [prefix, digits] = MARKETS[market];
  serial += 1;
  return `${prefix}${String(serial).padStart(digits, '0')}`;
};

/** A status reported at `at`: Meta prices it, and books the message when it says delivered or read. */
function report(books: BooksWorld, message: SentMessage, status: Reports['status'], at: number, reference?: string) {
  const pricing = books.world.emulator.pricing.pricingOf(message, at);
  books.world.emulator.pricing.book(message, pricing, at);
  const number = Object.values(NUMBERS).find((n) => n.phone_number_id === message.phone_number_id)!;
  const notification: MessageStatusNotification = {
    kind: 'message_status',
    message_id: message.id,
    status,
    at,
    waba_id: WABA,
    number_digits: number.did,
    phone_number_id: number.phone_number_id,
    recipient: String(message.message.to),
    pricing,
    ...(reference && { reference }),
  };
  return notification;
}

/** Applies a status; one answered `later` (its block not ready) is tried again, as the worker's retry does. */
function applyAt(books: BooksWorld, at: number, notification: () => MessageStatusNotification) {
  books.agenda.add(at, async () => {
    const [outcome] = await applyMessageStatuses(books.statusDeps, [notification()]);
    if (outcome === 'later') applyAt(books, books.clock.now + RETRY_MS, notification);
  });
}

/** A send accepted at its time: reserved, launched (in two parts around a pause), and its statuses reported. */
async function send(books: BooksWorld, step: SendStep, sendId: string) {
  const { world } = books;
  const number = NUMBERS[step.client];
  const goesOn = new Date(step.atMs).toISOString();
  const list = step.client === 7 ? (await world.priceLists.lists(7)).at(-1) : undefined;
  const reservation = reservationFor(step.category, goesOn, 'USD', list);
  const to = step.recipients.map((r) => person(r.market));
  const reserved = to.reduce((sum, digits) => sum + recipientEstimate(reservation, digits), 0);
  await world.budgets.reserve(step.client, reservation.month, reserved);
  const total = to.length;
  await world.sends.begin({
    send_id: sendId,
    client_id: step.client,
    did: number.did,
    template: TEMPLATES[step.category],
    status: 'queuing',
    created_at: goesOn,
    total,
    jobs: 1,
    reservation,
  });
  const block = { first: 0, size: total, sendable: total };
  const messages = to.map((digits, i) => ({
    id: `wamid.${sendId}.${i}`,
    phone_number_id: number.phone_number_id,
    accepted_at: step.atMs,
    message: { to: digits, template: { name: TEMPLATES[step.category].name, language: { code: TEMPLATES[step.category].language } } },
  }));
  const sent = messages.map((m) => ({ kind: 'sent' as const, message_id: m.id }));
  const paused = step.pause && step.pause.after < total ? step.pause : undefined;
  const lease = { holder: 'first', untilMs: step.atMs + HOUR };
  await world.blocks.claimBlock(sendId, block, lease, step.atMs);
  if (!paused) await world.blocks.settleBlock(sendId, block, sent, lease);
  else {
    // Paused mid-block: handed back open with the answers of those launched; another invocation sends the rest.
    await world.blocks.handBack(sendId, block, lease, new Map(sent.slice(0, paused.after).entries()));
    const resumeAt = step.atMs + paused.pauseMs;
    books.agenda.add(resumeAt, async () => {
      const later = { holder: 'second', untilMs: resumeAt + HOUR };
      await world.blocks.claimBlock(sendId, block, later, resumeAt);
      await world.blocks.settleBlock(sendId, block, sent, later);
    });
  }
  for (const [i, recipient] of step.recipients.entries()) {
    const launchedAt = paused && i >= paused.after ? step.atMs + paused.pauseMs : step.atMs;
    for (const r of recipient.reports)
      applyAt(books, launchedAt + r.afterMs + r.arrivesMs, () =>
        report(books, messages[i], r.status, launchedAt + r.afterMs, messageReference(sendId, 0, i)),
      );
  }
}

/** A message sent on the client's number by another tool: a utility template the service never saw. */
function outside(books: BooksWorld, step: OutsideStep, id: string) {
  const number = NUMBERS[step.client];
  const message: SentMessage = {
    id,
    phone_number_id: number.phone_number_id,
    accepted_at: step.atMs,
    message: { to: person(step.market), template: { name: TEMPLATES.UTILITY.name, language: { code: TEMPLATES.UTILITY.language } } },
  };
  for (const r of step.reports)
    applyAt(books, step.atMs + r.afterMs + r.arrivesMs, () => report(books, message, r.status, step.atMs + r.afterMs));
}

/** Plays the steps; each close run reads the months it closed, as they were filed. */
async function play(books: BooksWorld, steps: Step[]) {
  const filed = new Map<string, string>();
  for (const [n, s] of steps.entries()) {
    const at = START + s.atMs;
    if (s.kind === 'send') books.agenda.add(at, () => send(books, { ...s, atMs: at }, `s${n}`));
    if (s.kind === 'outside') books.agenda.add(at, async () => outside(books, { ...s, atMs: at }, `wamid.outside.${n}`));
    if (s.kind === 'graph')
      books.agenda.add(at, async () => {
        books.graph.down = s.down;
      });
    if (s.kind === 'close')
      books.agenda.add(at, async () => {
        await closeMonths(books.statementDeps, at);
        for (const key of books.statementDeps.statements.kept.keys()) {
          const [clientId, month] = key.split('|');
          if (!filed.has(key)) filed.set(key, JSON.stringify(await read(books, Number(clientId), month)));
        }
      });
  }
  await books.agenda.drain();
  return filed;
}

const read = (books: BooksWorld, clientId: number, month: string) =>
  statement(books.statementDeps, bspCaller(), { client_id: clientId, month });

/** The months from the first to the clock's. */
function monthsTo(now: number) {
  const months: string[] = [];
  for (let m = monthOf(dayOf(START)); m <= monthOf(dayOf(now)); ) {
    months.push(m);
    const [y, mm] = m.split('-').map(Number);
    m = mm === 12 ? `${y + 1}-01` : `${y}-${String(mm + 1).padStart(2, '0')}`;
  }
  return months;
}

const micros = (amount: number) => Math.round(amount * 1e6);

/**
 * Every month's statement of a client, read now, with its lines' cost in micro-units (BSP_CN sees `cost` where a
 * price was billed); none before its first charge.
 */
async function statementsOf(books: BooksWorld, clientId: Client) {
  const read_ = [];
  for (const month of monthsTo(books.clock.now)) {
    const body = await read(books, clientId, month).catch((error: unknown) => {
      if (error instanceof NotFound) return undefined;
      throw error;
    });
    if (body)
      read_.push({
        key: `${clientId}|${month}`,
        body,
        micros: body.statements.flatMap((s) => s.lines).reduce((sum, l) => sum + micros(l.cost ?? l.amount ?? 0), 0),
      });
  }
  return read_;
}

/** What each message was charged, sent by the service (per client: cost, and what its budget spends) and outside. */
function perMessage(books: BooksWorld) {
  const charged = { 7: { cost: 0, spent: 0 }, 8: { cost: 0, spent: 0 } };
  for (const [key, state] of books.world.sendTable.messages) {
    const send = books.world.sendTable.sends.get(key.split('|')[0])!;
    const client = charged[send.client_id as Client];
    client.cost += state.cost_micros ?? 0;
    client.spent += state.price_micros ?? state.cost_micros ?? 0;
  }
  const outside = [...books.outsideCharges.charged.values()].reduce((sum, c) => sum + c.entry.micros, 0);
  return { charged, outside };
}

/** The four figures of a run, in micro-units, and the budgets' months of both clients. */
async function figuresOf(books: BooksWorld) {
  const statements = [...(await statementsOf(books, 7)), ...(await statementsOf(books, 8))];
  const { charged, outside } = perMessage(books);
  const budgets = await Promise.all(
    ([7, 8] as const).map(async (c) => ({
      spent: charged[c].spent,
      months: await Promise.all(monthsTo(books.clock.now).map((m) => books.world.budgets.month(c, m))),
    })),
  );
  return {
    statements,
    byMessage: charged[7].cost + charged[8].cost + outside,
    inLedger: books.ledger.all().reduce((sum, e) => sum + e.entry.micros, 0),
    onStatements: statements.reduce((sum, s) => sum + s.micros, 0),
    byMeta: books.world.emulator.pricing.delivered.reduce((sum, d) => sum + d.micros, 0),
    budgets,
  };
}

/**
 * What reading the open month reads of the ledger (decisions §30: its cost grows with the request, not the client's
 * history): its own days and the late charges filed under it, then, for an empty month of a client with no month
 * closed yet, the search for its first charge.
 */
async function openMonthReads(books: BooksWorld, clientId: Client) {
  const month = monthAfter(lastMonthToClose(books.clock.now));
  books.ledger.reads.length = 0;
  await read(books, clientId, month).catch((error: unknown) => {
    if (!(error instanceof NotFound)) throw error;
  });
  const closedAny = (await books.statementDeps.statements.latest(clientId)) !== null;
  return { month, reads: [...books.ledger.reads], closedAny };
}

/** An open month's reads: only its own items, wherever the client has a month closed. */
function assessOneMonthRead({ month, reads, closedAny }: Awaited<ReturnType<typeof openMonthReads>>) {
  const { from, to } = daysOfMonth(month);
  expect(reads.slice(0, 2)).toEqual([
    { method: 'charges', from, to },
    { method: 'adjustments', from: month, to: month },
  ]);
  if (closedAny) expect(reads).toHaveLength(2);
}

/** What every run must show: the four figures equal, closed months as filed, budgets spent and nothing left reserved. */
function assessBalanced(figures: Awaited<ReturnType<typeof figuresOf>>, filed: Map<string, string>) {
  const { byMessage, inLedger, onStatements, byMeta } = figures;
  expect({ inLedger, onStatements, byMeta }).toEqual({ inLedger: byMessage, onStatements: byMessage, byMeta: byMessage });
  for (const s of figures.statements) {
    const kept = filed.get(s.key);
    if (kept) expect(JSON.stringify(s.body)).toBe(kept);
  }
  for (const { spent, months } of figures.budgets) {
    expect(months.reduce((sum, m) => sum + m.spent, 0)).toBe(spent);
    for (const m of months) expect(m.reserved - m.released).toBe(0);
  }
}

describe('the books balance (issue 51, decisions §30)', () => {
  it('to the micro-unit: each message’s charge = the ledger = every month’s statement lines = what Meta charged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        // Prepare
        const books = await booksWorld();
        // Act
        const filed = await play(books, steps);
        const figures = await figuresOf(books);
        // Assess
        assessBalanced(figures, filed);
        for (const clientId of [7, 8] as const) assessOneMonthRead(await openMonthReads(books, clientId));
      }),
      { numRuns: 150 },
    );
  }, 20_000);

  it('bills an October status redriven after October closed on the open month, and a paused block’s statuses once', async () => {
    // Prepare: client 7's send of three on 31 October, paused after one for 6 hours, the third's only status applied
    // after the close of 3 November; client 8's message outside the service, its October status applied then too
    // (client 8 had no October charge at the first close: the next run closes its October, empty, and November
    // bills the charge, applied after October closed)
    const late = { status: 'delivered' as const, afterMs: MINUTE, arrivesMs: 10 * DAY };
    const now = { status: 'read' as const, afterMs: 2 * MINUTE, arrivesMs: 0 };
    const october31 = Date.parse('2026-10-31T12:00:00Z') - START;
    const steps: Step[] = [
      { kind: 'graph', atMs: 0, down: true },
      {
        kind: 'send',
        atMs: october31,
        client: 7,
        category: 'MARKETING',
        recipients: [
          { market: 0, reports: [now, late, now] },
          { market: 1, reports: [late, now] },
          { market: 2, reports: [late] },
        ],
        pause: { after: 1, pauseMs: 6 * HOUR },
      },
      { kind: 'outside', atMs: october31, client: 8, market: 3, reports: [late, late] },
      { kind: 'close', atMs: Date.parse('2026-11-03T00:00:00Z') - START },
      { kind: 'close', atMs: Date.parse('2026-11-25T00:00:00Z') - START },
    ];
    const books = await booksWorld();
    // Act
    const filed = await play(books, steps);
    const figures = await figuresOf(books);
    // Assess
    assessBalanced(figures, filed);
    const adjusted = figures.statements.flatMap((s) =>
      s.body.statements.flatMap((c) => c.lines.filter((l) => l.kind === 'adjustment').map((l) => [s.key, l.of_month, l.messages])),
    );
    expect(adjusted).toEqual([
      ['7|2026-11', '2026-10', 1],
      ['8|2026-11', '2026-10', 1],
    ]);
    expect(figures.statements.map((s) => [s.key, s.body.status])).toEqual([
      ['7|2026-10', 'closed'],
      ['7|2026-11', 'open'],
      ['8|2026-10', 'closed'],
      ['8|2026-11', 'open'],
    ]);
    expect((await books.world.sends.get('s1'))?.counts).toMatchObject({ sent: 3, delivered: 3 });
    expect(figures.byMessage).toBeGreaterThan(0);
  });
});
