import { dispatchConcurrency } from '#lib/config.ts';
import type { QUEUES } from '#lib/manifest/queues.ts';
import type { Needs, StreamKey } from '#lib/manifest/needs.ts';
import type * as v from 'valibot';
import { SAMPLE } from '#lib/manifest/route.ts';
import {
  DispatchJobMessage,
  MetaNotificationsMessage,
  NotifiedChangeMessage,
  SendReleaseMessage,
  SyncJobMessage,
  WebhookEventMessage,
} from '#lib/schemas/queue-messages.ts';

/**
 * Functions that are not behind the API: queue consumers and scheduled jobs. The CDK stack and the local
 * stack both read this list, so a worker runs the same way in both. `needs` means what it does on routes;
 * the queue a worker consumes is granted by its trigger.
 */
export interface WorkerDef {
  name: string;
  entry: string;
  /**
   * A queue consumer (batchSize messages per invocation, at most `maxConcurrency` invocations at once: Lambda's
   * event source mapping cap, and the local stack's number of pollers) or a schedule. `redelivers`: the worker
   * says when a message it failed comes back (ChangeMessageVisibility on the queue it consumes).
   * `batchWindowSeconds`: how long a batch may gather messages before the invocation (a batch over 10 needs one).
   */
  trigger:
    | {
        queue: keyof typeof QUEUES;
        /** Consumes the queue's dead-letter queue instead: what the queue's consumer gave up on. */
        deadLetters?: boolean;
        batchSize: number;
        batchWindowSeconds?: number;
        maxConcurrency?: number;
        redelivers?: boolean;
      }
    | StreamTrigger
    | { everyMinutes: number };
  needs: Needs;
  /**
   * A queue worker's message body (lib/schemas/queue-messages.ts): a message of another shape is refused before
   * its handler, as an unreadable one is (lib/worker/queue-worker.ts). Every queue worker has one (a unit test
   * says so); a scheduled worker has none.
   */
  body?: v.GenericSchema;
  /** The function's timeout; its queue's visibility timeout is six times this (lib/manifest/queues.ts). */
  timeoutSeconds: number;
  /**
   * A queue worker's sample (`events/<name>.json`, the deployed-bundle test): the bodies of the messages it is
   * tried with against the demo fixture, each left done (no batch item failures). A scheduled worker is tried
   * with the schedule's event.
   */
  sample?: readonly unknown[];
}

/**
 * A stream's consumer (issue 54), as Lambda's Kinesis event source runs it: each shard's records in order, in
 * batches of at most `batchSize` gathered for at most `batchWindowSeconds`, `parallelization` batches of a shard
 * at once (a key's records in one, in order). A batch reports the first record it could not finish
 * (ReportBatchItemFailures: the shard goes on from there); one that throws is halved and tried again
 * (BisectBatchOnFunctionError), `retryAttempts` times before its records are given up and named on the dead-letter
 * queue of `failuresTo`.
 */
export interface StreamTrigger {
  stream: StreamKey;
  batchSize: number;
  batchWindowSeconds: number;
  parallelization: number;
  retryAttempts: number;
  failuresTo: keyof typeof QUEUES;
}

/** A dispatch job of a send that does not exist. */
const JOB_OF_NO_SEND = {
  send_id: SAMPLE.unknownId,
  client_id: 7,
  did: SAMPLE.did,
  waba_id: '100200300',
  phone_number_id: '110001',
  channel: 'MSGCHAN',
  template: { name: 'order_update', language: 'en_US', id: '9001', components: [] },
  total_contacts: 1,
  job: 1,
  jobs: 1,
  first_index: 0,
  recipients: [{ to: '5215550100001', params: { body: ['A-1001'] } }],
};

export const DeliverWebhooks = {
  name: 'DeliverWebhooks',
  entry: 'functions/workers/deliver-webhooks.ts',
  // At most 8 at once: a client's slow receiver (10 s per attempt) holds up only its own batch, and the
  // service's concurrency is not spent on receivers that do not answer.
  trigger: { queue: 'webhookEvents', batchSize: 10, maxConcurrency: 8, redelivers: true },
  // It writes the delivery log. A batch is at most 10 attempts of at most 10 s each.
  needs: { table: 'write' },
  body: WebhookEventMessage,
  timeoutSeconds: 120,
  // An event of client 10, whose configuration the PutWebhookConfig sample leaves inactive: logged `skipped`.
  sample: [
    {
      detail: {
        id: 'sample-event-1',
        type: 'template.created',
        occurred_at: '2026-01-01T00:00:00.000Z',
        client_id: 10,
        correlation_id: 'sample',
        data: { id: SAMPLE.record, client_id: 10, waba_id: '100200500', status: 'PENDING' },
      },
    },
  ],
} satisfies WorkerDef;

