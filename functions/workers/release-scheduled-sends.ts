import { DynamoBlockLedger } from '#lib/adapters/dynamo/sends/block-ledger.ts';
import { DynamoHeldJobs } from '#lib/adapters/dynamo/sends/held-jobs.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoReservationReturns } from '#lib/adapters/dynamo/sends/reservation-returns.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoTestDecisions } from '#lib/adapters/dynamo/sends/test-decisions.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoSendPerformances } from '#lib/adapters/dynamo/sends/send-performances.ts';
import { DynamoSendCompletions } from '#lib/adapters/dynamo/sends/send-completions.ts';
import { DynamoTemplateAnalytics } from '#lib/adapters/dynamo/templates/template-analytics.ts';
import { performanceResults } from '#lib/domain/sends/ab/variant-results.ts';
import { ACCEPTANCE_OVER_MS } from '#lib/domain/sends/operations/release-send.ts';
import { releaseDue } from '#lib/domain/sends/operations/test-decision.ts';
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
  // A test's figures (decisions §33): the send's performance, and Meta's template analytics for clicks.
  results: performanceResults({
    performances: new DynamoSendPerformances(table),
    analytics: new DynamoTemplateAnalytics(table, new DynamoDirectoryStore(table)),
  }),
  decisions: new DynamoTestDecisions(table),
  // A send cancelled before its time completes here (decisions §33): its event in the outbox, the relay publishes it.
  completion: { performances: new DynamoSendPerformances(table), completions: new DynamoSendCompletions(table) },
};
const queue = jobQueue('dispatch');

/**
 * A scheduled send's time came: EventBridge Scheduler put `{send_id}` on the release queue (decisions §22); or a
 * test-first send's wait is over: `{send_id, step: "decide"}` (decisions §33).
 */
export const handler = queueWorker<{ send_id: string; step?: 'decide' }>(
  ReleaseScheduledSends,
  async (message, { log }) => {
    const result = await releaseDue({ ...stores, queue, log }, message);
    // A send still being accepted may yet be queued; a test whose send's share has not gone yet waits for it.
    if (result === 'retry_later')
      return { retry: { afterSeconds: ACCEPTANCE_OVER_MS / 1000, reason: 'send still queuing or not released' } };
    if (result === 'released') return { metrics: { [message.step === 'decide' ? 'SendTestsDecided' : 'ScheduledSendsReleased']: 1 } };
    return undefined;
  },
  { keysOf: (message) => ({ send_id: message.send_id, correlation_id: message.send_id }) },
);
