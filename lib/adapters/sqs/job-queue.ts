import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { JobQueue } from '#lib/domain/shared/ports.ts';

/**
 * A queue as the job queue adapter gets it, through its constructor: the SQS client and the queue's URL. The
 * composition root decides where they come from (lib/wiring/queues.ts: the function's settings; a test: a
 * client that injects faults).
 */
export interface ServiceQueue {
  readonly client: SQSClient;
  readonly url: string;
}

/** An SQS client with the settings of the process (AWS_ENDPOINT_URL_SQS points it at the local stack's server). */
export const newQueueClient = () => new SQSClient({});

/** SQS's limits on one SendMessageBatch: ten messages, and 1 MiB for all their bodies together. */
export const BATCH_MESSAGES = 10;
export const BATCH_BYTES = 1024 * 1024;

/**
 * Messages in the fewest batches the limits allow, in order: a batch closes when the next message would pass
 * ten messages or the batch's bytes.
 */
export function packBatches(bodies: string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = Buffer.byteLength(body);
    if (current.length > 0 && (current.length >= BATCH_MESSAGES || bytes + size > BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(body);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Sends jobs in as few batches as SQS's limits allow; any message SQS refuses fails the call. A group's messages
 * carry it as `MessageGroupId`: on a standard queue that makes it a fair queue (AWS, 2025).
 */
export class SqsJobQueue implements JobQueue {
  constructor(private readonly queue: ServiceQueue) {}

  async send(messages: Record<string, unknown>[], group?: string) {
    await this.sendBatches(messages, { ...(group !== undefined && { MessageGroupId: group }) });
  }

  /** Sends messages that become visible after `seconds` (at most SQS's 15 minutes): what a stream hands back to wait. */
  async sendAfter(messages: Record<string, unknown>[], seconds: number) {
    await this.sendBatches(messages, { DelaySeconds: Math.max(0, Math.min(900, Math.round(seconds))) });
  }

  private async sendBatches(messages: Record<string, unknown>[], each: { MessageGroupId?: string; DelaySeconds?: number }) {
    for (const batch of packBatches(messages.map((message) => JSON.stringify(message)))) {
      const result = await this.queue.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queue.url,
          Entries: batch.map((body, j) => ({ Id: String(j), MessageBody: body, ...each })),
        }),
      );
      if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} of ${batch.length} messages`);
    }
  }
}
