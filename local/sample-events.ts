import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, SQSEvent } from 'aws-lambda';
import type { RouteDef, SampleRequest } from '#lib/manifest/route.ts';
import { ROUTE_NOT_FOUND, routes } from '#lib/manifest/routes.ts';
import { dlqName, QUEUES, STREAMS } from '#lib/manifest/queues.ts';
import { type WorkerDef, workers } from '#lib/manifest/workers.ts';
import { apiGatewayEvent } from './api-gateway-event.ts';
import { mintToken, ROOT } from './keys.ts';

/**
 * One sample event per deployed function (`events/<FunctionName>.json`, written by `npm run events`), shaped
 * as API Gateway (HTTP API 2.0), SQS, EventBridge Scheduler or Cognito hands it over, against the demo fixture
 * (`npm start`). An HTTP function's sample is its route's (lib/manifest/routes/). Secrets are placeholders filled in
 * for a running stack (`fillSampleEvent`, `npm run sam:env`): `{{token:<name>}}` a bearer token of the local
 * issuer, `{{meta-signature}}` the body's X-Hub-Signature-256, `{{meta-verify-token}}` the verify token.
 */
export type HttpSample = SampleRequest & { route: string };

/** The demo fixture's callers (fixtures/demo.json) the samples name. */
export const SAMPLE_TOKENS = {
  acme: { clientId: 7, campaigns: [31, 32, 33], sub: 'sample-agent' },
  delta: { clientId: 10, campaigns: [], sub: 'sample-delta' },
} as const satisfies Record<NonNullable<SampleRequest['token']>, unknown>;

/** Every sample's time: the committed events stay the same from one `npm run events` to the next. */
const SAMPLE_TIME = new Date('2026-01-01T00:00:00Z');

/** In the manifest's order, the order the tests run them: a webhook configuration exists before it is read or rotated. */
export const HTTP_SAMPLES: Record<string, HttpSample> = {
  ...Object.fromEntries(routes.map((route) => [route.name, { route: route.name, ...route.sample }])),
  [ROUTE_NOT_FOUND.name]: { route: ROUTE_NOT_FOUND.name, expect: 404 },
};

const routeNamed = (name: string): RouteDef | undefined => routes.find((r) => r.name === name);

/** The HTTP API 2.0 event of a sample, placeholders in place, as the local server builds its events. */
export function httpSampleEvent(sample: HttpSample): APIGatewayProxyEventV2 {
  const route = routeNamed(sample.route);
  const path = (route?.path ?? '/v1/nowhere').replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(sample.path?.[name] ?? name));
  const url = new URL(`http://localhost${path}`);
  url.search = new URLSearchParams(sample.query ?? {}).toString();
  const body = sample.body === undefined ? '' : JSON.stringify(sample.body);
  const headers: Record<string, string> = { host: 'localhost', 'user-agent': 'sample-event' };
  if (body) headers['content-type'] = 'application/json';
  if (sample.token) headers.authorization = `Bearer {{token:${sample.token}}}`;
  if (sample.signedByMeta) headers['x-hub-signature-256'] = '{{meta-signature}}';
  const request = { method: route?.method ?? 'GET', url, headers, body: Buffer.from(body), protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' };
  return apiGatewayEvent(request, route, sample.path, `sample-${sample.route}`, SAMPLE_TIME);
}

const sqsEvent = (queue: string, bodies: readonly unknown[]): SQSEvent => ({
  Records: bodies.map((body, i) => ({
    messageId: `sample-${queue}-${i + 1}`,
    receiptHandle: `sample-receipt-${i + 1}`,
    body: JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '1767225600000',
      SenderId: 'sample',
      ApproximateFirstReceiveTimestamp: '1767225600000',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
    awsRegion: 'us-east-1',
  })),
});

/** EventBridge's scheduled event, as a scheduled worker gets it. */
const SCHEDULED = {
  version: '0',
  id: 'sample-schedule',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: '2026-01-01T00:00:00Z',
  region: 'us-east-1',
  resources: [],
  detail: {},
};

