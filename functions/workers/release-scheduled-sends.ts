import { DynamoBlockLedger } from '#lib/adapters/dynamo/sends/block-ledger.ts';
import { DynamoHeldJobs } from '#lib/adapters/dynamo/sends/held-jobs.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoReservationReturns } from '#lib/adapters/dynamo/sends/reservation-returns.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoSendPerformances } from '#lib/adapters/dynamo/sends/send-performances.ts';
import { DynamoSendCompletions } from '#lib/adapters/dynamo/sends/send-completions.ts';
import { ACCEPTANCE_OVER_MS, releaseScheduledSend } from '#lib/domain/sends/operations/release-send.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { ReleaseScheduledSends } from '#lib/manifest/workers.ts';
import { jobQueue } from '#lib/wiring/queues.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const stores = {
  sends: new DynamoSendRecords(table),
  heldJobs: new DynamoHeldJobs(table),
  blocks: new DynamoBlockLedger(table),
  recipientLists: new DynamoRecipientLists(table),
  reservationReturns: new DynamoReservationReturns(table),
  // A send cancelled before its time completes here (decisions §33): its event in the outbox, the relay publishes it.
  completion: { performances: new DynamoSendPerformances(table), completions: new DynamoSendCompletions(table) },
};
const queue = jobQueue('dispatch');

/** A scheduled send's time came: EventBridge Scheduler put `{send_id}` on the release queue (decisions §22). */
export const handler = queueWorker<{ send_id: string }>(
  ReleaseScheduledSends,
  async ({ send_id }, { log }) => {
    const result = await releaseScheduledSend({ ...stores, queue, log }, send_id);
    // A send still being accepted may yet be queued: looked at again once its acceptance is surely over.
    if (result === 'retry_later') return { retry: { afterSeconds: ACCEPTANCE_OVER_MS / 1000, reason: 'send still queuing' } };
    return result === 'released' ? { metrics: { ScheduledSendsReleased: 1 } } : undefined;
  },
  { keysOf: (message) => ({ send_id: message.send_id, correlation_id: message.send_id }) },
);
