import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import {
  BatchGetCommand,
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { SORT } from '#lib/adapters/dynamo/table.ts';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { SqsJobQueue } from '#lib/adapters/sqs/job-queue.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { acceptDeps } from '#lib/wiring/send-deps.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import type { RequestMeter } from '../local/request-meter.ts';
import { DEMO_FIXTURE, type LocalStack, startLocalStack } from '../local/stack.ts';
import { EMULATOR_TOKEN } from '../local/standins/graph/emulator.ts';
import { trackOrderRecipients } from '../test/support/recipients.ts';
import { alternating, benchHarness } from './harness.ts';
import type { StoreRow } from './harness.ts';

const table = serviceTable();

export interface SendAcceptContext {
  stack: LocalStack;
  sqs: SQSClient;
  upstream: GraphUpstream;
  rounds: number;
  metered: <T>(work: () => Promise<T>) => Promise<{ value: T; meter: RequestMeter; ms: number }>;
  alternating: (rounds: number, ours: () => Promise<unknown>, baseline: () => Promise<unknown>) => Promise<[number, number]>;
  /** Starts keeping the SQS batches sent from now; the answer fills with them. */
  capture: () => string[][];
}

/** A DynamoDB request as the service issued it. */
type Write = { command: string; input: Record<string, unknown> };

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const READS = new Set(['GetItem', 'BatchGetItem', 'Query']);

/** Keeps the inputs of every DynamoDB read and write of the table's client while `into` answers a list. */
function keepWrites(into: () => Write[] | undefined) {
  table.client.middlewareStack.remove('benchKeepWrites');
  table.client.middlewareStack.add(
    (next, context) => async (args) => {
      const kept = into();
      const command = String(context.commandName).replace(/Command$/, '');
      if (kept && (WRITES.has(command) || READS.has(command)))
        kept.push({ command, input: structuredClone(args.input) as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: 'benchKeepWrites' },
  );
}

/** A copy of a value with every string's `from` replaced by `to` (sets and arrays kept as they are). */
function renamed<T>(value: T, from: string, to: string): T {
  if (typeof value === 'string') return value.replaceAll(from, to) as T;
  if (value instanceof Set) return new Set([...value].map((v) => renamed(v, from, to))) as T;
  if (Array.isArray(value)) return value.map((v) => renamed(v, from, to)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v, from, to)])) as T;
  return value;
}

/**
 * POST /v1/template/messages/{did} with 10,000 recipients (issue 10's row), against the fewest calls that do the
 * same work: the reads it made (the DID, the template, the price lists, the people map's pairs), all at once, and the same writes, item for item
 * as the send wrote them (its recipients' values included, the budget's reservation, the send's list entry and
 * count), each put in BatchWriteItems of 25 and each conditional update once, and the same SQS batches.
 */
