import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DirectoryFile, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { rebuildDerivedItems } from '#lib/adapters/dynamo/derived-items.ts';
import { rekeyLedgerItems } from '#lib/adapters/dynamo/money/ledger-rekey.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { settingsFor } from '#lib/manifest/needs.ts';
import { QUEUES } from '#lib/manifest/queues.ts';
import type { Needs, QueueKey, StreamKey } from '#lib/manifest/needs.ts';
import { ReceiveMetaWebhook } from '#lib/manifest/routes/meta.ts';
import { ROUTE_NOT_FOUND, routes } from '#lib/manifest/routes.ts';
import { workers } from '#lib/manifest/workers.ts';
import { startApiServer } from './api-server.ts';
import { stopServer } from './standins/local-server.ts';
import { LocalEventBridge } from './standins/eventbridge.ts';
import { LocalScheduler } from './standins/scheduler.ts';
import { EMULATOR_TOKEN, type GraphEmulator, type MessageStatus } from './standins/graph/emulator.ts';
import { MetaNotifier } from './standins/graph/notifier.ts';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, ROOT } from './keys.ts';
import { type DynamoDbLocalLoad, startDynamoDbLocal, useDynamoDb } from './parts/dynamodb.ts';
import { startGraphEmulator } from './parts/graph.ts';
import { stampLaunches } from './standins/graph/launch-stamp.ts';
import { localEndpoints } from './parts/local-endpoints.ts';
import { freePort, type Stop } from './parts/network.ts';
import { type DataDir, prepareDataDir } from './parts/persistence.ts';
import { startKinesis } from './parts/kinesis.ts';
import { startSqs } from './parts/sqs.ts';
import { startWorkers } from './parts/workers.ts';

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
  /** Keep the table, the emulator's state and the queues' messages here between runs (decisions §16); in memory when absent. */
  dataDir?: string;
  /** Start from the fixture even when data was kept. */
  fresh?: boolean;
  /**
   * Use the DynamoDB at this endpoint instead of starting DynamoDB Local (decisions §20): the table is made there
   * when missing, the fixture loaded into it when it is empty, and the stack never stops it.
   */
  dynamoEndpoint?: string;
  /** Workers of lib/manifest/workers.ts not to run (a benchmark of the send path leaves its jobs undispatched). */
  skipWorkers?: string[];
  /** Stream workers that cannot apply (a test of their dead letters): local/parts/workers.ts `failingHandler`. */
  failingWorkers?: string[];
  /** Workers' timeouts in seconds instead of the manifest's (a crash test's shorter dispatcher and leases). */
  workerTimeouts?: Record<string, number>;
  /** Statuses the emulator reports on its own for every accepted message (decisions §13); none when absent. */
  autoStatuses?: MessageStatus[];
  /** How DynamoDB Local's JVM compiles (local/parts/dynamodb.ts): `busy` for a stack that serves minutes of requests. */
  dynamoLoad?: DynamoDbLocalLoad;
  /** The share of a number's level a rolling second may hold above it before the emulator answers 130429 (a tenth). */
  burstShare?: number;
  log?: (line: string) => void;
}

export interface LocalStack {
  apiUrl: string;
  graphUrl: string;
  emulator?: GraphEmulator;
  tableName: string;
  sqsEndpoint: string;
  /** Queue URLs by the keys of lib/manifest/queues.ts. */
  queueUrls: Record<string, string>;
  /** The settings the stack gives its functions (table, endpoints, queues, issuer, upstream, Meta secrets). */
  settings: Record<string, string>;
  stop(): Promise<void>;
}

export const DEMO_FIXTURE = join(ROOT, 'fixtures', 'demo.json');
export const LOCAL_META_APP_SECRET = 'local-app-secret';
export const LOCAL_META_VERIFY_TOKEN = 'local-verify-token';
const TABLE_NAME = 'template-messaging';
const REGION = 'us-east-1';

