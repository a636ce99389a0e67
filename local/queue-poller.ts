import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lambdaContext } from './api-server.ts';
import { recordInvocation, usage } from './usage.ts';

/** One batch: receives of at most 10 until the batch is full, the window is over, or the queue has no more. */
async function receiveBatch(options: { sqs: SQSClient; queueUrl: string; batchSize: number; batchWindowMs?: number }) {
  const until = Date.now() + (options.batchWindowMs ?? 0);
  const messages: Message[] = [];
  do {
    const received = await options.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: Math.min(10, options.batchSize - messages.length),
        WaitTimeSeconds: messages.length === 0 ? 1 : 0,
        // local-aws-sqs reads the older AttributeNames (AWS reads either): without it no receive count
        // arrives, and the webhook backoff would never grow locally.
        AttributeNames: ['All'],
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const got = received.Messages ?? [];
    if (got.length > 0) usage.pollerRequests += 1;
    messages.push(...got);
    if (got.length === 0 && messages.length > 0) {
      if (Date.now() >= until) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } while (messages.length > 0 && messages.length < options.batchSize && Date.now() < until);
  return messages;
}

/**
 * Pollers that wait for messages at once, whatever the concurrency: as Lambda's event source mapping, a few poll
 * an idle queue, and one more starts each time one hands messages to an invocation, up to the concurrency.
 * (A hundred idle long polls would keep the local SQS server busy for nothing.)
 */
const IDLE_POLLERS = 2;

/** A queue's event source mapping: where it polls, how it batches, and the function it invokes. */
interface EventSourceMapping {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  /** How long a batch gathers messages (SQS hands over at most 10 a receive), as Lambda's batching window. */
  batchWindowMs?: number;
  name: string;
  /** The function's timeout: its context's remaining time counts down from it. */
  timeoutMs?: number;
  /** Invocations at once (the event source mapping's maximum concurrency). */
  concurrency?: number;
  handler: (event: SQSEvent, context: ReturnType<typeof lambdaContext>) => Promise<SQSBatchResponse | undefined>;
}

/** The turns to poll: a loop polls only while fewer than `limit` do; the others wait to be woken by one that got messages. */
function pollingTurns(limit: number, running: () => boolean) {
  let polling = 0;
  const waiting: (() => void)[] = [];
  return {
    async take() {
      while (running() && polling >= limit) await new Promise<void>((wake) => waiting.push(wake));
      polling++;
    },
    done() {
      polling--;
      waiting.shift()?.();
    },
    /** Wakes every waiting loop (a stop). */
    wakeAll() {
      for (const wake of waiting.splice(0)) wake();
    },
  };
}

/** The SQS event Lambda hands its function for a batch of messages. */
function sqsEventOf(messages: Message[], queueArn: string): SQSEvent {
  return {
    Records: messages.map((m) => ({
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes: {
        ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
        SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn,
      awsRegion: 'us-east-1',
    })),
  };
}

/** Invokes the function with a batch: the ids of the messages that failed (all of them when it threw). */
async function invoke(mapping: EventSourceMapping, messages: Message[]): Promise<Set<string>> {
  const event = sqsEventOf(messages, mapping.queueArn);
  let failed = new Set(messages.map((m) => m.MessageId!));
  const started = performance.now();
  try {
    const response = await mapping.handler(event, lambdaContext(mapping.name, crypto.randomUUID(), mapping.timeoutMs ?? 60_000));
    failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  } catch {
    /* the whole batch failed: every message comes back after its visibility timeout */
  }
  recordInvocation(mapping.name, performance.now() - started);
  return failed;
}

/**
 * One batch through the function: the messages it handled are deleted, the failed ones kept in `inFlight`
 * (their receipt handles) until they come back.
 */
async function handleBatch(mapping: EventSourceMapping, messages: Message[], inFlight: Map<string, string>) {
  const failed = await invoke(mapping, messages);
  for (const m of messages) {
    if (failed.has(m.MessageId!)) inFlight.set(m.MessageId!, m.ReceiptHandle!);
    else inFlight.delete(m.MessageId!);
  }
  const done = messages.filter((m) => !failed.has(m.MessageId!));
  if (done.length === 0) return;
  usage.pollerRequests += 1;
  await mapping.sqs.send(
    new DeleteMessageBatchCommand({
      QueueUrl: mapping.queueUrl,
      Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
    }),
  );
}

/**
 * What Lambda's SQS event source mapping does: receive a batch, invoke the consumer with an SQS event,
 * delete the messages it did not report in batchItemFailures. Failed messages stay and come back after
 * their visibility timeout (which the consumer may lengthen), up to the queue's redrive to its DLQ.
 */
export function pollQueue(options: EventSourceMapping) {
  let running = true;
  /** Failed messages waiting for their next receive: their receipt handles, so a stop can hand them back. */
  const inFlight = new Map<string, string>();
  const turns = pollingTurns(Math.min(IDLE_POLLERS, options.concurrency ?? 1), () => running);
  const loop = async () => {
    while (running) {
      try {
        await turns.take();
        let messages: Message[];
        try {
          messages = running ? await receiveBatch(options) : [];
        } finally {
          turns.done();
        }
        if (messages.length > 0) await handleBatch(options, messages, inFlight);
      } catch {
        if (running) await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const finished = Promise.all(Array.from({ length: options.concurrency ?? 1 }, () => loop()));
  /** Stops polling and makes the messages it was retrying visible again, so nothing it held stays hidden. */
  return async () => {
    running = false;
    turns.wakeAll();
    await finished;
    for (const receiptHandle of inFlight.values()) {
      await options.sqs
        .send(new ChangeMessageVisibilityCommand({ QueueUrl: options.queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: 0 }))
        .catch(() => undefined);
    }
  };
}
