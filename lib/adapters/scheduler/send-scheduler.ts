import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { SendScheduler } from '#lib/domain/sends/ports.ts';
import type { TestSchedules } from '#lib/domain/sends/ab/ports.ts';

export interface ScheduleTarget {
  /** The schedule group the service's schedules go in. */
  group: string;
  /** The queue a schedule's message goes to (the release queue). */
  queueArn: string;
  /** The role EventBridge Scheduler takes to send it. */
  roleArn: string;
}

/** An EventBridge Scheduler client; the SDK takes its endpoint from AWS_ENDPOINT_URL_SCHEDULER when set (the local stand-in). */
export const newSchedulerClient = () => new SchedulerClient({});

/**
 * One one-time schedule (in UTC, to the second, no flexible window) that puts `input` on the release queue and is
 * deleted after. The same schedule made again (a retried request) finds it there: already done.
 */
async function scheduleOnce(client: SchedulerClient, target: ScheduleTarget, name: string, atIso: string, input: unknown) {
  try {
    await client.send(
      new CreateScheduleCommand({
        Name: name,
        GroupName: target.group,
        ScheduleExpression: `at(${new Date(atIso).toISOString().slice(0, 19)})`,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: { Arn: target.queueArn, RoleArn: target.roleArn, Input: JSON.stringify(input) },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}

/** EventBridge Scheduler one-time schedules of sends (decisions §22): `send-<send id>` puts `{send_id}` on the release queue at the send's time. */
export class EventBridgeSendScheduler implements SendScheduler {
  constructor(
    private readonly client: SchedulerClient,
    private readonly target: ScheduleTarget,
  ) {}

  async schedule(sendId: string, atIso: string) {
    await scheduleOnce(this.client, this.target, `send-${sendId}`, atIso, { send_id: sendId });
  }
}

/**
 * A test-first send's decision (decisions §33): `test-<send id>` puts `{send_id, step: "decide"}` on the same
 * release queue at its time; the release worker decides the test and releases the rest.
 */
export class EventBridgeTestSchedules implements TestSchedules {
  constructor(
    private readonly client: SchedulerClient,
    private readonly target: ScheduleTarget,
  ) {}

  async scheduleDecision(sendId: string, atIso: string) {
    await scheduleOnce(this.client, this.target, `test-${sendId}`, atIso, { send_id: sendId, step: 'decide' });
  }
}
