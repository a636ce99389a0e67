import { DeleteMessageCommand, type Message, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import type { DeployedFunction, LambdaAnswer } from './deployed-function.ts';
import { REHEARSAL_REGION } from './moto.ts';
import type { MadeStack, Template } from './resources.ts';

/**
 * A queue-triggered worker as its event source mapping runs it: the given messages (a sample's) are sent to the
 * queue the template maps to the function, and what is on the queue (at least `awaiting` messages) is received
 * and deleted with the function's role (Lambda's poller uses it), handed over as Lambda shapes the batch; the
 * batch must come back without a failure.
 */
export async function runQueueWorker(
  fn: DeployedFunction,
  template: Template,
  stack: MadeStack,
  given: { bodies: string[]; awaiting?: number },
  clients: { deployer: SQSClient; role: SQSClient },
): Promise<{ expected: string; got: string; received: number }> {
  const mapping = Object.values(template.Resources).find(
    (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties?.FunctionName?.Ref === fn.logicalId,
  );
  if (!mapping) return { expected: 'an event source mapping', got: 'none in the template', received: 0 };
  const queueId = mapping.Properties!.EventSourceArn['Fn::GetAtt'][0] as string;
  const queue = stack.resources.get(queueId)!;
  const sent = new Set<string>();
  for (const body of given.bodies)
    sent.add((await clients.deployer.send(new SendMessageCommand({ QueueUrl: queue.ref, MessageBody: body }))).MessageId!);
  const awaiting = given.awaiting ?? sent.size;
  const waiting = () => records.length < awaiting || [...sent].some((id) => !records.some((r) => r.messageId === id));
  // What else is on the queue (a notification the webhook route queued) comes in the same batches, as it would.
  const records: SQSRecord[] = [];
  for (let polls = 0; polls < 5 && waiting(); polls++) {
    const received = await clients.role.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.ref,
        MaxNumberOfMessages: Math.min(10, mapping.Properties!.BatchSize ?? 10),
        MessageSystemAttributeNames: ['All'],
        WaitTimeSeconds: 1,
      }),
    );
    records.push(...(received.Messages ?? []).map((message) => lambdaRecord(message, queue.attributes.Arn)));
  }
  if (waiting()) return { expected: `at least ${awaiting} messages received`, got: `${records.length}`, received: records.length };
  const answer: LambdaAnswer & { thrown?: string } = await fn
    .invoke({ Records: records })
    .catch((error: Error) => ({ thrown: error.message }));
  // A batch that threw fails whole: Lambda hands every message back.
  const failures = new Set(answer.thrown ? records.map((r) => r.messageId) : (answer.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  // As the poller does: what succeeded is deleted (IAM authorises DeleteMessageBatch as sqs:DeleteMessage).
  for (const record of records.filter((r) => !failures.has(r.messageId)))
    await clients.role.send(new DeleteMessageCommand({ QueueUrl: queue.ref, ReceiptHandle: record.receiptHandle }));
  return { expected: JSON.stringify({ batchItemFailures: [] }), got: JSON.stringify(answer), received: records.length };
}

/** A received message as Lambda hands it to the function. */
function lambdaRecord(message: Message, queueArn: string): SQSRecord {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body!,
    attributes: message.Attributes as unknown as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: message.MD5OfBody!,
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: REHEARSAL_REGION,
  };
}
