import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import type { HeldJobs } from '#lib/domain/sends/ports.ts';
import { putAll } from '../batch-write.ts';
import type { ServiceTable } from '../client.ts';
import { queryAll } from '../queries.ts';
import { keys } from '../table.ts';
import { setOnce } from './send-items.ts';

/** A scheduled send's jobs, one item each beside the send, until its time (decisions §22). */
export class DynamoHeldJobs implements HeldJobs {
  constructor(private readonly table: ServiceTable) {}

  /** One item a job (at most 204,000 bytes as JSON, within DynamoDB's 400 KB), 25 a request. */
  async holdJobs(sendId: string, jobs: DispatchJob[]) {
    await putAll(
      this.table,
      jobs.map((job) => ({ pk: keys.send(sendId), sk: keys.sendHeldJob(job.job), entity: 'send_held_job', job: JSON.stringify(job) })),
    );
  }

  async heldJobs(sendId: string) {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :held)',
      ExpressionAttributeValues: { ':pk': keys.send(sendId), ':held': 'HELD_JOB#' },
      ConsistentRead: true,
    });
    return items.map((item) => JSON.parse(String(item.job)) as DispatchJob);
  }

  async markReleased(sendId: string, at: string) {
    await setOnce(this.table, sendId, 'released_at', at);
  }
}
