import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { QUEUES } from '#lib/manifest/queues.ts';
import { workers } from '#lib/manifest/workers.ts';
import { ROOT } from '../keys.ts';
import { pollQueue } from '../queue-poller.ts';
import type { Stop } from './network.ts';
import type { LocalQueue } from './sqs.ts';

type WorkerHandler = (event: unknown, context: unknown) => Promise<unknown>;

/** The workers of lib/manifest/workers.ts: queue consumers as Lambda's event source mapping runs them, schedules on a timer. */
export async function startWorkers(
  sqs: SQSClient,
  queues: Record<keyof typeof QUEUES, LocalQueue>,
  deadLetterQueues: Record<keyof typeof QUEUES, LocalQueue>,
  skip: string[] = [],
  timeouts: Record<string, number> = {},
): Promise<Stop> {
  const stops: Stop[] = [];
  for (const worker of workers.filter((w) => !skip.includes(w.name))) {
    const { handler } = (await import(pathToFileURL(join(ROOT, worker.entry)).href)) as { handler: WorkerHandler };
    if ('queue' in worker.trigger) {
      const queue = (worker.trigger.deadLetters ? deadLetterQueues : queues)[worker.trigger.queue];
      stops.push(
        pollQueue({
          sqs,
          queueUrl: queue.url,
          queueArn: queue.arn,
          batchSize: worker.trigger.batchSize,
          batchWindowMs: (worker.trigger.batchWindowSeconds ?? 0) * 1000,
          name: worker.name,
          // As deployed: the function's own timeout (infra/stack.ts), unless the stack was given another.
          timeoutMs: (timeouts[worker.name] ?? worker.timeoutSeconds) * 1000,
          concurrency: worker.trigger.maxConcurrency,
          handler: handler as never,
        }),
      );
    } else {
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
