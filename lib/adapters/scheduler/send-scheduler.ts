import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { SendScheduler } from '#lib/domain/sends/ports.ts';

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
 * EventBridge Scheduler one-time schedules (decisions §22): `send-<send id>` runs once at the send's time (in
 * UTC, to the second, no flexible window), puts `{send_id}` on the release queue, and is deleted after. The
 * same send scheduled again (a retried request) finds its schedule there: already done.
 */
export class EventBridgeSendScheduler implements SendScheduler {
  constructor(
    private readonly client: SchedulerClient,
    private readonly target: ScheduleTarget,
  ) {}

  async schedule(sendId: string, atIso: string) {
    try {
      await this.client.send(
        new CreateScheduleCommand({
          Name: `send-${sendId}`,
          GroupName: this.target.group,
          ScheduleExpression: `at(${new Date(atIso).toISOString().slice(0, 19)})`,
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: { Arn: this.target.queueArn, RoleArn: this.target.roleArn, Input: JSON.stringify({ send_id: sendId }) },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
  }
}
