import { stopServer } from '../standins/local-server.ts';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { dlqName, QUEUES } from '#lib/manifest/queues.ts';
import { DurableLog } from '../standins/sqs-journal/durable-log.ts';
import { freePort, type Stop } from './network.ts';
import { type JournalEntry, liveMessages, restoreJournal, SqsJournal } from '../standins/sqs-journal/sqs-journal.ts';

export interface LocalQueue {
  url: string;
  arn: string;
}

/**
 * `local-aws-sqs` 2.0.x counts a ChangeMessageVisibility as a receive (it shares the receive's bookkeeping), so
 * a worker that sets its own retry delay would reach its DLQ in half the receives AWS allows. Loaded here with
 * that line corrected (and the receive order below made fair), so receive counts, visibility and redrive behave
 * as in AWS; an upgrade that moves either line fails loudly instead of silently counting wrong.
 */
const RECEIVE_COUNT = 'let n=Number(t.record.attributes.ApproximateReceiveCount)+1;';
const RECEIVE_COUNT_FIXED = 'let n=Number(t.record.attributes.ApproximateReceiveCount)+(i?0:1);';
/**
 * A fair queue (AWS, 2025; decisions §23): on a standard queue whose messages name a `MessageGroupId` (the
 * tenant), a receive hands out first the visible messages of the groups with the fewest messages in flight, then
 * of those with the fewest messages at all, so a quiet tenant's job goes before a noisy tenant's backlog (ties keep
 * the order sent). `local-aws-sqs` hands them out in the order sent; its receive loop walks them in this order.
 */
const RECEIVE_ORDER = 'c=setInterval(()=>{d++;for(let y of S(this,E))if(!y.delayed){';
const RECEIVE_ORDER_FAIR = 'c=setInterval(()=>{d++;for(let y of fairOrder(S(this,E)))if(!y.delayed){';
const FAIR_ORDER = `
function fairOrder(messages) {
  const inFlight = new Map();
  const held = new Map();
  for (const m of messages) {
    const group = m.record.attributes.MessageGroupId;
    if (group === undefined) continue;
    held.set(group, (held.get(group) ?? 0) + 1);
    if (!m.visible) inFlight.set(group, (inFlight.get(group) ?? 0) + 1);
  }
  if (held.size === 0) return messages;
  const weight = (m) => {
    const group = m.record.attributes.MessageGroupId;
    return group === undefined ? [0, 0] : [inFlight.get(group) ?? 0, held.get(group)];
  };
  return messages
    .map((m, i) => ({ m, i, w: weight(m) }))
    .sort((a, b) => a.w[0] - b.w[0] || a.w[1] - b.w[1] || a.i - b.i)
    .map((x) => x.m);
}
`;

function loadLocalSqs(): { createSqsServer(o: Record<string, unknown>): Promise<Server> } {
  const require = createRequire(import.meta.url);
  const path = require.resolve('local-aws-sqs');
  const source = readFileSync(path, 'utf8');
  for (const line of [RECEIVE_COUNT, RECEIVE_ORDER])
    if (!source.includes(line)) throw new Error(`local-aws-sqs changed: ${path} no longer has the line to correct: ${line}`);
  const loaded = new Module(path) as Module & { _compile(code: string, filename: string): void; paths: string[] };
  loaded.filename = path;
  loaded.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(path));
  loaded._compile(source.replace(RECEIVE_COUNT, RECEIVE_COUNT_FIXED).replace(RECEIVE_ORDER, RECEIVE_ORDER_FAIR) + FAIR_ORDER, path);
  return loaded.exports as { createSqsServer(o: Record<string, unknown>): Promise<Server> };
}

/**
 * `local-aws-sqs` with the stack's queues (lib/manifest/queues.ts) and their dead-letter queues, redrive included; with a
 * journal file, behind the journal (local/standins/sqs-journal/sqs-journal.ts), which makes them survive a crash.
 */
export async function startSqs(
  host: string,
  region: string,
  journal?: { file: string; restore: boolean },
): Promise<{
  endpoint: string;
  sqs: SQSClient;
  queues: Record<keyof typeof QUEUES, LocalQueue>;
  dlqs: Record<keyof typeof QUEUES, LocalQueue>;
  /** Messages sent back from the journal of an earlier run. */
  restored: number;
  /** Messages the journal leaves on the queues now (at a stop: what the next start sends back). */
  kept(): number;
  stop: Stop;
}> {
  const { createSqsServer } = loadLocalSqs();
  const port = await freePort(host);
  const server = await createSqsServer({ port, hostname: host, emulateQueueCreationLifecycle: false });
  const proxy = journal && new SqsJournal(`http://${host}:${port}`);
  const stop = async () => {
    await proxy?.stop();
    await stopServer(server);
  };
  const direct = new SQSClient({ endpoint: `http://${host}:${port}`, region });
  // With a journal, clients talk to it (it hands out queue URLs on its own port) and it forwards to the server.
  const endpoint = proxy ? await proxy.start(host) : `http://${host}:${port}`;
  const sqs = new SQSClient({ endpoint, region });
  const arnOf = async (url: string) =>
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? '';
  const queues = {} as Record<keyof typeof QUEUES, LocalQueue>;
  const dlqs = {} as Record<keyof typeof QUEUES, LocalQueue>;
  for (const [key, queue] of Object.entries(QUEUES) as [keyof typeof QUEUES, (typeof QUEUES)[keyof typeof QUEUES]][]) {
    // As deployed: a dead-letter queue has its queue's visibility timeout (a worker may consume it).
    const dlq = await sqs.send(
      new CreateQueueCommand({ QueueName: dlqName(queue), Attributes: { VisibilityTimeout: String(queue.visibilityTimeoutSeconds) } }),
    );
    dlqs[key] = { url: dlq.QueueUrl ?? '', arn: await arnOf(dlq.QueueUrl ?? '') };
    const created = await sqs.send(
      new CreateQueueCommand({
        QueueName: queue.name,
        Attributes: {
          VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: await arnOf(dlq.QueueUrl ?? ''), maxReceiveCount: queue.maxReceiveCount }),
        },
      }),
    );
    const url = created.QueueUrl ?? '';
    queues[key] = { url, arn: await arnOf(url) };
  }
  let restored = 0;
  if (proxy && journal) {
    const urls = new Map([...Object.values(queues), ...Object.values(dlqs)].map((q) => [q.url.split('/').pop() as string, q.url]));
    const fresh = journal.restore ? await restoreJournal(journal.file, direct, (name) => urls.get(name)) : undefined;
    proxy.useLog(fresh?.log ?? DurableLog.rewrite<JournalEntry>(journal.file, []));
    proxy.knowQueues(fresh?.restored ?? []);
    restored = fresh?.restored.length ?? 0;
  }
  const kept = () => (journal ? liveMessages(DurableLog.read<JournalEntry>(journal.file), Date.now()).length : 0);
  return { endpoint, sqs, queues, dlqs, restored, kept, stop };
}
