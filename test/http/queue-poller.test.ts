import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, inject, it } from 'vitest';
import { pollQueue } from '../../local/queue-poller.ts';

/** A client of the shared stack's SQS server. */
const localSqs = () =>
  new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

/** The local event source mapping behaves as AWS's on the retry path: receive counts arrive and grow. */
describe('the local SQS poller', () => {
  it('hands each retry its growing ApproximateReceiveCount, and deletes the message once handled', async () => {
    // Prepare: a queue of this test's own whose messages come back after one second
    const sqs = localSqs();
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `poller-${Date.now()}`, Attributes: { VisibilityTimeout: '1' } }),
    );
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'job' }));
    const counts: string[] = [];
    // Act: the consumer fails twice, then succeeds
    const stop = pollQueue({
      sqs,
      queueUrl: QueueUrl ?? '',
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:poller',
      batchSize: 1,
      name: 'PollerTest',
      handler: async (event: SQSEvent) => {
        counts.push(event.Records[0].attributes.ApproximateReceiveCount);
        return counts.length < 3 ? { batchItemFailures: [{ itemIdentifier: event.Records[0].messageId }] } : { batchItemFailures: [] };
      },
    });
    const deadline = Date.now() + 15_000;
    while (counts.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1_500));
    await stop();
    // Assess
    expect(counts).toEqual(['1', '2', '3']);
  }, 30_000);

  it('counts a receive, not a visibility change, as AWS does: a consumer that sets its own retry delay keeps its receives', async () => {
    // Prepare
    const sqs = localSqs();
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `visibility-${Date.now()}`, Attributes: { VisibilityTimeout: '30' } }),
    );
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'job' }));
    const counts: string[] = [];
    // Act: each receive is followed by two visibility changes (the second makes it visible at once)
    for (let i = 0; i < 3; i++) {
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, AttributeNames: ['All'], WaitTimeSeconds: 2 }));
      counts.push(Messages?.[0]?.Attributes?.ApproximateReceiveCount ?? 'none');
      const handle = Messages?.[0]?.ReceiptHandle;
      await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: handle, VisibilityTimeout: 10 }));
      await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: handle, VisibilityTimeout: 0 }));
    }
    // Assess
    expect(counts).toEqual(['1', '2', '3']);
  }, 30_000);

  it('is a fair queue, as AWS’s standard queue with message groups: a quiet tenant’s message goes before a noisy tenant’s backlog', async () => {
    // Prepare: tenant 1 has 30 messages queued and 5 in flight
    const sqs = localSqs();
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `fair-${Date.now()}`, Attributes: { VisibilityTimeout: '60' } }),
    );
    for (let i = 0; i < 30; i++)
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: `noisy-${i}`, MessageGroupId: 'client-1' }));
    const bodies = async (max: number) =>
      (await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: max, WaitTimeSeconds: 1 }))).Messages?.map((m) => m.Body);
    expect(await bodies(5)).toEqual(['noisy-0', 'noisy-1', 'noisy-2', 'noisy-3', 'noisy-4']);
    // Act: tenant 2 sends one message after them
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'quiet-0', MessageGroupId: 'client-2' }));
    const next = await bodies(1);
    // Assess: it is received first; then the backlog goes on in its order
    expect(next).toEqual(['quiet-0']);
    expect(await bodies(2)).toEqual(['noisy-5', 'noisy-6']);
  }, 30_000);
});
