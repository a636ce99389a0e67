import { ChangeMessageVisibilityBatchCommand } from '@aws-sdk/client-sqs';
import type { JobWaker } from '#lib/domain/ports/consent.ts';
import type { ServiceQueue } from './job-queue.ts';

/** SQS's limit of entries in one ChangeMessageVisibilityBatch. */
const BATCH = 10;

/**
 * Received dispatch jobs made visible again at once (ChangeMessageVisibility to 0 on their receipts): a paused
 * template's jobs when Meta lets it go (decisions §25). A receipt SQS no longer takes (the message was received
 * again or deleted) fails its entry alone and is skipped; a job woken twice is harmless, its claims send nothing
 * twice.
 */
export class SqsJobWaker implements JobWaker {
  constructor(private readonly queue: ServiceQueue) {}

  async wake(receipts: string[]) {
    let woken = 0;
    for (let i = 0; i < receipts.length; i += BATCH) {
      const entries = receipts.slice(i, i + BATCH);
      const result = await this.queue.client.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.queue.url,
          Entries: entries.map((ReceiptHandle, j) => ({ Id: String(j), ReceiptHandle, VisibilityTimeout: 0 })),
        }),
      );
      woken += result.Successful?.length ?? 0;
    }
    return woken;
  }
}
