import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteMessageCommand, GetQueueUrlCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#lib/adapters/dynamo/client.ts';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { dlqName, QUEUES } from '#lib/manifest/queues.ts';
import { mintToken } from '../../local/keys.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';
import { until, untilFound } from '../support/until.ts';

/**
 * The books balance through a crash and a dead-letter redrive (issue 51, "done when"; decisions §27, §30). On a
 * stack of the test's own, client 652 (a price list of Meta's cost + 20 %, a budget) sends a UTILITY template to
 * 240 recipients in three markets; the stack is killed with SIGKILL mid-dispatch, with messages Meta accepted and
 * had not answered yet, and started again on its data with the statuses' stream worker unable to apply
 * (FAILING_WORKERS=ApplyMetaStatuses). Meta (the emulator) reports a first batch sent and delivered; their records
 * on the statuses' stream fail batch after batch, and the stream's event source gives each batch up after its
 * retries, naming it (its shard and sequence numbers, as Lambda does) on the notifications' dead-letter queue. Those
 * records are redriven to the notifications queue, as SQS's redrive does, and its worker reads the named statuses
 * again from the stream and applies them (issue 54). The stack stops and starts again with every worker, and Meta
 * reports every other message sent, delivered (twice) and some read. Once everything settled, to the micro-unit: the
 * send's cost = Meta's books = the usage = the open month's statement; the budget spent the send's price and holds
 * nothing reserved; each recipient got one message at most. The emulator keeps its books in memory, so Meta's books
 * are those of the two runs that reported deliveries, each message reported delivered in one run only.
 */
const CLIENT = 652;
const WABA = 'w652';
const NUMBER = { did: '52155565201', id: 'p652001' };
const RECIPIENTS = 240;
const KILL_AFTER = 60;
/** The dispatcher's claims end 17 s after a dead invocation took them, not 80 s (as dispatch-crash.test.ts). */
const SHORT_LEASES = { DISPATCH_TIMEOUT_SECONDS: '15', DISPATCH_LEASE_MARGIN_MS: '2000', GRAPH_MESSAGE_TIMEOUT_MS: '3000' };
/** No status unless the test asks Meta for one. */
const QUIET = { AUTO_STATUSES: '', ...SHORT_LEASES };
const today = () => new Date().toISOString().slice(0, 10);
const micros = (amount: number) => Math.round(amount * 1e6);
const sumOf = (values: number[]) => values.reduce((sum, n) => sum + n, 0);

type Sent = { id: string; message: { to: string } };
type Booked = { micros: number };
type Line = { messages: number; cost: number; amount: number };
type UsageRow = { messages: number; amount: number; price: number };
/** A batch of the statuses' stream given up on, as Lambda names it on its on-failure destination. */
type GivenUp = {
  requestContext: { condition: string };
  KinesisBatchInfo: { shardId: string; startSequenceNumber: string; endSequenceNumber: string; batchSize: number; streamArn: string };
};

