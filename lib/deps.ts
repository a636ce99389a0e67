import { lookup } from 'node:dns/promises';
import { loadConfig } from '#lib/config.ts';
import type { Resolver } from '#lib/domain/url-guard.ts';
import { DynamoDirectoryStore } from '#lib/store/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/store/dynamo/template-store.ts';
import { DynamoWebhookConfigStore } from '#lib/store/dynamo/webhook-store.ts';
import type { MediaPorts } from '#lib/domain/media.ts';
import { EventBridgePublisher } from '#lib/events-eventbridge.ts';
import { DynamoOutboxStore } from '#lib/store/dynamo/outbox-store.ts';
import { DynamoSyncLeaseStore } from '#lib/store/dynamo/lease-store.ts';
import { SqsJobQueue } from '#lib/queue-sqs.ts';
import { GraphClient } from '#lib/upstream/graph-client.ts';
import { fetchMedia } from '#lib/upstream/media-fetch.ts';
import { graphApiToken } from '#lib/upstream/token.ts';

/** The production adapters, made once per process. Handlers take what they need from here. */
export const directory = new DynamoDirectoryStore();
export const webhookConfigs = new DynamoWebhookConfigStore();
export const resolveHost: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

let graphClient: GraphClient | undefined;
/** The upstream client, made at first use so functions that never call the upstream need no upstream settings. */
export function graph(): GraphClient {
  graphClient ??= new GraphClient({
    baseUrl: loadConfig('GRAPH_API_URL').GRAPH_API_URL,
    token: graphApiToken,
    timeoutMs: Number(process.env.GRAPH_API_TIMEOUT_MS ?? 5_000),
  });
  return graphClient;
}

export const templateRecords = new DynamoTemplateRecordStore();

export const outbox = new DynamoOutboxStore();
export const publisher = new EventBridgePublisher();

/** Media for template headers: the guarded downloader and the upstream's resumable upload. */
export const media: MediaPorts = {
  resolve: resolveHost,
  download: (url, maxBytes) => fetchMedia(url, { maxBytes }),
  upload: (file) => graph().uploadMedia(process.env.GRAPH_APP_ID ?? 'app', file),
};

export const syncLeases = new DynamoSyncLeaseStore();
export const syncQueue = new SqsJobQueue(() => loadConfig('SYNC_QUEUE_URL').SYNC_QUEUE_URL);
export const dispatchQueue = new SqsJobQueue(() => loadConfig('DISPATCH_QUEUE_URL').DISPATCH_QUEUE_URL);
