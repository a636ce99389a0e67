import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { JobQueue } from '#lib/domain/ports.ts';

let client: SQSClient | undefined;

/** Replaces the process's SQS client; used by tests that inject faults into the AWS client. */
export function setSqsClient(replacement: SQSClient | undefined) {
  client = replacement;
}

/** Sends jobs in batches of ten; any message SQS refuses fails the call. */
export class SqsJobQueue implements JobQueue {
  constructor(private readonly queueUrl: () => string) {}

  async send(messages: Record<string, unknown>[]) {
    client ??= new SQSClient({});
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const result = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl(),
          Entries: batch.map((message, j) => ({ Id: String(j), MessageBody: JSON.stringify(message) })),
        }),
      );
      if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} of ${batch.length} messages`);
    }
  }
}