/** The Kinesis event Lambda hands a stream's consumer (issue 54): these bodies as a shard's records, in order. */
const kinesisEvent = (stream: string, bodies: readonly unknown[]) => ({
  Records: bodies.map((body, i) => ({
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: String((body as { stream_key?: unknown }).stream_key ?? `sample-${i}`),
      sequenceNumber: `4968000000000000000000000000000000000000000000000000000${i}`,
      data: Buffer.from(JSON.stringify(body)).toString('base64'),
      approximateArrivalTimestamp: 1767225600,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `shardId-000000000000:4968000000000000000000000000000000000000000000000000000${i}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::000000000000:role/sample',
    awsRegion: 'us-east-1',
    eventSourceARN: `arn:aws:kinesis:us-east-1:000000000000:stream/${stream}`,
  })),
});

/** A worker's sample event: its manifest sample on the queue or stream it consumes, or the schedule's event. */
function workerSampleEvent(worker: WorkerDef): unknown {
  if ('stream' in worker.trigger) return kinesisEvent(STREAMS[worker.trigger.stream].name, worker.sample ?? []);
  if (!('queue' in worker.trigger)) return SCHEDULED;
  const queue = QUEUES[worker.trigger.queue];
  return sqsEvent(worker.trigger.deadLetters ? dlqName(queue) : queue.name, worker.sample ?? []);
}

/** The workers' samples (lib/manifest/workers.ts) and the identity trigger's; each leaves nothing undone. */
export const OTHER_SAMPLES: Record<string, unknown> = {
  ...Object.fromEntries(workers.map((worker) => [worker.name, workerSampleEvent(worker)])),
  PreTokenGeneration: {
    version: '2',
    triggerSource: 'TokenGeneration_Authentication',
    region: 'us-east-1',
    userPoolId: 'us-east-1_sample',
    userName: 'sample-agent',
    callerContext: { awsSdkVersion: 'sample', clientId: 'sample-client' },
    request: {
      userAttributes: { sub: 'sample-agent', 'custom:client_id': '7', 'custom:permissions': '', 'custom:campaigns': '31 32' },
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] },
      scopes: [],
    },
    response: {},
  },
};

/** Where `npm run events` writes the samples. */
export const EVENTS_DIR = join(ROOT, 'events');

/** A function's sample event as `events/` holds it. */
export const readSampleEvent = (name: string) => JSON.parse(readFileSync(join(EVENTS_DIR, `${name}.json`), 'utf8'));

/** Every sample event by function name (what `events/` holds). */
export function sampleEvents(): Record<string, unknown> {
  return {
    ...Object.fromEntries(Object.entries(HTTP_SAMPLES).map(([name, sample]) => [name, httpSampleEvent(sample)])),
    ...OTHER_SAMPLES,
  };
}

/**
 * A sample with its placeholders filled for the running stack whose settings are given: the callers' tokens
 * those given (the rehearsal's, issued by its user pool), else minted by the local issuer.
 */
export async function fillSampleEvent<T>(
  event: T,
  settings: { META_APP_SECRET?: string; META_VERIFY_TOKEN?: string },
  tokens: Partial<Record<keyof typeof SAMPLE_TOKENS, string>> = {},
): Promise<T> {
  let text = JSON.stringify(event);
  for (const [name, spec] of Object.entries(SAMPLE_TOKENS)) {
    if (text.includes(`{{token:${name}}}`))
      text = text.replaceAll(
        `{{token:${name}}}`,
        tokens[name as keyof typeof SAMPLE_TOKENS] ?? (await mintToken({ ...spec, campaigns: [...spec.campaigns] })),
      );
  }
  text = text.replaceAll('{{meta-verify-token}}', settings.META_VERIFY_TOKEN ?? '');
  const filled = JSON.parse(text) as T & { body?: string; headers?: Record<string, string> };
  if (filled.headers?.['x-hub-signature-256'] === '{{meta-signature}}') {
    const mac = createHmac('sha256', settings.META_APP_SECRET ?? '')
      .update(filled.body ?? '', 'utf8')
      .digest('hex');
    filled.headers['x-hub-signature-256'] = `sha256=${mac}`;
  }
  return filled;
}