export const SyncTemplatesWorker = {
  name: 'SyncTemplatesWorker',
  entry: 'functions/workers/sync-templates.ts',
  // Two at once at most: every sync pages through the rate-limited Graph API. It gets the lease's 15 minutes.
  trigger: { queue: 'sync', batchSize: 1, maxConcurrency: 2 },
  needs: { table: 'write', upstream: true, bus: true },
  body: SyncJobMessage,
  timeoutSeconds: 900,
  // A job whose lease nobody holds: the sync says so and does nothing.
  sample: [{ client_id: 10, lease_id: 'sample-lease-not-held' }],
} satisfies WorkerDef;

export const DispatchMessages = {
  // Up to four jobs an invocation, dispatched side by side (Powertools' batch processor runs a batch's records
  // in parallel), so the 1,000 invocations SQS allows an event source keep 4,000 jobs' numbers at their pace
  // (the simulation, bench/simulate.ts). Each sends a slice of its job and hands the rest back (decisions §23),
  // so a slow job holds its invocation a slice at most. The concurrency is a setting, sized in
  // docs/dispatch-jobs.md.
  name: 'DispatchMessages',
  entry: 'functions/workers/dispatch-messages.ts',
  trigger: { queue: 'dispatch', batchSize: 4, maxConcurrency: dispatchConcurrency(), redelivers: true },
  needs: { table: 'write', upstream: true, pacing: true, bus: true },
  body: DispatchJobMessage,
  // Short, so a job whose invocation died is taken up again within 5 minutes (its queue's visibility).
  timeoutSeconds: 50,
  // A job of a send that does not exist: dropped.
  sample: [JOB_OF_NO_SEND],
} satisfies WorkerDef;

export const AbandonDispatchJobs = {
  // A dispatch job in the dead-letter queue (its retries spent) settles its unsent recipients
  // `dispatch_abandoned`, so its send completes (issue 23). A block a live invocation holds makes it come back
  // after the dead-letter queue's visibility timeout.
  name: 'AbandonDispatchJobs',
  entry: 'functions/workers/abandon-dispatch-jobs.ts',
  trigger: { queue: 'dispatch', deadLetters: true, batchSize: 1, maxConcurrency: 2 },
  needs: { table: 'write' },
  body: DispatchJobMessage,
  timeoutSeconds: 50,
  // The same job of a send that does not exist, given up on: dropped.
  sample: [JOB_OF_NO_SEND],
} satisfies WorkerDef;

export const AbandonSyncJobs = {
  // A sync job in the dead-letter queue gives its lease back and records its run failed (issue 23).
  name: 'AbandonSyncJobs',
  entry: 'functions/workers/abandon-sync-jobs.ts',
  trigger: { queue: 'sync', deadLetters: true, batchSize: 1, maxConcurrency: 2 },
  needs: { table: 'write' },
  body: SyncJobMessage,
  timeoutSeconds: 30,
  // The same sync job, given up on: the lease is not held, the run recorded failed for client 10.
  sample: [{ client_id: 10, lease_id: 'sample-lease-not-held' }],
} satisfies WorkerDef;

export const ApplyMetaNotifications = {
  // Meta's notifications: template changes reach every client's records (with their events), statuses the sends.
  // Up to 100 a batch, gathered for at most a second: a send's statuses in one batch are counted in one write
  // (decisions §19), so at 3,000 statuses a second the send's count shards take a write per ~30 of them. Ten
  // batches at once keep up with 3,000 a second at a third of a second per batch.
  name: 'ApplyMetaNotifications',
  entry: 'functions/workers/apply-meta-notifications.ts',
  trigger: { queue: 'metaNotifications', batchSize: 100, batchWindowSeconds: 1, maxConcurrency: 10, redelivers: true },
  // The upstream: each WABA's billing currency, read once a container (decisions §26). The dispatch queue: Meta's
  // resume of a template wakes its paused jobs (decisions §25). The statuses' stream: a batch ApplyMetaStatuses gave
  // up on is named on this queue's dead-letter queue; redriven here, its records are read again and applied.
  needs: { table: 'write', bus: true, upstream: true, wakes: ['dispatch'], rereads: ['metaStatuses'] },
  body: MetaNotificationsMessage,
  timeoutSeconds: 60,
  // Meta's quality rating of template 9001, as the webhook route queues it.
  sample: [
    {
      waba_id: '100200300',
      at: 1767225600000,
      field: 'message_template_quality_update',
      value: { previous_quality_score: 'UNKNOWN', new_quality_score: 'GREEN', message_template_id: 9001 },
    },
  ],
} satisfies WorkerDef;

