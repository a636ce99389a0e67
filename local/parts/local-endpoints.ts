import { withoutPerformance } from '../performance-writes.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InternalServerError } from '@aws-sdk/client-dynamodb';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { relayOutbox } from '#lib/domain/webhooks/outbox.ts';
import { logger } from '#lib/log/logger.ts';
import { currentRequest } from '../api-server.ts';
import type { LocalEventBridge } from '../standins/eventbridge.ts';
import type { LocalScheduler } from '../standins/scheduler.ts';
import { publicJwks } from '../keys.ts';
import {
  emptyMeter,
  meterDynamo,
  meterQueue,
  meterWritesByKey,
  type RequestMeter,
  summarizeWrites,
  type WriteLog,
} from '../request-meter.ts';
import { queueClient } from '#lib/wiring/queues.ts';
import { serviceTable, tableClient } from '#lib/wiring/table.ts';

/** DynamoDB's commands that write. */
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/**
 * Meters the DynamoDB and SQS calls of each API request (operations, items and bytes read, items written,
 * queue requests), so tests can check what a request cost (`GET /_local/requests/{request id}/meter`), and what it queued (`…/queued`).
 */
function meterRequests(): { meters: Map<string, RequestMeter>; queued: Map<string, string[]> } {
  const meters = new Map<string, RequestMeter>();
  // The messages of the last requests that queued any: a test reads a send's jobs here, since the dispatcher
  // takes them off the queue at once.
  const queued = new Map<string, string[]>();
  let queuedBytes = 0;
  const current = () => {
    const requestId = currentRequest.getStore()?.requestId;
    if (!requestId) return undefined;
    let meter = meters.get(requestId);
    if (!meter) {
      meter = emptyMeter();
      meters.set(requestId, meter);
      if (meters.size > 10_000) meters.delete(meters.keys().next().value ?? '');
    }
    return meter;
  };
  meterDynamo(tableClient(), current);
  // A request that asked for a slow table (X-Local-DynamoDB-Delay-Ms) waits that long before each DynamoDB call,
  // or spends it on its own clock (X-Local-Clock: dynamodb); one that asked for failing writes
  // (X-Local-DynamoDB-Fault: writes) has each write fail as DynamoDB's own fault would.
  tableClient().middlewareStack.remove('localDynamoDelay');
  tableClient().middlewareStack.add(
    (next, context) => async (args) => {
      const request = currentRequest.getStore();
      if (request?.dynamoFault === 'writes' && WRITES.has(String(context.commandName)))
        throw new InternalServerError({ message: 'Injected fault (X-Local-DynamoDB-Fault)', $metadata: {} });
      const delayMs = request?.dynamoDelayMs;
      // On the function's own clock the call takes its delay of that clock, not of the machine's.
      if (delayMs && request?.virtual) request.virtual.spentMs += delayMs;
      else if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return next(args);
    },
    { step: 'initialize', name: 'localDynamoDelay' },
  );
  meterQueue(queueClient(), current, 'localQueueMeter', (bodies) => {
    const requestId = currentRequest.getStore()?.requestId;
    if (!requestId) return;
    queued.set(requestId, [...(queued.get(requestId) ?? []), ...bodies]);
    queuedBytes += bodies.reduce((sum, body) => sum + body.length, 0);
    // The oldest go first once they hold more than 64 MB (a flood of small webhook jobs never pushes a send's out).
    while (queuedBytes > 64 * 2 ** 20 && queued.size > 1) {
      const [oldest, its] = queued.entries().next().value as [string, string[]];
      queuedBytes -= its.reduce((sum, body) => sum + body.length, 0);
      queued.delete(oldest);
    }
  });
  return { meters, queued };
}

/**
 * Embedded Signup's popup for the console (issue 55, docs/console.md): the emulator's `POST /_emulator/embedded-signup`
 * through the API's own address (the console's Content-Security-Policy lets it call nothing else). 404 where the
 * stack has no emulator (GRAPH_API_URL set to another upstream).
 */
