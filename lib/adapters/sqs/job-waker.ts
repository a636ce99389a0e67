import { ChangeMessageVisibilityBatchCommand } from '@aws-sdk/client-sqs';
import type { JobWaker } from '#lib/domain/sends/dispatch/ports.ts';
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
    const batches = Array.from({ length: Math.ceil(receipts.length / BATCH) }, (_, b) => receipts.slice(b * BATCH, (b + 1) * BATCH));
    // A page's batches at once: a resume of many paused jobs takes a round trip a page, not one a batch.
    const results = await Promise.all(
      batches.map((entries) =>
        this.queue.client.send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: this.queue.url,
            Entries: entries.map((ReceiptHandle, j) => ({ Id: String(j), ReceiptHandle, VisibilityTimeout: 0 })),
          }),
        ),
      ),
    );
    return results.reduce((woken, result) => woken + (result.Successful?.length ?? 0), 0);
  }
}
