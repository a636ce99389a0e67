import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';

let client: SQSClient | undefined;

/**
 * Brings a received message back after `seconds` instead of the queue's whole visibility timeout: a consumer
 * that reports it failed for a reason that passes sooner (a send still being queued) says when to retry.
 */
export async function redeliverIn(queueUrl: string, receiptHandle: string, seconds: number) {
  client ??= new SQSClient({});
  await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
}
