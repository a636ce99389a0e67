import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { documentClient } from '#lib/adapters/dynamo/client.ts';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { queueClient } from '#lib/wiring/queues.ts';
import { serviceTable, tableClient } from '#lib/wiring/table.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { mintToken } from '../local/keys.ts';
import {
  emptyMeter,
  meterDynamo,
  meterQueue,
  meterWritesByKey,
  type RequestMeter,
  summarizeWrites,
  type WriteLog,
  type WriteSummary,
} from '../local/request-meter.ts';
import { DEMO_FIXTURE, startLocalStack } from '../local/stack.ts';
import { resetUsage, usage } from '../local/usage.ts';
import { peakSecond, rateOf } from '../test/support/accept-times.ts';
import { fillBusyDay, GLOBAL_CATEGORIES, globalRecipients } from './global-sender.ts';
import { type KindTally, kindsOf } from './hot-items.ts';
import { withoutPerformance } from '../local/performance-writes.ts';
import { DynamoSendPerformances } from '#lib/adapters/dynamo/sends/send-performances.ts';

/**
 * The send path at production rates (decisions §19, issue 22), on the local stack's real parts in a process of
 * its own: two sends of 800 on one number at once, every message reporting sent, delivered and read through
 * the webhook; then a global sender late in its day, priced and not (issue 54: bench/global-sender.ts). Every DynamoDB write of every function is recorded by item key; reads, SQS requests and the
 * functions' invocations are counted, for the per-message ratios and the cost table.
 */
export interface SendPathRun {
  label: string;
  messages: number;
  /** The number's rate (its level, capped by MESSAGES_PER_SECOND): what the peak second is held to. */
  rate: number;
  writes: WriteSummary;
  /** Writes and units by item kind (the key with its ids taken out), most units first: where the units go. */
  kinds: KindTally[];
  /** The fewest write units the same work needs (baselineOf), measured on the same run's items. */
  baseline: SendPathBaseline;
  itemsRead: number;
  bytesRead: number;
  sqsRequests: number;
  invocations: Record<string, { count: number; ms: number }>;
  perSecond: number;
  peakSecond: number;
  exact: boolean;
  /** What the performance aggregates (decisions §33) add to its units, by item kind; and, on the STANDARD run, its replies'. */
  aggregates: { units: number; kinds: [kind: string, units: number][] };
  replies?: { replies: number; units: number; kinds: [kind: string, units: number][] };
}

/** The items that hold a message's own facts: its block's outcome, its delivery state, the listing's copy of it. */
const PER_MESSAGE_KINDS = /\/ (BLOCK|MSG|LATEST)#/;

export interface SendPathBaseline {
  /** One unit a fact of each message: its outcome, its delivery, its read. */
  facts: number;
  /** Every other item the run wrote, once, at its largest size (whole KB): what the work keeps. */
  kept: number;
  /** Of those, the recipients' values as accepted (`RCPT#`) and the people map's items of new people. */
  recipients: number;
  peopleMap: number;
  units: number;
}

/**
 * The fewest write units the run's work needs, never our own pattern of writes: each message's three facts (its
 * outcome, delivered, read) one unit each, as they arrive apart; and each item the run keeps (the recipients'
 * values, the send, its counts, the ledger's and the budget's items, the new people's identity items, the number's
 * pace) written once, at its largest size, as if every change to it were gathered into one write.
 */
function baselineOf(items: WriteSummary['items'], messages: number): SendPathBaseline {
  const unitsOf = (item: WriteSummary['items'][number]) => Math.max(1, Math.ceil(item.bytes / 1024));
  const kept = items.filter((item) => !PER_MESSAGE_KINDS.test(`${item.pk} / ${item.sk}`));
  const sum = (list: typeof items) => list.reduce((total, item) => total + unitsOf(item), 0);
  const facts = 3 * messages;
  return {
    facts,
    kept: sum(kept),
    recipients: sum(kept.filter((item) => item.sk.startsWith('RCPT#'))),
    peopleMap: sum(kept.filter((item) => item.pk.startsWith('IDENTITY#'))),
    units: facts + sum(kept),
  };
}