/** Every function's needs together: the local stack runs them all in one process. */
function allNeeds(): Needs {
  const every = [...routes.map((r) => r.needs), ...workers.map((w) => w.needs), ROUTE_NOT_FOUND.needs];
  return {
    table: every.some((n) => n.table === 'write') ? 'write' : 'read',
    queues: [...new Set(every.flatMap((n) => n.queues ?? []))],
    streams: [...new Set(every.flatMap((n) => n.streams ?? []))],
    rereads: [...new Set(every.flatMap((n) => n.rereads ?? []))],
    wakes: [...new Set(every.flatMap((n) => n.wakes ?? []))],
    bus: every.some((n) => n.bus),
    upstream: every.some((n) => n.upstream),
    metaApp: every.some((n) => n.metaApp),
    pacing: every.some((n) => n.pacing),
    schedules: every.some((n) => n.schedules),
    onboarding: every.some((n) => n.onboarding),
  };
}

/** What each step of a start reads, and where it leaves the stop of what it started (the stops run in reverse). */
interface Start {
  host: string;
  log: (line: string) => void;
  stops: Stop[];
  options: LocalStackOptions;
  data?: DataDir;
}

type Queues = Awaited<ReturnType<typeof startSqs>>;
type Streams = Awaited<ReturnType<typeof startKinesis>>;