export async function measureSendAccept(ctx: SendAcceptContext): Promise<{ row: StoreRow; sender: Caller }> {
  const { stack, sqs, rounds, metered, alternating } = ctx;
  const recipients = trackOrderRecipients(10_000);
  // Client 931 holds a synced record of a template with a text header, two body values and two buttons.
  const demo = JSON.parse(readFileSync(DEMO_FIXTURE, 'utf8')) as { wabas: { templates: { name: string }[] }[] };
  const trackOrder = demo.wabas.flatMap((w) => w.templates).find((t) => t.name === 'track_order')!;
  await importDirectory(table, {
    clients: [{ client_id: 931, client_name: 'Sender' }],
    wabas: [
      {
        waba_id: 'w931',
        waba_name: 'w931',
        business_id: 'b',
        business_name: 'b',
        namespace: 'ns_w931',
        templates: [{ ...trackOrder, id: 'tr931' }],
      },
    ],
    channels: [{ wa_id: '931001', client_id: 931, waba_id: 'w931', phone_number_id: '931' }],
    campaigns: [{ campaign_id: 9311, campaign_name: 'Send', client_id: 931 }],
    contact_channels: [{ channel_id: 9311, name: 'L', did: '931001', waba_id: 'w931', client_id: 931 }],
    template_records: [
      {
        id: '000003a30000000000000001',
        client_id: 931,
        waba_id: 'w931',
        template_id: 'tr931',
        channel_id: 9311,
        campaign_id: 9311,
        active: true,
      },
    ],
  });
  // The send's own wiring (lib/wiring/send-deps.ts), on the bench's queue client and Graph.
  const deps = acceptDeps(table, { queue: new SqsJobQueue({ client: sqs, url: stack.queueUrls.dispatch }), upstream: () => ctx.upstream });
  const body = {
    did: '931001',
    type: 'template' as const,
    channel: 'MSGCHAN' as const,
    template: { name: 'track_order', language: 'en_US' },
    recipients,
  };
  const sender = { sub: 'bench', clientId: 931, isBsp: false, campaigns: [9311] } as unknown as Caller;
  let sendRound = 0;
  const oneSend = () => sendTemplate(deps, sender, { pathDid: '931001', body, sendId: `bench-${sendRound++}` });
  const graphBefore = stack.emulator!.calls.length;
  const sentBatches = ctx.capture();
  let kept: Write[] | undefined = [];
  keepWrites(() => kept);
  const sent = await metered(oneSend);
  const reads = kept.filter((w) => READS.has(w.command));
  const writes = kept.filter((w) => WRITES.has(w.command));
  kept = undefined;
  const graphCalls = stack.emulator!.calls.length - graphBefore;
  const bodies = sent.meter.queueBytes;
  const puts = writes.flatMap((w) =>
    w.command === 'BatchWriteItem'
      ? Object.values(w.input.RequestItems as Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]>)
          .flat()
          .flatMap((r) => (r.PutRequest ? [r.PutRequest.Item] : []))
      : [],
  );
  const sendPut = writes.find((w) => w.command === 'PutItem' && (w.input.Item as { sk?: string }).sk === SORT.send);
  const updates = writes.filter((w) => w.command === 'UpdateItem' || w.command === 'TransactWriteItems');
  const others = writes.filter((w) => w !== sendPut && !updates.includes(w) && w.command !== 'BatchWriteItem');
  if (!sendPut || others.length > 0)
    throw new Error(`the send wrote what the baseline does not: ${writes.map((w) => w.command).join(', ')}`);

  const directSend = async (round: number) => {
    const id = `direct-${round}`;
    // The send's reads (the DID, the template, the price lists, the people map's pairs...), all at once.
    await Promise.all(reads.map(reissue));
    // The send as `queuing`, then its recipients as the send kept them (values, repeats and all), 25 a request.
    await table.client.send(
      new PutCommand({ TableName: table.name, Item: renamed(sendPut.input.Item as Record<string, unknown>, 'bench-0', id) }),
    );
    for (let i = 0; i < puts.length; i += 25)
      await table.client.send(
        new BatchWriteCommand({
          RequestItems: { [table.name]: puts.slice(i, i + 25).map((Item) => ({ PutRequest: { Item: renamed(Item, 'bench-0', id) } })) },
        }),
      );
    for (const batch of sentBatches) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: stack.queueUrls.dispatch,
          Entries: batch.map((MessageBody, j) => ({ Id: String(j), MessageBody })),
        }),
      );
    }
    // The budget's reservation and the send settled `queued` (listed and counted), as the send wrote them.
    for (const update of updates) {
      const input = renamed(update.input, 'bench-0', id) as never;
      if (update.command === 'UpdateItem') await table.client.send(new UpdateCommand(input));
      else await table.client.send(new TransactWriteCommand(input));
    }
  };
  let directRound = 0;
  const [sendMs, sendBaselineMs] = await alternating(rounds * 2, oneSend, () => directSend(directRound++));
  const payload = Buffer.byteLength(JSON.stringify(recipients));
  const writeRequests = writes.length;
  return {
    sender,
    row: {
      path: `POST /v1/template/messages/{did}, 10,000 recipients with header, body and button values (${(payload / 1e6).toFixed(2)} MB)`,
      ms: sendMs,
      baselineMs: sendBaselineMs,
      baseline: `the same ${reads.length} reads (the DID, the template, the price lists, the people map's pairs), issued at once, the same ${puts.length + 1} items put (each recipient's values kept for a resend) in ${Math.ceil(puts.length / 25) + 1} requests, the same ${updates.length} conditional updates (the budget's reservation, the send queued) and the same SQS batches, issued directly`,
      counts: `accepted; Graph requests ${graphCalls}; SQS requests ${sent.meter.queueRequests} for ${(bodies / 2 ** 20).toFixed(2)} MiB (fewest possible: ${Math.ceil(bodies / 2 ** 20)}); DynamoDB requests ${sent.meter.operations.length} (${writeRequests} writes)`,
      budget: `fewest SQS requests, ≤ 1.5×: ${sent.meter.queueRequests === Math.ceil(bodies / 2 ** 20) && sendMs / sendBaselineMs <= 1.5 ? 'met' : 'NOT met'}`,
    },
  };
}

/** A read as the send issued it, issued again directly. */
function reissue({ command, input }: Write) {
  const copy = structuredClone(input) as never;
  if (command === 'GetItem') return table.client.send(new GetCommand(copy));
  if (command === 'BatchGetItem') return table.client.send(new BatchGetCommand(copy));
  return table.client.send(new QueryCommand(copy));
}

/** `npx tsx bench/send-accept.ts [rounds]`: this row alone, on a stack of its own. */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? 2);
  const stack = await startLocalStack({ skipWorkers: ['DispatchMessages'] });
  try {
    const { sqs, metered, capture } = benchHarness(table.client);
    const graph = new GraphClient({ baseUrl: stack.graphUrl, token: async () => EMULATOR_TOKEN, timeoutMs: 30_000, log: silentLog });
    const { row } = await measureSendAccept({
      stack,
      sqs,
      upstream: new GraphUpstream(graph, 'bench'),
      rounds,
      metered,
      alternating,
      capture,
    });
    console.log(JSON.stringify({ ...row, ratio: row.ms / row.baselineMs }, null, 2));
  } finally {
    await stack.stop();
  }
  process.exit(0);
}