const CLIENT = 960;
const number = (n: number) => ({ did: `96000${n}`, id: `p96000${n}` });
/** The global senders: one with a price list, one without (issue 54 item 2), each on a WABA and number of its own. */
const GLOBAL_CLIENTS = [
  { clientId: 961, priced: true },
  { clientId: 962, priced: false },
];
const today = () => new Date().toISOString().slice(0, 10);

/** One send of a run: its number, its client's token, its template and its recipients. */
interface SendSpec {
  did: string;
  token: string;
  template: string;
  recipients: string[];
}

type LocalStack = Awaited<ReturnType<typeof startLocalStack>>;

/** The local stack as the runs use it: its API and emulator, the meters a run reads, and an unmetered view of sends. */
function benchOn(stack: LocalStack) {
  const meters: { meter?: RequestMeter; writes?: WriteLog } = {};
  meterDynamo(tableClient(), () => meters.meter, 'benchSendPathMeter');
  meterWritesByKey(tableClient(), () => meters.writes, 'benchSendPathWrites');
  meterQueue(queueClient(), () => meters.meter, 'benchSendPathQueue');
  const unmeteredClient = documentClient(stack.settings.DYNAMODB_ENDPOINT);
  const table = serviceTable();
  return {
    stack,
    meters,
    table,
    unmeteredClient,
    unmetered: new DynamoSendRecords({ client: unmeteredClient, name: table.name }),
    emulator: (path: string, body: unknown) =>
      fetch(`${stack.graphUrl}/_emulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    api: async (token: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${stack.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, number | string>;
    },
  };
}
type Bench = ReturnType<typeof benchOn>;

const ORDER_UPDATE = (() => {
  const demo = JSON.parse(readFileSync(DEMO_FIXTURE, 'utf8')) as { wabas: { templates: { name: string }[] }[] };
  return demo.wabas.flatMap((w) => w.templates).find((t) => t.name === 'order_update')!;
})();

/** A client with its WABA, numbers and templates, in the directory and at the emulator; each number reports sent, delivered and read. */
async function seedClient(bench: Bench, clientId: number, numbers: { did: string; id: string }[], templates: object[]) {
  const waba = `w${clientId}`;
  await importDirectory(bench.table, {
    clients: [{ client_id: clientId, client_name: `Send path ${clientId}` }],
    wabas: [
      { waba_id: waba, waba_name: waba, business_id: 'b', business_name: 'b', namespace: `ns_${waba}`, templates: templates as never },
    ],
    channels: numbers.map((n) => ({ wa_id: n.did, client_id: clientId, waba_id: waba, phone_number_id: n.id })),
  });
  await bench.emulator('wabas', { id: waba, templates, phone_numbers: numbers.map((n) => ({ id: n.id, display_phone_number: n.did })) });
  for (const n of numbers) await bench.emulator(`numbers/${n.id}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
}

/** The sends accepted and their statuses all counted, under the meters (a log of the writes, a meter of the rest). */
async function drive(bench: Bench, sends: SendSpec[]) {
  bench.meters.meter = emptyMeter();
  bench.meters.writes = { writes: [] };
  resetUsage();
  const ids = await Promise.all(
    sends.map(async (send) => {
      const body = await bench.api(send.token, 'POST', `/v1/template/messages/${send.did}`, {
        did: send.did,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: send.template, language: 'en_US' },
        recipients: send.recipients.map((to) => ({ to, params: { body: [to] } })),
      });
      if (typeof body.send_id !== 'string') throw new Error(`send refused: ${JSON.stringify(body)}`);
      return body.send_id;
    }),
  );
  // Waiting for the statuses reads the sends through a client of its own, so the meters see the send path alone.
  const statuses = [];
  for (const [i, id] of ids.entries()) {
    for (;;) {
      const counts = (await bench.unmetered.get(id))?.counts;
      const settled = counts && counts.sent + counts.failed + counts.expired + counts.duplicates_removed >= sends[i].recipients.length;
      if (counts && settled && counts.read === counts.sent) {
        statuses.push({ counts, of: sends[i].recipients.length });
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  // The last statuses' writes settle before the counts are read.
  await new Promise((r) => setTimeout(r, 1_000));
  const { meter, writes } = bench.meters as Required<Bench['meters']>;
  bench.meters.meter = undefined;
  bench.meters.writes = undefined;
  return { meter, writes, statuses, ids };
}

/** What the aggregates of decisions §33 add to a log's units, in all and by item kind (local/performance-writes.ts). */
async function aggregatesOf(bench: Bench, writes: WriteLog) {
  const [all, without] = await Promise.all([
    summarizeWrites(writes.writes, bench.table),
    summarizeWrites(writes.writes, bench.table, withoutPerformance),
  ]);
  const byKind = new Map(kindsOf(all.items).map((k) => [k.kind, k.units]));
  for (const k of kindsOf(without.items)) byKind.set(k.kind, (byKind.get(k.kind) ?? 0) - k.units);
  return { units: all.units - without.units, kinds: [...byKind].filter(([, units]) => units !== 0).sort((a, b) => b[1] - a[1]) };
}

/**
 * The sends' people answering (decisions §33), measured alone: every tenth message's person presses a quick-reply
 * button and every twentieth's (from the sixth) writes without quoting it, until each send's performance counts them.
 */
async function repliesOf(bench: Bench, ids: string[], perSend: number) {
  bench.meters.writes = { writes: [] };
  const performances = new DynamoSendPerformances({ client: bench.unmeteredClient, name: bench.table.name });
  for (const id of ids) {
    await bench.emulator('replies', { send_id: id, every: 10, button: { payload: 'YES', text: 'Yes' } });
    await bench.emulator('replies', { send_id: id, skip: 5, every: 20, text: 'hi', context: false });
  }
  const wanted = Math.ceil(perSend / 10) + Math.ceil((perSend - 5) / 20);
  for (const id of ids)
    for (;;) {
      const figures = (await performances.read(id))?.figures ?? [];
      const counted = figures.filter((f) => f.figure === 'replied' || f.figure === 'replied_after').reduce((sum, f) => sum + f.n, 0);
      if (counted >= wanted) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  await new Promise((r) => setTimeout(r, 1_000));
  const writes = bench.meters.writes;
  bench.meters.writes = undefined;
  return { replies: wanted * ids.length, ...(await aggregatesOf(bench, writes)) };
}

/** A run of sends on one number, measured: its writes by item and kind, its baseline, reads, requests and pace. */
async function runOn(
  bench: Bench,
  label: string,
  numberId: string,
  rate: number,
  sends: SendSpec[],
  replies = false,
): Promise<SendPathRun> {
  const { meter, writes, statuses, ids } = await drive(bench, sends);
  const summary = await summarizeWrites(writes.writes, bench.table);
  const messages = sends.reduce((sum, send) => sum + send.recipients.length, 0);
  const sent = (await (await fetch(`${bench.stack.graphUrl}/_emulator/sent?phone_number_id=${numberId}`)).json()) as {
    sent: { accepted_at: number; message: { to: string } }[];
  };
  const mine = new Set(sends.flatMap((send) => send.recipients));
  const times = sent.sent.filter((m) => mine.has(m.message.to)).map((m) => m.accepted_at);
  process.stderr.write(`send path: ${label}: done (${new Date().toISOString().slice(11, 19)})\n`);
  return {
    label,
    messages,
    rate,
    // The hottest three items and keys say enough; the whole list would be every block and message.
    writes: { ...summary, items: summary.items.slice(0, 3), keys: summary.keys.slice(0, 3) },
    kinds: kindsOf(summary.items),
    baseline: baselineOf(summary.items, messages),
    itemsRead: meter.itemsRead,
    bytesRead: meter.bytesRead,
    sqsRequests: meter.queueRequests + usage.pollerRequests,
    invocations: Object.fromEntries(usage.invocations),
    perSecond: rateOf(times),
    peakSecond: peakSecond(times),
    exact: statuses.every(({ counts, of }) => counts.sent === of && counts.delivered === of && counts.read === of && counts.failed === 0),
    aggregates: await aggregatesOf(bench, writes),
    ...(replies && { replies: await repliesOf(bench, ids, sends[0].recipients.length) }),
  };
}

/** The issue 22 runs: two sends of `perSend` at once on one number, STANDARD, then HIGH capped and uncapped. */
async function productionRuns(bench: Bench, perSend: number, high: boolean): Promise<SendPathRun[]> {
  const numbers = [1, 2, 3].map(number);
  await seedClient(bench, CLIENT, numbers, [{ ...ORDER_UPDATE, id: 't960' }]);
  // Numbers 2 and 3 are upgraded to HIGH: 2 is capped by MESSAGES_PER_SECOND, 3 goes as fast as this machine can.
  for (const n of numbers.slice(1)) await bench.emulator(`numbers/${n.id}/throughput`, { level: 'HIGH' });
  await new Promise((r) => setTimeout(r, 2_000));
  const token = await mintToken({ clientId: CLIENT, campaigns: [] });
  const twoSends = (n: { did: string }, tag: number) =>
    [1, 2].map((send) => ({
      did: n.did,
      token,
      template: 'order_update',
      recipients: Array.from({ length: perSend }, (_, i) => `52${tag}${send}${String(i).padStart(6, '0')}`),
    }));
  const runs = [await runOn(bench, 'STANDARD number (80/s)', numbers[0].id, 80, twoSends(numbers[0], 1), true)];
  if (!high) return runs;
  process.env.MESSAGES_PER_SECOND = '200';
  runs.push(await runOn(bench, 'HIGH number, MESSAGES_PER_SECOND = 200', numbers[1].id, 200, twoSends(numbers[1], 2)));
  delete process.env.MESSAGES_PER_SECOND;
  runs.push(
    await runOn(bench, 'HIGH number (1,000/s), uncapped: as fast as this machine goes', numbers[2].id, 1000, twoSends(numbers[2], 3)),
  );
  return runs;
}

/** A global sender's three sends (a template a category), each to `perMarket` new people in every market. */
function globalSends(did: string, token: string, clientId: number, perMarket: number, from: number): SendSpec[] {
  return GLOBAL_CATEGORIES.map((category, c) => ({
    did,
    token,
    template: `global_${category.toLowerCase()}`,
    // Each client's and each phase's people are new: their numbers' last digits are the client's own range.
    recipients: globalRecipients(today(), perMarket, (clientId % 10) * 3_000 + from + c * perMarket).map((r) => r.to),
  }));
}

/**
 * A global sender late in a busy day (issue 54 item 2): its client (priced or not), a first batch to every market
 * and category, every ledger and tier shard of the day then holding them all (fillBusyDay), and the run measured.
 */
async function globalRun(bench: Bench, clientId: number, priced: boolean, perMarket: number): Promise<SendPathRun> {
  const n = { did: `${clientId}001`, id: `p${clientId}001` };
  const templates = GLOBAL_CATEGORIES.map((category, c) => ({
    ...ORDER_UPDATE,
    id: `t${clientId}${c}`,
    name: `global_${category.toLowerCase()}`,
    category,
  }));
  await seedClient(bench, clientId, [n], templates);
  await new Promise((r) => setTimeout(r, 2_000));
  if (priced) {
    const bsp = await mintToken({ clientId: 7, bsp: true, sub: 'bsp-operator' });
    const list = await bench.api(bsp, 'PUT', `/v1/clients/${clientId}/price-list`, {
      effective_from: today(),
      currency: 'USD',
      markup_percent: 37.5,
    });
    if (list.error !== undefined) throw new Error(`price list refused: ${JSON.stringify(list)}`);
  }
  const token = await mintToken({ clientId, campaigns: [] });
  const first = await drive(bench, globalSends(n.did, token, clientId, 1, 0));
  const filled = await fillBusyDay(bench.unmeteredClient, bench.table.name, first.writes.writes);
  process.stderr.write(`send path: global sender ${clientId}: busy day (${filled} shard items filled)\n`);
  const label = `global sender${priced ? ', priced' : ', no price list'}: ${Object.keys(rateCards.on(today()).markets).length} markets × ${GLOBAL_CATEGORIES.length} categories, late in a busy day (STANDARD, 80/s)`;
  return runOn(bench, label, n.id, 80, globalSends(n.did, token, clientId, perMarket, 100));
}

/** The frequency cap's runs (issue 56 item 4): their labels, as the report finds them. */
export const CAP_RUNS = { without: 'MARKETING, no frequency cap', under: 'MARKETING under a frequency cap (3 per 7 days)' } as const;

/**
 * The frequency cap's cost (issue 56 item 4): two MARKETING sends of `perSend` new people at once on a STANDARD number
 * of a client without a cap, then the same on a client under a cap of 3 per 7 days (every message counted, none
 * skipped): the units a MARKETING message adds are the second run's less the first's, and its count items'.
 */
async function capRuns(bench: Bench, perSend: number): Promise<SendPathRun[]> {
  const runs: SendPathRun[] = [];
  const bsp = await mintToken({ clientId: 7, bsp: true, sub: 'bsp-operator' });
  for (const [clientId, label] of [
    [963, CAP_RUNS.without],
    [964, CAP_RUNS.under],
  ] as const) {
    const n = { did: `${clientId}001`, id: `p${clientId}001` };
    await seedClient(bench, clientId, [n], [{ ...ORDER_UPDATE, id: `t${clientId}m`, name: 'promo_update', category: 'MARKETING' }]);
    await new Promise((r) => setTimeout(r, 2_000));
    if (label === CAP_RUNS.under) {
      const cap = await bench.api(bsp, 'PUT', `/v1/clients/${clientId}/frequency-cap`, { marketing: { max: 3, days: 7 } });
      if (cap.client_id !== clientId) throw new Error(`frequency cap refused: ${JSON.stringify(cap)}`);
    }
    const token = await mintToken({ clientId, campaigns: [] });
    const sends = [1, 2].map((send) => ({
      did: n.did,
      token,
      template: 'promo_update',
      recipients: Array.from({ length: perSend }, (_, i) => `52${clientId}${send}${String(i).padStart(5, '0')}`),
    }));
    runs.push(await runOn(bench, label, n.id, 80, sends));
  }
  return runs;
}

/**
 * `which`: `all` (the issue 22 runs, the global senders and the frequency cap's), `global` (the STANDARD run and the
 * global senders), `cap` (the STANDARD run and the frequency cap's) or `standard` (the STANDARD run alone, with its
 * replies: bench/performance-report.ts).
 */
async function measure(perSend: number, which: string): Promise<SendPathRun[]> {
  const stack = await startLocalStack();
  const restore = process.env.MESSAGES_PER_SECOND;
  try {
    const bench = benchOn(stack);
    const runs = await productionRuns(bench, perSend, which === 'all');
    if (which === 'standard') return runs;
    if (which === 'cap') return [...runs, ...(await capRuns(bench, perSend))];
    // A tenth of a STANDARD send a market: 10 people a market for 800, 470 a send, three sends a client.
    const perMarket = Math.max(1, Math.round(perSend / 80));
    for (const { clientId, priced } of GLOBAL_CLIENTS) runs.push(await globalRun(bench, clientId, priced, perMarket));
    if (which === 'all') runs.push(...(await capRuns(bench, perSend)));
    return runs;
  } finally {
    if (restore === undefined) delete process.env.MESSAGES_PER_SECOND;
    else process.env.MESSAGES_PER_SECOND = restore;
    await stack.stop();
  }
}

const RESULT = '\nSEND PATH: ';

/** Runs the measurement in a process of its own (the AWS clients a process caches belong to its first stack). */
export function measureSendPath(perSend = 800, which = 'all'): SendPathRun[] {
  const output = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(perSend), which], {
    env: { ...process.env, LOG_LEVEL: 'WARN' },
    maxBuffer: 64 * 2 ** 20,
  }).toString();
  return JSON.parse(output.slice(output.lastIndexOf(RESULT) + RESULT.length)) as SendPathRun[];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measure(Number(process.argv[2] ?? 800), process.argv[3] ?? 'all');
  process.stdout.write(`${RESULT}${JSON.stringify(result)}`);
  process.exit(0);
}
