import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { KinesisClient } from '@aws-sdk/client-kinesis';
import type { KinesisStreamEvent } from 'aws-lambda';
import type { StreamKey } from '#lib/manifest/needs.ts';
import type { QUEUES } from '#lib/manifest/queues.ts';
import { type StreamTrigger, type WorkerDef, workers } from '#lib/manifest/workers.ts';
import { ROOT } from '../keys.ts';
import { pollQueue } from '../queue-poller.ts';
import { pollStream } from '../stream-poller.ts';
import type { LocalStream } from './kinesis.ts';
import type { Stop } from './network.ts';
import type { LocalQueue } from './sqs.ts';

type WorkerHandler = (event: unknown, context: unknown) => Promise<unknown>;

/** What the workers read from: the queues and their dead-letter queues, the streams and their checkpoints. */
export interface WorkerSources {
  sqs: SQSClient;
  queues: Record<keyof typeof QUEUES, LocalQueue>;
  deadLetterQueues: Record<keyof typeof QUEUES, LocalQueue>;
  kinesis: KinesisClient;
  streams: Record<StreamKey, LocalStream>;
  checkpoint: (stream: string, shard: string, seq: string) => Promise<void>;
}

/**
 * The longest a stream's batch gathers here: the deployed window (10 s for the statuses) would hold every status
 * of a test that long; a batch still waits for its window or its size as Lambda's does.
 */
const LOCAL_STREAM_WINDOW_MS = 1_000;

/**
 * A stream worker that cannot apply anything (FAILING_WORKERS, a test of its dead letters): every batch answers its
 * first record failed, as the worker does when it cannot set its records aside, so the event source tries the
 * batch again from there and gives it up after its retries. (A throw would halve the batch down to single records
 * first, each then retried on its own: the same dead letters, a record each, in minutes rather than seconds.)
 */
const failingHandler: WorkerHandler = async (event) => {
  const [first] = (event as KinesisStreamEvent).Records;
  return { batchItemFailures: first ? [{ itemIdentifier: first.kinesis.sequenceNumber }] : [] };
};

/** A stream consumer as Lambda's Kinesis event source mapping runs it; a batch given up is named on its dead-letter queue. */
function readStream(sources: WorkerSources, worker: WorkerDef, trigger: StreamTrigger, handler: WorkerHandler, timeoutMs: number) {
  const stream = sources.streams[trigger.stream];
  return pollStream({
    kinesis: sources.kinesis,
    stream,
    batchSize: trigger.batchSize,
    batchWindowMs: Math.min(trigger.batchWindowSeconds * 1000, LOCAL_STREAM_WINDOW_MS),
    retryAttempts: trigger.retryAttempts,
    name: worker.name,
    timeoutMs,
    handler: handler as never,
    checkpoint: (shard, seq) => sources.checkpoint(stream.name, shard, seq),
    giveUp: async (failure) => {
      await sources.sqs.send(
        new SendMessageCommand({ QueueUrl: sources.deadLetterQueues[trigger.failuresTo].url, MessageBody: JSON.stringify(failure) }),
      );
    },
  });
}

/**
 * The workers of lib/manifest/workers.ts: queue and stream consumers as Lambda's event source mappings run them,
 * schedules on a timer.
 */
export async function startWorkers(
  sources: WorkerSources,
  skip: string[] = [],
  timeouts: Record<string, number> = {},
  failing: string[] = [],
): Promise<Stop> {
  const stops: Stop[] = [];
  for (const worker of workers.filter((w) => !skip.includes(w.name))) {
    const imported = (await import(pathToFileURL(join(ROOT, worker.entry)).href)) as { handler: WorkerHandler };
    const handler = failing.includes(worker.name) && 'stream' in worker.trigger ? failingHandler : imported.handler;
    // As deployed: the function's own timeout (infra/stack.ts), unless the stack was given another.
    const timeoutMs = (timeouts[worker.name] ?? worker.timeoutSeconds) * 1000;
    if ('queue' in worker.trigger) {
      const queue = (worker.trigger.deadLetters ? sources.deadLetterQueues : sources.queues)[worker.trigger.queue];
      stops.push(
        pollQueue({
          sqs: sources.sqs,
          queueUrl: queue.url,
          queueArn: queue.arn,
          batchSize: worker.trigger.batchSize,
          batchWindowMs: (worker.trigger.batchWindowSeconds ?? 0) * 1000,
          name: worker.name,
          timeoutMs,
          concurrency: worker.trigger.maxConcurrency,
          handler: handler as never,
        }),
      );
    } else if ('stream' in worker.trigger) stops.push(readStream(sources, worker, worker.trigger, handler, timeoutMs));
    else {
      // A job of every minute runs every 10 s here (what it does shows soon); a daily one at its own cadence.
      const every = worker.trigger.everyMinutes <= 1 ? 10_000 : worker.trigger.everyMinutes * 60_000;
      const timer = setInterval(() => void handler({}, {}).catch(() => undefined), every);
      stops.push(() => clearInterval(timer));
    }
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
