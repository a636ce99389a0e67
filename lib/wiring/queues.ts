import { newQueueClient, type ServiceQueue, SqsJobQueue } from '#lib/adapters/sqs/job-queue.ts';
import { loadConfig, sqsEndpoint } from '#lib/config.ts';
import { QUEUES } from '#lib/manifest/queues.ts';
import type { QueueKey } from '#lib/manifest/needs.ts';
import { clientPerEndpoint } from './client-per-endpoint.ts';

/** The process's SQS client (the local stack meters it); the SDK reads its endpoint from the same setting. */
export const queueClient = clientPerEndpoint(sqsEndpoint, () => newQueueClient());

/** The queue of that key: the process's client, and its URL read from the function's settings at first send. */
export function serviceQueue(key: QueueKey): ServiceQueue {
  return {
    get client() {
      return queueClient();
    },
    get url() {
      const setting = QUEUES[key].urlSetting;
      return loadConfig(setting)[setting];
    },
  };
}

/** The job queue of that key. */
export const jobQueue = (key: QueueKey) => new SqsJobQueue(serviceQueue(key));
