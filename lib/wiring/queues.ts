import { newQueueClient, type ServiceQueue, SqsJobQueue } from '#lib/adapters/sqs/job-queue.ts';
import { loadConfig, sqsEndpoint } from '#lib/config.ts';
import { QUEUES } from '#lib/queues.ts';
import type { QueueKey } from '#lib/routes.ts';

let client: { endpoint: string | undefined; sqs: ServiceQueue['client'] } | undefined;

/** The process's SQS client, made at first use and reused across invocations (the local stack meters it). */
export const queueClient = () => {
  const endpoint = sqsEndpoint();
  if (!client || client.endpoint !== endpoint) client = { endpoint, sqs: newQueueClient() };
  return client.sqs;
};

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
