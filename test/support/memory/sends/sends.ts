import { MemoryTtlReturns } from './ttl-returns.ts';
import type { MemoryBudgetStore } from '../money/budget-store.ts';
import { MemoryBlockLedger } from './block-ledger.ts';
import { MemoryMessageStatuses } from './message-statuses.ts';
import { MemoryHeldJobs } from './held-jobs.ts';
import { MemoryRecipientLists } from './recipient-lists.ts';
import { MemoryReservationReturns } from './reservation-returns.ts';
import { MemorySendRecords } from './send-records.ts';
import { MemorySendTable } from './send-table.ts';
import { MemoryTestDecisions } from './test-decisions.ts';
import { MemoryVariantResults } from './variant-results.ts';
import { MemoryReplies } from './replies.ts';
import { MemorySendCompletions } from './send-completions.ts';
import { MemorySendPerformances } from './send-performances.ts';
import { MemoryTemplatePerformances } from './template-performances.ts';

/**
 * The sends' ports in memory, each its own adapter on one shared table (as the DynamoDB ones share the service
 * table), named as the use cases' deps name them: spread what a use case needs, read `table` to assess.
 */
export function memorySends(budgets?: MemoryBudgetStore) {
  const table = new MemorySendTable(budgets);
  return {
    sendTable: table,
    sends: new MemorySendRecords(table),
    blocks: new MemoryBlockLedger(table),
    recipientLists: new MemoryRecipientLists(table),
    heldJobs: new MemoryHeldJobs(table),
    messageStatuses: new MemoryMessageStatuses(table),
    reservationReturns: new MemoryReservationReturns(table),
    ttlReturns: new MemoryTtlReturns(table),
    decisions: new MemoryTestDecisions(table),
    results: new MemoryVariantResults(),
    // A send's and its templates' performance, and replies to its messages (decisions §33).
    performances: new MemorySendPerformances(table),
    templatePerformances: new MemoryTemplatePerformances(table),
    replies: new MemoryReplies(table),
    completions: new MemorySendCompletions(table),
  };
}

export type MemorySends = ReturnType<typeof memorySends>;