export const ApplyMetaStatuses = {
  // Meta's message statuses, read from their stream (issue 54, docs/high-tier.md §3): each shard's records in
  // batches of up to 10,000 gathered for 10 s (the 6 MB of an invocation's event cuts one at about 5,000), so a
  // send's statuses of a batch are applied in a few transactions and a block's latest items written once for
  // them. One batch a shard at once keeps each key's records in order. A status that overtook its block goes to
  // the notifications queue, which retries it as before (a stream's records cannot wait).
  name: 'ApplyMetaStatuses',
  entry: 'functions/workers/apply-meta-statuses.ts',
  trigger: {
    stream: 'metaStatuses',
    batchSize: 10_000,
    batchWindowSeconds: 10,
    parallelization: 1,
    retryAttempts: 10,
    failuresTo: 'metaNotifications',
  },
  needs: { table: 'write', bus: true, upstream: true, wakes: ['dispatch'], queues: ['metaNotifications'] },
  body: NotifiedChangeMessage,
  // A batch of 5,000 statuses over a few hundred sends: about 10 s at the simulation's times (docs/high-tier.md).
  timeoutSeconds: 120,
  // A delivered status of a message of a send that does not exist, as the webhook route puts it on the stream.
  sample: [
    {
      waba_id: '100200300',
      at: 1767225600000,
      field: 'messages',
      value: {
        messaging_product: 'whatsapp',
        statuses: [
          {
            id: 'wamid.sample',
            status: 'delivered',
            timestamp: '1767225600',
            recipient_id: '5215550100001',
            biz_opaque_callback_data: `tms2:${SAMPLE.unknownId}:0:0`,
          },
        ],
      },
      stream_key: `send:${SAMPLE.unknownId}:0`,
    },
  ],
} satisfies WorkerDef;

export const ReleaseScheduledSends = {
  // A scheduled send's time came (decisions §22): its held jobs go onto the dispatch queue; or a test-first send's
  // wait is over (decisions §33): its test is decided and its rest goes with the winner.
  name: 'ReleaseScheduledSends',
  entry: 'functions/workers/release-scheduled-sends.ts',
  trigger: { queue: 'sendRelease', batchSize: 1, maxConcurrency: 2 },
  needs: { table: 'write', queues: ['dispatch'] },
  body: SendReleaseMessage,
  timeoutSeconds: 30,
  // EventBridge Scheduler's message for a send that does not exist: skipped.
  sample: [{ send_id: 'sample-send-never-accepted' }],
} satisfies WorkerDef;

export const RelayOutbox = {
  name: 'RelayOutbox',
  entry: 'functions/workers/relay-outbox.ts',
  trigger: { everyMinutes: 1 },
  needs: { table: 'write', bus: true },
  timeoutSeconds: 50,
} satisfies WorkerDef;

export const ReconcileCosts = {
  // Once a day (decisions §24, §26): the last 3 days' pricing_analytics of every WABA (and days a run failed to read)
  // beside the ledger; each client's gaps are kept and counted as a metric.
  name: 'ReconcileCosts',
  entry: 'functions/workers/reconcile-costs.ts',
  trigger: { everyMinutes: 1440 },
  needs: { table: 'write', upstream: true },
  timeoutSeconds: 300,
} satisfies WorkerDef;

export const ReadTemplateAnalytics = {
  // Once a day (issue 56, decisions §33): each WABA's yesterday of Meta's template analytics, in its timezone, and
  // the last day Meta keeps its reads and clicks again, kept per template and day (docs/template-analytics.md).
  name: 'ReadTemplateAnalytics',
  entry: 'functions/workers/read-template-analytics.ts',
  trigger: { everyMinutes: 1440 },
  needs: { table: 'write', upstream: true },
  timeoutSeconds: 300,
} satisfies WorkerDef;

export const CloseStatements = {
  // Every hour (decisions §30): each client's months whose close time (00:00 UTC on the 3rd of the next month,
  // lib/domain/money/statements/months.ts) has passed are closed and kept, once; a run after a failed or missed one
  // closes what it left. Hourly, so a month closes within the hour after its time, whatever a client's timezone.
  name: 'CloseStatements',
  entry: 'functions/workers/close-statements.ts',
  trigger: { everyMinutes: 60 },
  needs: { table: 'write' },
  timeoutSeconds: 300,
} satisfies WorkerDef;

export const EndReservations = {
  // Every 15 minutes (decisions §30: reservations always end): each send's reservation is watched from shortly
  // after its acceptance (lib/domain/sends/operations/reservation-watch.ts): a send never recorded or never
  // queued gives it back whole; messages never settled give back their parts at their TTL's end.
  name: 'EndReservations',
  entry: 'functions/workers/end-reservations.ts',
  trigger: { everyMinutes: 15 },
  needs: { table: 'write' },
  timeoutSeconds: 300,
} satisfies WorkerDef;

/** Every worker, as the stack and the local stack run them. */
export const workers: WorkerDef[] = [
  DeliverWebhooks,
  SyncTemplatesWorker,
  DispatchMessages,
  AbandonDispatchJobs,
  AbandonSyncJobs,
  ApplyMetaNotifications,
  ApplyMetaStatuses,
  ReleaseScheduledSends,
  RelayOutbox,
  ReconcileCosts,
  ReadTemplateAnalytics,
  CloseStatements,
  EndReservations,
];
