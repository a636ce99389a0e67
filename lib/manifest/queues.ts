/**
 * The queues, shared by the CDK stack and the local stack so both declare the same ones with the same
 * timeouts and redrive. `maxReceiveCount` failures move a message to its dead-letter queue. Each visibility
 * timeout is six times its consumer's timeout (lib/manifest/workers.ts), as AWS asks of a queue behind Lambda: a batch
 * the event source mapping retries after a throttle is not seen again while still being worked on. A message
 * whose worker failed it comes back after that (the workers that retry on purpose say sooner, `redelivers`).
 */
export interface QueueDef {
  /** The local stack's queue name; the deployed stack lets CloudFormation name its queues (two stacks per account). */
  name: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  /** Env variable through which functions learn the queue URL. */
  urlSetting: 'SYNC_QUEUE_URL' | 'DISPATCH_QUEUE_URL' | 'WEBHOOK_QUEUE_URL' | 'META_QUEUE_URL' | 'RELEASE_QUEUE_URL';
}

export const QUEUES = {
  sync: { name: 'template-sync', visibilityTimeoutSeconds: 5400, maxReceiveCount: 3, urlSetting: 'SYNC_QUEUE_URL' },
  // A dispatch job of 1,000 recipients takes 12.5 s at 80 messages per second (50 s at 20); an invocation sends
  // a slice of 3 s and hands the rest back (decisions §23), so a job takes 5 to 17 receives. Its 5 minutes of
  // visibility bound how long a job whose invocation died waits before it is taken up again (issue 23); its
  // claims' leases (the invocation's time and 30 s) are over by then. A job whose number is busy with other jobs
  // comes back when the recipients of its send before it would be sent, at most 30 s later (lib/domain/
  // sending/lanes.ts, crowdedWaitMs), not every second: 100 receives let a job wait 50 minutes behind its own send on
  // one number (a campaign of about 240,000 on one STANDARD number; a longer one should use more numbers).
  dispatch: { name: 'template-dispatch', visibilityTimeoutSeconds: 300, maxReceiveCount: 100, urlSetting: 'DISPATCH_QUEUE_URL' },
  // Webhook deliveries back off exponentially (see functions/workers/deliver-webhooks.ts): 20 receives
  // span more than 24 hours before a message moves to the dead-letter queue.
  webhookEvents: { name: 'template-webhook-events', visibilityTimeoutSeconds: 720, maxReceiveCount: 20, urlSetting: 'WEBHOOK_QUEUE_URL' },
  // Meta's notifications, one change per message: applying one takes a few writes. A status that overtook the
  // dispatcher comes back within seconds (the worker says when); 10 receives before the DLQ.
  metaNotifications: { name: 'meta-notifications', visibilityTimeoutSeconds: 360, maxReceiveCount: 10, urlSetting: 'META_QUEUE_URL' },
  // A scheduled send's time came (decisions §22): EventBridge Scheduler puts `{send_id}` here, and the release
  // worker queues the send's held jobs. Releasing is quick and safe to repeat: 5 receives before the DLQ.
  sendRelease: { name: 'send-release', visibilityTimeoutSeconds: 180, maxReceiveCount: 5, urlSetting: 'RELEASE_QUEUE_URL' },
} as const satisfies Record<string, QueueDef>;

/** A dead-letter queue's name in the local stack. */
export const dlqName = (queue: QueueDef) => `${queue.name}-dlq`;

/**
 * The streams (issue 54, docs/high-tier.md §3): Kinesis Data Streams, shared by the CDK stack and the local stack
 * as the queues are. Meta's message statuses go on `metaStatuses`, each under a partition key by its kind (a
 * `read` its send's, the others their send's and block's: lib/domain/shared/message-status.ts statusStreamKey), and
 * a worker reads each shard in order (lib/manifest/workers.ts ApplyMetaStatuses). A shard takes 1,000 records or
 * 1 MB a second: `shards` is the deployed default (a deployment sizes it: `statusShards`, docs/operations.md).
 */
export interface StreamDef {
  /** The local stack's stream name; the deployed stack lets CloudFormation name it. */
  name: string;
  shards: number;
  /** How long a record stays readable: a batch that keeps failing holds its shard at most this long. */
  retentionHours: number;
  /** Env variable through which functions learn the stream's name. */
  nameSetting: 'STATUS_STREAM_NAME';
}

export const STREAMS = {
  // Two shards: 800 statuses a second at 40 % of their records (docs/high-tier.md §3: 750 for 100 HIGH numbers).
  metaStatuses: { name: 'meta-statuses', shards: 2, retentionHours: 24, nameSetting: 'STATUS_STREAM_NAME' },
} as const satisfies Record<string, StreamDef>;
