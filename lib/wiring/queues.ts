import { SqsJobQueue } from '#lib/adapters/sqs/job-queue.ts';
import { loadConfig } from '#lib/config.ts';
import { QUEUES } from '#lib/queues.ts';
import type { QueueKey } from '#lib/routes.ts';

/** The job queue of that key; its URL is read from the function's settings at first send. */
export const jobQueue = (key: QueueKey) =>
  new SqsJobQueue(() => {
    const setting = QUEUES[key].urlSetting;
    return loadConfig(setting)[setting];
  });
