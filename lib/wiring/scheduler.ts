import { EventBridgeSendScheduler, EventBridgeTestSchedules, newSchedulerClient } from '#lib/adapters/scheduler/send-scheduler.ts';
import { loadConfig } from '#lib/config.ts';

let scheduler: EventBridgeSendScheduler | undefined;
let tests: EventBridgeTestSchedules | undefined;

/** Where the service's schedules go: their group, the release queue and the role, read at first use. */
function target() {
  const settings = loadConfig('SCHEDULE_GROUP', 'SCHEDULE_QUEUE_ARN', 'SCHEDULE_ROLE_ARN');
  return { group: settings.SCHEDULE_GROUP, queueArn: settings.SCHEDULE_QUEUE_ARN, roleArn: settings.SCHEDULE_ROLE_ARN };
}

/**
 * Scheduled sends' EventBridge Scheduler adapter, made at first use; the SDK takes its endpoint from
 * AWS_ENDPOINT_URL_SCHEDULER (the local stack's stand-in) when that is set.
 */
export function sendScheduler(): EventBridgeSendScheduler {
  scheduler ??= new EventBridgeSendScheduler(newSchedulerClient(), target());
  return scheduler;
}

/** The scheduler as a send's dependency: made only when a send is scheduled (settings read then). */
export const lazySendScheduler = { schedule: (sendId: string, atIso: string) => sendScheduler().schedule(sendId, atIso) };

/** Test-first sends' decisions (decisions §33) on the same schedules, made only when a send tests first. */
export const lazyTestSchedules = {
  scheduleDecision: (sendId: string, atIso: string) => {
    tests ??= new EventBridgeTestSchedules(newSchedulerClient(), target());
    return tests.scheduleDecision(sendId, atIso);
  },
};
