import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PausedJob, PausedJobs } from '#lib/domain/sends/dispatch/ports.ts';
import { writeAll } from '../batch-write.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';

/** A kept job outlives its recheck by this much, then expires: by then its message came back by itself. */
const KEPT_PAST_RECHECK_S = 3_600;

/**
 * The dispatch jobs asleep on a paused template (decisions §25): one item a job (`WAITING#<send>#<job>`) in the
 * template's pause partition, written when the job goes to sleep (again at each recheck, the newest receipt
 * winning), read and deleted when Meta's resume wakes them, else expired by TTL. A resume queries the partition
 * once per 100 jobs; no item takes more than one write per recheck of its job.
 */
export class DynamoPausedJobs implements PausedJobs {
  constructor(private readonly table: ServiceTable) {}

  private sk = (job: Pick<PausedJob, 'send_id' | 'job'>) => `${SORT.pausedJobPrefix}${job.send_id}#${job.job}`;

  async keep(wabaId: string, templateId: string, job: PausedJob) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: keys.templatePause(wabaId, templateId),
          sk: this.sk(job),
          entity: 'paused_job',
          ...job,
          [TTL_ATTRIBUTE]: Math.ceil(job.due_ms / 1000) + KEPT_PAST_RECHECK_S,
        },
      }),
    );
  }

  async waiting(wabaId: string, templateId: string, limit: number): Promise<PausedJob[]> {
    const { Items = [] } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :waiting)',
        ExpressionAttributeValues: { ':pk': keys.templatePause(wabaId, templateId), ':waiting': SORT.pausedJobPrefix },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return Items.map((item) => ({
      send_id: String(item.send_id),
      job: Number(item.job),
      receipt: String(item.receipt),
      due_ms: Number(item.due_ms),
    }));
  }

  async forget(wabaId: string, templateId: string, jobs: Pick<PausedJob, 'send_id' | 'job'>[]) {
    await writeAll(
      this.table,
      jobs.map((job) => ({ DeleteRequest: { Key: { pk: keys.templatePause(wabaId, templateId), sk: this.sk(job) } } })),
    );
  }
}
