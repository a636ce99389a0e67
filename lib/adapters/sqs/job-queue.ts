import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { JobQueue } from '#lib/domain/ports.ts';

let client: SQSClient | undefined;

/** Replaces the process's SQS client; used by tests that inject faults into the AWS client. */
export function setSqsClient(replacement: SQSClient | undefined) {
  client = replacement;
}

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

/** Sends jobs in as few batches as SQS's limits allow; any message SQS refuses fails the call. */
export class SqsJobQueue implements JobQueue {
  constructor(private readonly queueUrl: () => string) {}

  async send(messages: Record<string, unknown>[]) {
    client ??= new SQSClient({});
    for (const batch of packBatches(messages.map((message) => JSON.stringify(message)))) {
      const result = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl(),
          Entries: batch.map((body, j) => ({ Id: String(j), MessageBody: body })),
        }),
      );
      if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} of ${batch.length} messages`);
    }
  }
}
