import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { documentClient } from '#lib/adapters/dynamo/client.ts';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { queueClient } from '#lib/wiring/queues.ts';
import { serviceTable, tableClient } from '#lib/wiring/table.ts';
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

/**
 * The send path at production rates (decisions §19, issue 22), on the local stack's real parts in a process of
 * its own: two sends of 800 on one number at once, every message reporting sent, delivered and read through
 * the webhook. Every DynamoDB write of every function is recorded by item key; reads, SQS requests and the
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
}

export interface KindTally {
  kind: string;
  items: number;
  writes: number;
  units: number;
}

/** An item's kind: its key with every id, position and date taken out (`SEND#…#P…` / `BLOCK#…`). */
export const kindOf = (pk: string, sk: string) =>
  `${pk} / ${sk}`.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '…').replace(/[0-9][0-9a-z:.-]*/g, '…');

function byKind(items: WriteSummary['items']): KindTally[] {
  const kinds = new Map<string, KindTally>();
  for (const item of items) {
    const kind = kindOf(item.pk, item.sk);
    const tally = kinds.get(kind) ?? { kind, items: 0, writes: 0, units: 0 };
    tally.items += 1;
    tally.writes += item.writes;
    tally.units += item.units;
    kinds.set(kind, tally);
  }
  return [...kinds.values()].sort((a, b) => b.units - a.units);
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
const WABA = 'w960';
const number = (n: number) => ({ did: `96000${n}`, id: `p96000${n}` });

async function measure(perSend: number): Promise<SendPathRun[]> {
  const stack = await startLocalStack();
  const restore = process.env.MESSAGES_PER_SECOND;
  try {
    const demo = JSON.parse(readFileSync(DEMO_FIXTURE, 'utf8')) as { wabas: { templates: { name: string }[] }[] };
    const orderUpdate = { ...demo.wabas.flatMap((w) => w.templates).find((t) => t.name === 'order_update')!, id: 't960' };
    const numbers = [1, 2, 3].map(number);
    await importDirectory(serviceTable(), {
      clients: [{ client_id: CLIENT, client_name: 'Send path' }],
      wabas: [{ waba_id: WABA, waba_name: WABA, business_id: 'b', business_name: 'b', namespace: `ns_${WABA}`, templates: [orderUpdate] }],
      channels: numbers.map((n) => ({ wa_id: n.did, client_id: CLIENT, waba_id: WABA, phone_number_id: n.id })),
    });
    const emulator = (path: string, body: unknown) =>
      fetch(`${stack.graphUrl}/_emulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await emulator('wabas', {
      id: WABA,
      templates: [orderUpdate],
      phone_numbers: numbers.map((n) => ({ id: n.id, display_phone_number: n.did })),
    });
    for (const n of numbers) await emulator(`numbers/${n.id}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
    // Numbers 2 and 3 are upgraded to HIGH: 2 is capped by MESSAGES_PER_SECOND, 3 goes as fast as this machine can.
    for (const n of numbers.slice(1)) await emulator(`numbers/${n.id}/throughput`, { level: 'HIGH' });
    await new Promise((r) => setTimeout(r, 2_000));
    const token = await mintToken({ clientId: CLIENT, campaigns: [] });
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${stack.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, number | string>;
    };

    let meter: RequestMeter | undefined;
    let writes: WriteLog | undefined;
    meterDynamo(tableClient(), () => meter, 'benchSendPathMeter');
    meterWritesByKey(tableClient(), () => writes, 'benchSendPathWrites');
    meterQueue(queueClient(), () => meter, 'benchSendPathQueue');
    const table = serviceTable();
    const unmetered = new DynamoSendRecords({ client: documentClient(stack.settings.DYNAMODB_ENDPOINT), name: table.name });

    const runOn = async (label: string, n: { did: string; id: string }, rate: number, tag: number): Promise<SendPathRun> => {
      const recipients = (send: number) => Array.from({ length: perSend }, (_, i) => `52${tag}${send}${String(i).padStart(6, '0')}`);
      meter = emptyMeter();
      writes = { writes: [] };
      resetUsage();
      const ids = await Promise.all(
        [1, 2].map(async (send) => {
          const body = await api('POST', `/v1/template/messages/${n.did}`, {
            did: n.did,
            type: 'template',
            channel: 'MSGCHAN',
            template: { name: 'order_update', language: 'en_US' },
            recipients: recipients(send).map((to) => ({ to, params: { body: [to] } })),
          });
          if (typeof body.send_id !== 'string') throw new Error(`send refused: ${JSON.stringify(body)}`);
          return body.send_id;
        }),
      );
      process.stderr.write(`send path: ${label}: accepted (${new Date().toISOString().slice(11, 19)})\n`);
      // Waiting for the statuses reads the sends through a client of its own, so the meters see the send path alone.
      const statuses = [];
      for (const id of ids) {
        for (;;) {
          const send = await unmetered.get(id);
          const counts = send?.counts;
          if (
            counts &&
            counts.sent + counts.failed + counts.expired + counts.duplicates_removed >= perSend &&
            counts.read === counts.sent
          ) {
            statuses.push(counts);
            break;
          }
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      // The last statuses' writes settle before the counts are read.
      await new Promise((r) => setTimeout(r, 1_000));
      const own = meter;
      const ownWrites = writes;
      meter = undefined;
      writes = undefined;
      const summary = await summarizeWrites(ownWrites.writes, table);
      const sent = (await (await fetch(`${stack.graphUrl}/_emulator/sent?phone_number_id=${n.id}`)).json()) as {
        sent: { accepted_at: number; message: { to: string } }[];
      };
      const mine = new Set([...recipients(1), ...recipients(2)]);
      const times = sent.sent.filter((m) => mine.has(m.message.to)).map((m) => m.accepted_at);
      const invocations = Object.fromEntries(usage.invocations);
      return {
        label,
        messages: 2 * perSend,
        rate,
        // The hottest three items and keys say enough; the whole list would be every block and message.
        writes: { ...summary, items: summary.items.slice(0, 3), keys: summary.keys.slice(0, 3) },
        kinds: byKind(summary.items),
        baseline: baselineOf(summary.items, 2 * perSend),
        itemsRead: own.itemsRead,
        bytesRead: own.bytesRead,
        sqsRequests: own.queueRequests + usage.pollerRequests,
        invocations,
        perSecond: rateOf(times),
        peakSecond: peakSecond(times),
        exact: statuses.every((s) => s.sent === perSend && s.delivered === perSend && s.read === perSend && s.failed === 0),
      };
    };

    const runs = [await runOn('STANDARD number (80/s)', numbers[0], 80, 1)];
    process.env.MESSAGES_PER_SECOND = '200';
    runs.push(await runOn('HIGH number, MESSAGES_PER_SECOND = 200', numbers[1], 200, 2));
    delete process.env.MESSAGES_PER_SECOND;
    runs.push(await runOn('HIGH number (1,000/s), uncapped: as fast as this machine goes', numbers[2], 1000, 3));
    return runs;
  } finally {
    if (restore === undefined) delete process.env.MESSAGES_PER_SECOND;
    else process.env.MESSAGES_PER_SECOND = restore;
    await stack.stop();
  }
}

const RESULT = '\nSEND PATH: ';

/** Runs the measurement in a process of its own (the AWS clients a process caches belong to its first stack). */
export function measureSendPath(perSend = 800): SendPathRun[] {
  const output = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(perSend)], {
    env: { ...process.env, LOG_LEVEL: 'WARN' },
    maxBuffer: 64 * 2 ** 20,
  }).toString();
  return JSON.parse(output.slice(output.lastIndexOf(RESULT) + RESULT.length)) as SendPathRun[];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measure(Number(process.argv[2] ?? 800));
  process.stdout.write(`${RESULT}${JSON.stringify(result)}`);
  process.exit(0);
}
