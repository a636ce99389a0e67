import { EventBridgeSendScheduler, newSchedulerClient } from '#lib/adapters/scheduler/send-scheduler.ts';
import { loadConfig } from '#lib/config.ts';

let scheduler: EventBridgeSendScheduler | undefined;

/**
 * Scheduled sends' EventBridge Scheduler adapter, made at first use; the SDK takes its endpoint from
 * AWS_ENDPOINT_URL_SCHEDULER (the local stack's stand-in) when that is set.
 */
export function sendScheduler(): EventBridgeSendScheduler {
  if (!scheduler) {
    const settings = loadConfig('SCHEDULE_GROUP', 'SCHEDULE_QUEUE_ARN', 'SCHEDULE_ROLE_ARN');
    scheduler = new EventBridgeSendScheduler(newSchedulerClient(), {
      group: settings.SCHEDULE_GROUP,
      queueArn: settings.SCHEDULE_QUEUE_ARN,
      roleArn: settings.SCHEDULE_ROLE_ARN,
    });
  }
  return scheduler;
}

/** The scheduler as a send's dependency: made only when a send is scheduled (settings read then). */
export const lazySendScheduler = { schedule: (sendId: string, atIso: string) => sendScheduler().schedule(sendId, atIso) };