/** The AWS SDK's region and credentials for local parts, whatever profile the shell has. */
function useLocalCredentials() {
  Object.assign(process.env, { AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  delete process.env.AWS_PROFILE;
}

/** The table: on DynamoDB Local, or on the DynamoDB at `dynamoEndpoint` (decisions §20). */
async function startTable({ host, log, stops, options, data }: Start) {
  const dynamo = options.dynamoEndpoint
    ? await useDynamoDb(options.dynamoEndpoint, REGION, TABLE_NAME)
    : await startDynamoDbLocal(host, REGION, TABLE_NAME, data?.dynamoPath, options.dynamoLoad);
  stops.push(dynamo.stop);
  if (options.dynamoEndpoint)
    log(`DynamoDB at ${dynamo.endpoint} (DYNAMODB_ENDPOINT), table ${TABLE_NAME}${dynamo.created ? ' created there' : ''}`);
  else log(`DynamoDB Local on ${dynamo.endpoint}, table ${TABLE_NAME}${data ? `, kept in ${data.dynamoPath}` : ' (in memory)'}`);
  return dynamo;
}

async function startQueues({ host, log, stops, data }: Start) {
  const sqs = await startSqs(host, REGION, data && { file: data.queuesFile, restore: !data.fresh });
  stops.push(sqs.stop);
  log(`SQS-compatible server on ${sqs.endpoint}`);
  return sqs;
}

/** The streams (issue 54: Meta's statuses) on a Kinesis-compatible server, journaled with the data folder. */
async function startStreams({ host, log, stops, data }: Start) {
  const kinesis = await startKinesis(host, data && { file: data.streamsFile, restore: !data.fresh });
  stops.push(kinesis.stop);
  log(`Kinesis-compatible server (kinesalite) on ${kinesis.endpoint}`);
  return kinesis;
}

/** EventBridge: PutEvents routed by the stack's rule patterns to their target queues. */
async function startEventBridge({ host, log, stops }: Start, sqs: Queues) {
  const bus = new LocalEventBridge(sqs.sqs, Object.fromEntries(Object.entries(sqs.queues).map(([k, q]) => [k, q.url])));
  const url = await bus.start(host);
  stops.push(() => bus.stop());
  log(`EventBridge stand-in on ${url}`);
  return { bus, url };
}

/** EventBridge Scheduler: scheduled sends' one-time schedules, kept in the data folder, onto the release queue. */
async function startScheduler({ host, log, stops, data }: Start, sqs: Queues) {
  const scheduler = new LocalScheduler(
    sqs.sqs,
    Object.fromEntries(Object.values(sqs.queues).map((q) => [q.arn, q.url])),
    data?.schedulesFile,
  );
  const url = await scheduler.start(host);
  stops.push(() => scheduler.stop());
  log(`EventBridge Scheduler stand-in on ${url}${scheduler.pending().length ? ` (${scheduler.pending().length} schedules kept)` : ''}`);
  return { url, scheduler };
}

/** The upstream: our emulator, unless a real Graph API URL is given. */
async function startUpstream({ host, log, stops, options, data }: Start, fixture: DirectoryFile) {
  if (options.graphApiUrl) return { graphUrl: options.graphApiUrl, emulator: undefined };
  const graph = await startGraphEmulator(fixture, host, data && { file: data.graphFile, load: !data.fresh }, {
    burstShare: options.burstShare,
  });
  stops.push(graph.stop);
  // Each message request carries when it left, so the emulator counts the pace the dispatcher made.
  stops.push(stampLaunches(graph.url));
  log(`Graph API emulator on ${graph.url}`);
  return { graphUrl: graph.url, emulator: graph.emulator };
}

/**
 * Every function runs in this one process, so it gets every function's settings, made as the CDK stack makes
 * them; with where the AWS parts are and the local identity provider: what API Gateway and AWS give the deployed functions.
 */
function stackSettings(parts: {
  graphUrl: string;
  queueUrls: Record<QueueKey, string>;
  sqs: Queues;
  streams: Streams;
  dynamoEndpoint: string;
  eventBridgeUrl: string;
  schedulerUrl: string;
  apiUrl: string;
}): Record<string, string> {
  const functionSettings = settingsFor(allNeeds(), {
    tableName: TABLE_NAME,
    graphApiUrl: parts.graphUrl,
    graphToken: { token: process.env.GRAPH_API_TOKEN ?? EMULATOR_TOKEN },
    graphAppId: process.env.GRAPH_APP_ID ?? 'local-app',
    ...(process.env.GRAPH_API_VERSION && { graphApiVersion: process.env.GRAPH_API_VERSION }),
    // Meta's webhooks (decisions §13): the emulator signs with the same app secret.
    metaApp: {
      appSecret: process.env.META_APP_SECRET ?? LOCAL_META_APP_SECRET,
      verifyToken: process.env.META_VERIFY_TOKEN ?? LOCAL_META_VERIFY_TOKEN,
    },
    eventBusName: 'template-messaging-events',
    queueUrls: parts.queueUrls,
    streamNames: Object.fromEntries(Object.entries(parts.streams.streams).map(([key, s]) => [key, s.name])) as Record<StreamKey, string>,
    ...(process.env.MESSAGES_PER_SECOND && { messagesPerSecond: Number(process.env.MESSAGES_PER_SECOND) }),
    statementIssuer: { name: process.env.STATEMENT_PROVIDER_NAME, address: process.env.STATEMENT_PROVIDER_ADDRESS },
    // Onboarding (issue 55): the emulator answers any portfolio's credit line; business tokens kept in memory.
    onboarding: {
      providerPaysMeta: process.env.PROVIDER_PAYS_META !== 'false',
      providerBusinessId: process.env.PROVIDER_BUSINESS_ID ?? 'local-provider-business',
    },
    schedules: {
      group: 'local-sends',
      queueArn: parts.sqs.queues.sendRelease.arn,
      roleArn: 'arn:aws:iam::000000000000:role/local-scheduler',
    },
  });
  return {
    ...functionSettings,
    DYNAMODB_ENDPOINT: parts.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: parts.sqs.endpoint,
    AWS_ENDPOINT_URL_KINESIS: parts.streams.endpoint,
    AWS_ENDPOINT_URL_EVENTBRIDGE: parts.eventBridgeUrl,
    AWS_ENDPOINT_URL_SCHEDULER: parts.schedulerUrl,
    JWT_ISSUER: LOCAL_ISSUER,
    JWT_AUDIENCE: LOCAL_AUDIENCE,
    JWKS_URL: `${parts.apiUrl}/.well-known/jwks.json`,
    // Powertools' EMF metrics lines go to stdout; POWERTOOLS_METRICS_DISABLED=false shows them locally.
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
  };
}

/** The emulator's webhooks go to the service's Meta route, signed with the app secret the functions were given. */
function notifyTheService(emulator: GraphEmulator, apiUrl: string, autoStatuses: MessageStatus[], log: (line: string) => void) {
  emulator.notifier = new MetaNotifier({
    url: `${apiUrl}${ReceiveMetaWebhook.path}`,
    appSecret: process.env.META_APP_SECRET as string,
  });
  emulator.autoStatuses = autoStatuses;
  log(
    `Emulator notifies ${apiUrl}${ReceiveMetaWebhook.path}${emulator.autoStatuses.length ? ` (message statuses: ${emulator.autoStatuses.join(', ')})` : ''}`,
  );
}

/** The directory from the fixture into an empty table; in kept data, the derived items of indexes added since. */
async function loadTable(
  { log, options, data }: Start,
  dynamo: Awaited<ReturnType<typeof startTable>>,
  fixture: DirectoryFile,
  fixturePath: string,
) {
  if (dynamo.empty) {
    await importDirectory(serviceTable(), fixture);
    log(`Directory loaded from ${fixturePath}`);
  } else if (options.dynamoEndpoint) log(`Kept the table's data at ${dynamo.endpoint}`);
  else log(`Kept data in ${data?.root} (FRESH=true starts from the fixture)`);
  if (!dynamo.empty) {
    // Data kept by an earlier version may hold ledger items keyed by WABA alone: each client's part moves to its own.
    const rekeyed = await rekeyLedgerItems(serviceTable());
    if (rekeyed.items > 0) log(`Ledger items keyed by client (decisions §32): ${rekeyed.items} moved as ${rekeyed.parts} parts`);
  }
  if (dynamo.indexesAdded.length > 0) {
    // Data kept by an earlier version: its derived items (listing entries, DID hierarchy) are written now.
    const rebuilt = await rebuildDerivedItems(serviceTable());
    log(
      `Indexes added to the kept table (${dynamo.indexesAdded.join(', ')}); rebuilt ${rebuilt.entries} listing entries and ${rebuilt.channels} client channels`,
    );
  }
}

/** Settings only this process has (no deployment and no `sam local` gets them). */
function useLocalOnlySettings(emulatorUrl: string | undefined, data: DataDir | undefined) {
  // The console's Embedded Signup plays the emulator's popup through the local API (`POST /_local/embedded-signup`).
  if (emulatorUrl) process.env.LOCAL_GRAPH_EMULATOR_URL = emulatorUrl;
  // Onboardings' business tokens outlive a restart where the data does (an accepted onboarding resumes after a crash).
  if (data) process.env.LOCAL_VAULT_DIR = data.vaultDir;
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const stops: Stop[] = [];
  const stop = async () => {
    for (const part of stops.reverse()) await part();
  };
  try {
    const fixturePath = options.fixture ?? DEMO_FIXTURE;
    const fixture = parseDirectoryFile(JSON.parse(readFileSync(fixturePath, 'utf8')));
    useLocalCredentials();
    const data = options.dataDir ? prepareDataDir(options.dataDir, fixturePath, options.fresh ?? false) : undefined;
    const start: Start = { host, log, stops, options, data };
    const dynamo = await startTable(start);
    const sqs = await startQueues(start);
    const streams = await startStreams(start);
    const eventBridge = await startEventBridge(start, sqs);
    const { url: schedulerUrl, scheduler } = await startScheduler(start, sqs);
    const { graphUrl, emulator } = await startUpstream(start, fixture);

    // The API's port is fixed before the handlers load: their JWKS URL points at it.
    const apiPort = options.port ?? (await freePort(host));
    const apiUrl = `http://${host}:${apiPort}`;
    const queueUrls = Object.fromEntries(Object.keys(QUEUES).map((key) => [key, sqs.queues[key as QueueKey].url])) as Record<
      QueueKey,
      string
    >;
    const settings = stackSettings({
      graphUrl,
      queueUrls,
      sqs,
      streams,
      dynamoEndpoint: dynamo.endpoint,
      eventBridgeUrl: eventBridge.url,
      schedulerUrl,
      apiUrl,
    });
    // The functions' settings: this process runs the handlers; `npm run sam:env` hands the same to sam local.
    Object.assign(process.env, settings);
    useLocalOnlySettings(emulator ? graphUrl : undefined, data);
    if (emulator) notifyTheService(emulator, apiUrl, options.autoStatuses ?? [], log);

    await loadTable(start, dynamo, fixture, fixturePath);
    if (data && !data.fresh) log(`Queued messages restored: ${sqs.restored}; statuses on their stream: ${streams.restored}`);

    const api = await startApiServer({ port: apiPort, host, extra: await localEndpoints(eventBridge.bus, scheduler) });
    stops.push(() => stopServer(api.server));

    // Stopped in reverse: the workers first (handing back what they were retrying); the journal holds the rest.
    if (data) stops.push(() => log(`Queued messages kept: ${sqs.kept()}; statuses on their stream: ${streams.kept()}`));
    const sources = { sqs: sqs.sqs, queues: sqs.queues, deadLetterQueues: sqs.dlqs, ...streams };
    stops.push(await startWorkers(sources, options.skipWorkers, options.workerTimeouts, options.failingWorkers));
    return { apiUrl: api.url, graphUrl, emulator, tableName: TABLE_NAME, sqsEndpoint: sqs.endpoint, queueUrls, settings, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