async function embeddedSignup(body: Buffer): Promise<{ status: number; value: unknown }> {
  const graph = process.env.LOCAL_GRAPH_EMULATOR_URL;
  if (!graph) return { status: 404, value: { message: 'No Graph API emulator in this stack', code: 'not_found' } };
  const answer = await fetch(`${graph}/_emulator/embedded-signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body.toString() || '{}',
  });
  return { status: answer.status, value: await answer.json() };
}

/**
 * Endpoints the local API serves besides the manifest's (never deployed): the JWKS the handlers verify
 * tokens against, and inspection and fault controls for tests and people.
 */
export async function localEndpoints(eventBridge: LocalEventBridge, scheduler: LocalScheduler) {
  const jwks = JSON.stringify(await publicJwks());
  const { meters, queued } = meterRequests();
  let writeLog: WriteLog | undefined;
  meterWritesByKey(tableClient(), () => writeLog);
  return async (req: IncomingMessage, url: URL, body: Buffer, res: ServerResponse): Promise<boolean> => {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof value === 'string' ? value : JSON.stringify(value));
      return true;
    };
    if (req.method === 'GET' && url.pathname === '/.well-known/jwks.json') return json(200, jwks);
    if (req.method === 'GET' && url.pathname === '/_local/events') return json(200, { routed: eventBridge.routed });
    if (req.method === 'POST' && url.pathname === '/_local/eventbridge/faults') {
      const fault = JSON.parse(body.toString() || '{}') as { times?: number; match?: string };
      eventBridge.failNext(Number(fault.times ?? 1), fault.match);
      return json(200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/_local/embedded-signup') {
      const { status, value } = await embeddedSignup(body);
      return json(status, value);
    }
    if (req.method === 'POST' && url.pathname === '/_local/relay-outbox') {
      const relay = { outbox: new DynamoOutboxStore(serviceTable()), publisher: new EventBridgePublisher(), log: logger };
      return json(200, { relayed: await relayOutbox(relay, Number(url.searchParams.get('graceMs') ?? 60_000)) });
    }
    // Every write any function makes, by item key (decisions §19: no hot item): POST starts a fresh
    // recording, GET sums it per item and per partition key, only keys beginning with one of `?prefix=a,b`.
    if (req.method === 'POST' && url.pathname === '/_local/writes') {
      writeLog = { writes: [] };
      return json(200, { recording: true });
    }
    if (req.method === 'GET' && url.pathname === '/_local/writes') {
      const prefixes = url.searchParams.get('prefix')?.split(',').filter(Boolean) ?? [''];
      const writes = (writeLog?.writes ?? []).filter((w) => prefixes.some((p) => w.pk.startsWith(p)));
      // `?without=performance`: the same writes as they would have been without the aggregates of decisions §33.
      const strip = url.searchParams.get('without') === 'performance' ? withoutPerformance : undefined;
      return json(200, await summarizeWrites(writes, serviceTable(), strip));
    }
    // A one-time schedule run now, ahead of its time (`send-<id>`, `test-<id>`): tests pass a wait without sleeping.
    const schedule = /^\/_local\/schedules\/([0-9A-Za-z_.-]{1,64})\/run$/.exec(url.pathname);
    if (req.method === 'POST' && schedule) return json(200, { ran: await scheduler.runNow(schedule[1]) });
    const ops = /^\/_local\/requests\/([^/]+)\/meter$/.exec(url.pathname);
    if (req.method === 'GET' && ops) return json(200, meters.get(ops[1]) ?? emptyMeter());
    const jobs = /^\/_local\/requests\/([^/]+)\/queued$/.exec(url.pathname);
    if (req.method === 'GET' && jobs) return json(200, `[${(queued.get(jobs[1]) ?? []).join(',')}]`);
    return false;
  };
}