/** The demo directory with client 652: its WABA, its number and the demo's UTILITY template under its own id. */
function fixtureWithClient(folder: string) {
  const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
  const template = { ...demo.wabas[0].templates.find((t: { name: string }) => t.name === 'order_update'), id: '652001' };
  demo.clients.push({ client_id: CLIENT, client_name: 'Books crash' });
  demo.wabas.push({
    waba_id: WABA,
    waba_name: 'Books crash',
    business_id: 'b652',
    business_name: 'Books crash',
    namespace: 'ns_w652',
    templates: [template],
  });
  demo.channels.push({
    wa_id: NUMBER.did,
    client_id: CLIENT,
    client_name: 'Books crash',
    waba_id: WABA,
    status: 'ACTIVE',
    phone_number_id: NUMBER.id,
    quality_rating: 'GREEN',
    current_limit: 'TIER_10K',
  });
  const file = join(folder, 'books-crash-fixture.json');
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });
const api = (stack: ChildStack, token: string, method: string, path: string, body?: unknown) =>
  fetch(`${stack.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  }).then(json);
const bsp = (stack: ChildStack, method: string, path: string, body?: unknown) => api(stack, stack.bspToken, method, path, body);
const emulator = (stack: ChildStack, method: string, path: string, body?: unknown) =>
  fetch(`${stack.graphUrl}/_emulator/${path}`, { method, ...(body !== undefined && { body: JSON.stringify(body) }) }).then(json);
const sentAt = async (stack: ChildStack) => (await emulator(stack, 'GET', `sent?phone_number_id=${NUMBER.id}`)).body.sent as Sent[];
const booksOf = async (stack: ChildStack) => (await emulator(stack, 'GET', `pricing?waba_id=${WABA}`)).body.delivered as Booked[];

/** Meta reports these messages' statuses, each `times` times, a few at once. */
async function report(stack: ChildStack, messages: Sent[], status: 'sent' | 'delivered' | 'read', times = 1) {
  for (let round = 0; round < times; round++)
    for (let i = 0; i < messages.length; i += 20)
      await Promise.all(
        messages.slice(i, i + 20).map((m) => emulator(stack, 'POST', `messages/${encodeURIComponent(m.id)}/status`, { status })),
      );
}

/** Moves every message of one queue to another, as SQS's redrive does from a dead-letter queue: their bodies. */
async function moveAll(stack: ChildStack, from: string, to: string) {
  const endpoint = /SQS-compatible server on (\S+)/.exec(stack.log)?.[1] as string;
  const sqs = new SQSClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const urlOf = async (name: string) => (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl as string;
  const [source, target] = [await urlOf(from), await urlOf(to)];
  const moved: GivenUp[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: source, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    if (Messages.length === 0) return moved;
    for (const message of Messages) {
      await sqs.send(new SendMessageCommand({ QueueUrl: target, MessageBody: message.Body as string }));
      await sqs.send(new DeleteMessageCommand({ QueueUrl: source, ReceiptHandle: message.ReceiptHandle as string }));
      moved.push(JSON.parse(message.Body as string));
    }
  }
}

/** What the stream's event source logged of the batches it gave up after their retries: their records' counts. */
const givenUpIn = (stack: ChildStack) =>
  stack.log
    .split('\n')
    .filter((line) => line.includes('stream batch given up after its retries'))
    .map((line) => JSON.parse(line) as { function: string; records: number });

/** The client's month as the stack's table keeps it: reserved, released, spent (micro-units). */
function budgetMonth(stack: ChildStack) {
  const [, endpoint, name] = /DynamoDB Local on (\S+), table ([\w-]+)/.exec(stack.log) as RegExpExecArray;
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const client = documentClient(endpoint, new DynamoDBClient({ endpoint, region: 'us-east-1', credentials }));
  return new DynamoBudgetStore({ client, name }).month(CLIENT, today().slice(0, 7));
}

const wait = <T>(what: string | (() => string), check: () => Promise<T | undefined>, timeoutMs: number) =>
  untilFound(what, check, timeoutMs, 250);

/** A stack on a folder of its own, started on the fixture with client 652; each start after the first keeps the data. */
function stacks() {
  const folder = mkdtempSync(join(tmpdir(), 'tms-books-crash-'));
  const data = join(folder, 'data');
  const fixture = fixtureWithClient(folder);
  const started: ChildStack[] = [];
  return {
    start: async (env: Record<string, string>) => {
      started.push(await startChildStack(data, { FIXTURE: fixture, ...env, ...(started.length === 0 && { FRESH: 'true' }) }));
      return started.at(-1) as ChildStack;
    },
    dispose: async () => {
      for (const stack of started) await stack.kill();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The priced client's send of 240, and the crash once Meta accepted some of it: how many Meta had when it died. */
async function sendAndCrash(first: ChildStack) {
  const list = await bsp(first, 'PUT', `/clients/${CLIENT}/price-list`, { effective_from: today(), currency: 'USD', markup_percent: 20 });
  const budget = await bsp(first, 'PUT', `/clients/${CLIENT}/budget`, { monthly_amount: 1_000 });
  expect([list.status, budget.status]).toEqual([200, 200]);
  const markets = ['52', '55', '91'];
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({
    to: `${markets[i % 3]}77${String(i).padStart(8, '0')}`,
    params: { body: [`B-${i}`] },
  }));
  // Meta answers each message a second after it accepted it: the crash finds messages Meta has and the service
  // never learned of (settled outcome_unknown after the restart), whose statuses must still count once.
  await emulator(first, 'POST', 'faults', { path: `/${NUMBER.id}/messages`, method: 'POST', afterAccept: true, delayMs: 1_000 });
  const token = await mintToken({ clientId: CLIENT, campaigns: [] });
  const body = { did: NUMBER.did, type: 'template', channel: 'MSGCHAN', template: { name: 'order_update', language: 'en_US' }, recipients };
  const accepted = await api(first, token, 'POST', `/template/messages/${NUMBER.did}`, body);
  expect(accepted.status).toBe(200);
  const launched = await wait(
    'messages sent',
    async () => {
      const count = (await sentAt(first)).length;
      return count >= KILL_AFTER ? count : undefined;
    },
    120_000,
  );
  await first.kill();
  return { sendId: accepted.body.send_id as string, launched };
}

/**
 * After the restart (the statuses' worker failing): the send completes; a first batch's statuses are given up on and
 * named on the DLQ, nothing of them applied; redriven, the notifications worker reads them again and applies them.
 */
async function deadLetterAndRedriveFirstBatch(second: ChildStack, sendId: string) {
  const completed = await wait(
    'the send completed after the restart',
    async () => {
      const { body } = await bsp(second, 'GET', `/sends/${sendId}`);
      return body.status === 'completed' ? (body as { sent: number; failed: number }) : undefined;
    },
    5 * 60_000,
  );
  const firstBatch = (await sentAt(second)).slice(0, 80);
  await report(second, firstBatch, 'sent');
  await report(second, firstBatch, 'delivered');
  await wait(
    'Meta’s first deliveries answered 200',
    async () => {
      const { notifications } = (await emulator(second, 'GET', 'notifications')).body as { notifications: { status: unknown }[] };
      return notifications.filter((n) => n.status === 200).length >= 2 * firstBatch.length ? true : undefined;
    },
    60_000,
  );
  const givenUp = await wait(
    'every status of the first batch given up after its retries',
    async () => {
      const lines = givenUpIn(second);
      return sumOf(lines.map((l) => l.records)) >= 2 * firstBatch.length ? lines : undefined;
    },
    180_000,
  );
  const books = await booksOf(second);
  const appliedBefore = sumOf((await usageRows(second)).map((r) => r.messages));
  const redriven = await moveAll(second, dlqName(QUEUES.metaNotifications), QUEUES.metaNotifications.name);
  const appliedAfter = await until(
    () => usageRows(second),
    (rows) => sumOf(rows.map((r) => r.messages)) >= firstBatch.length,
    120_000,
    500,
  );
  await second.stop();
  return { completed, firstBatch, books, givenUp, appliedBefore, redriven, appliedAfter };
}

/** With every worker again: every other message delivered (twice), some read; all applied. */
async function deliverTheRest(third: ChildStack, firstBatch: Sent[]) {
  const reported = new Set(firstBatch.map((m) => m.id));
  const sent = await sentAt(third);
  const rest = sent.filter((m) => !reported.has(m.id));
  await report(third, rest, 'sent');
  await report(third, rest, 'delivered', 2);
  await report(third, rest.slice(0, 40), 'read');
  const usage = await until(
    () => usageRows(third),
    (rows) => sumOf(rows.map((r) => r.messages)) >= sent.length,
    180_000,
    500,
  );
  return { sent, usage, books: await booksOf(third) };
}

/** The client's usage of today, as BSP_CN reads it (cost and price). */
const usageRows = async (stack: ChildStack) =>
  ((await bsp(stack, 'GET', `/usage?client_id=${CLIENT}&from=${today()}&to=${today()}&group_by=market,category`)).body.data ??
    []) as UsageRow[];

/** What the service says once everything settled: the send (cost and price), the open month's statement, the budget. */
async function servicesBooks(third: ChildStack, sendId: string) {
  const send = (await bsp(third, 'GET', `/sends/${sendId}`)).body;
  const statement = await bsp(third, 'GET', `/clients/${CLIENT}/statements/${today().slice(0, 7)}`);
  const budget = await bsp(third, 'GET', `/clients/${CLIENT}/budget`);
  return {
    answers: [statement.status, budget.status],
    send,
    lines: statement.body.statements.flatMap((s: { lines: Line[] }) => s.lines) as Line[],
    budget: budget.body as { spent: number; reserved: number },
    month: await budgetMonth(third),
  };
}

type Run = Awaited<ReturnType<typeof sendAndCrash>> &
  Awaited<ReturnType<typeof deadLetterAndRedriveFirstBatch>> & {
    last: Awaited<ReturnType<typeof deliverTheRest>>;
    seen: Awaited<ReturnType<typeof servicesBooks>>;
  };

describe('the books balance through a SIGKILL mid-dispatch and a dead-letter redrive (issue 51, decisions §30)', () => {
  const own = stacks();
  let run: Run;

  beforeAll(async () => {
    // Prepare / Act: the send and its crash; the restart, the dead letters and their redrive; the rest
    const crashed = await sendAndCrash(await own.start(QUIET));
    const second = await own.start({ ...QUIET, FAILING_WORKERS: 'ApplyMetaStatuses' });
    const deadLettered = await deadLetterAndRedriveFirstBatch(second, crashed.sendId);
    const third = await own.start(QUIET);
    const last = await deliverTheRest(third, deadLettered.firstBatch);
    run = { ...crashed, ...deadLettered, last, seen: await servicesBooks(third, crashed.sendId) };
    const { sent, failed, delivered } = run.seen.send;
    const atMeta = `${run.launched} at Meta when killed, ${run.last.sent.length} in all`;
    const completed = `completed ${run.completed.sent} sent, ${run.completed.failed} failed`;
    const redriven = `${run.redriven.length} batches of statuses given up on and redriven`;
    console.info(
      `books crash: ${atMeta}; the send ${completed}; ${redriven}; at the end ${sent} sent, ${failed} failed, ${delivered} delivered`,
    );
  }, 12 * 60_000);

  afterAll(() => own.dispose(), 60_000);

  it('crashed mid-dispatch, and sent each recipient one message at most, across the crash', () => {
    // Prepare
    const recipients = run.last.sent.map((m) => m.message.to);
    // Assess
    expect(run.launched).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(run.launched).toBeLessThan(RECIPIENTS);
    // Meta had messages the service settled outcome_unknown after the restart; their statuses counted them after all
    expect(run.completed.sent).toBeLessThan(run.last.sent.length);
    expect(run.seen.send.sent).toBe(run.last.sent.length);
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(recipients.length).toBeLessThanOrEqual(RECIPIENTS);
    expect(run.seen.send).toMatchObject({ status: 'completed', total: RECIPIENTS, pending: 0 });
  });

  it('dead-lettered the first batch of statuses (sent and delivered) and redrove every one of them', () => {
    // Prepare
    const named = run.redriven.map((r) => r.KinesisBatchInfo);
    // Assess: every status given up by the statuses' worker, none applied; each batch named as Lambda names it
    expect(run.firstBatch).toHaveLength(80);
    expect(new Set(run.givenUp.map((g) => g.function))).toEqual(new Set(['ApplyMetaStatuses']));
    expect(sumOf(run.givenUp.map((g) => g.records))).toBe(2 * run.firstBatch.length);
    expect(run.appliedBefore).toBe(0);
    // The redrive moved every batch named, those statuses and no other, and its worker applied them all
    expect(run.redriven).toHaveLength(run.givenUp.length);
    expect(run.redriven.map((r) => r.requestContext.condition)).toEqual(run.givenUp.map(() => 'RetryAttemptsExhausted'));
    for (const batch of named) expect(batch.streamArn).toMatch(/:stream\/meta-statuses$/);
    expect(sumOf(named.map((b) => b.batchSize))).toBe(2 * run.firstBatch.length);
    expect(sumOf(run.appliedAfter.map((r) => r.messages))).toBe(run.firstBatch.length);
  });

  it('charges the send what Meta’s books say, and the usage and the open month’s statement the same', () => {
    // Prepare
    const booked = [...run.books, ...run.last.books];
    const metaCost = sumOf(booked.map((d) => d.micros));
    // Assess: Meta charged each message it accepted once; Σ send's charges = Meta's = Σ usage = Σ statement lines
    expect(booked).toHaveLength(run.last.sent.length);
    expect(micros(run.seen.send.cost.amount)).toBe(metaCost);
    expect(sumOf(run.last.usage.map((r) => micros(r.amount)))).toBe(metaCost);
    expect(sumOf(run.last.usage.map((r) => r.messages))).toBe(run.last.sent.length);
    expect(run.seen.answers).toEqual([200, 200]);
    expect(sumOf(run.seen.lines.map((l) => micros(l.cost)))).toBe(metaCost);
    expect(sumOf(run.seen.lines.map((l) => l.messages))).toBe(run.last.sent.length);
  });

  it('bills the client its price: the budget spent the send’s price, and every reservation ended', () => {
    // Prepare
    const price = micros(run.seen.send.price.amount);
    // Assess
    expect(price).toBeGreaterThan(micros(run.seen.send.cost.amount));
    expect(sumOf(run.seen.lines.map((l) => micros(l.amount)))).toBe(price);
    expect(micros(run.seen.budget.spent)).toBe(price);
    expect(run.seen.month.spent).toBe(price);
    expect(run.seen.month.reserved).toBeGreaterThan(0);
    expect(run.seen.month.released).toBe(run.seen.month.reserved);
    expect(run.seen.budget.reserved).toBe(0);
  });
});
