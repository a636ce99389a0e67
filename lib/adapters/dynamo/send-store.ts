import type { BudgetRelease } from '#lib/domain/ports/costs.ts';
import type {
  AcceptedBlock,
  BlockLedger,
  BlockProgress,
  ClaimLease,
  DeliveryStatuses,
  DeliveryUpdate,
  HeldJobs,
  PositionOutcome,
  RecipientBlock,
  RecipientBlockRef,
  RecipientLists,
  RecipientOutcome,
  RecordedOutcomes,
  SendRecord,
  SendRecords,
  SendStore,
} from '#lib/domain/ports/sending.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import type { DispatchJob } from '#lib/domain/sending/job.ts';
import type { ServiceTable } from './client.ts';
import { DynamoBlockLedger } from './sends/block-ledger.ts';
import { DynamoDeliveryStatuses } from './sends/delivery-statuses.ts';
import { DynamoHeldJobs } from './sends/held-jobs.ts';
import { DynamoRecipientLists } from './sends/recipient-lists.ts';
import { DynamoSendRecords } from './sends/send-records.ts';

export { recipientItemKeys } from './sends/recipient-lists.ts';

/**
 * Every part of the sends' store on one table (lib/adapters/dynamo/sends/, one file a part): for a worker that
 * uses several parts, as the dispatcher does. A function that needs one part constructs that part alone.
 */
export class DynamoSendStore implements SendStore {
  private readonly records: SendRecords;
  private readonly blocks: BlockLedger;
  private readonly lists: RecipientLists;
  private readonly held: HeldJobs;
  private readonly statuses: DeliveryStatuses;

  constructor(table: ServiceTable) {
    this.records = new DynamoSendRecords(table);
    this.blocks = new DynamoBlockLedger(table);
    this.lists = new DynamoRecipientLists(table);
    this.held = new DynamoHeldJobs(table);
    this.statuses = new DynamoDeliveryStatuses(table);
  }

  begin = (send: SendRecord) => this.records.begin(send);
  settle = (send: SendRecord, status: 'queued' | 'abandoned') => this.records.settle(send, status);
  get = (sendId: string) => this.records.get(sendId);
  list = (clientId: number, page: { offset: number; size: number }) => this.records.list(clientId, page);
  cancel = (sendId: string, at: string) => this.records.cancel(sendId, at);
  isCancelled = (sendId: string) => this.records.isCancelled(sendId);
  markResent = (sendId: string, resentAs: string) => this.records.markResent(sendId, resentAs);
  pause = (sendId: string, until: string, event: ServiceEvent) => this.records.pause(sendId, until, event);
  resume = (sendId: string, event: ServiceEvent) => this.records.resume(sendId, event);
  stop = (sendId: string, reason: { code: string; title: string }) => this.records.stop(sendId, reason);

  claimBlock = (sendId: string, block: RecipientBlock, lease: ClaimLease, nowMs: number) =>
    this.blocks.claimBlock(sendId, block, lease, nowMs);
  recordProgress = (sendId: string, block: RecipientBlock, lease: ClaimLease, progress: BlockProgress) =>
    this.blocks.recordProgress(sendId, block, lease, progress);
  handBack = (sendId: string, block: RecipientBlock, lease: ClaimLease, outcomes: RecordedOutcomes) =>
    this.blocks.handBack(sendId, block, lease, outcomes);
  settleBlock = (sendId: string, block: RecipientBlock, outcomes: PositionOutcome[], lease: ClaimLease, release?: BudgetRelease) =>
    this.blocks.settleBlock(sendId, block, outcomes, lease, release);
  beginJob = (sendId: string, job: number) => this.blocks.beginJob(sendId, job);
  settleJob = (sendId: string, job: number, recipients: number, outcome: RecipientOutcome, release?: BudgetRelease) =>
    this.blocks.settleJob(sendId, job, recipients, outcome, release);

  recordRecipients = (sendId: string, blocks: AcceptedBlock[], at: string) => this.lists.recordRecipients(sendId, blocks, at);
  recipients = (sendId: string, blocks: RecipientBlockRef[]) => this.lists.recipients(sendId, blocks);

  holdJobs = (sendId: string, jobs: DispatchJob[]) => this.held.holdJobs(sendId, jobs);
  heldJobs = (sendId: string) => this.held.heldJobs(sendId);
  markReleased = (sendId: string, at: string) => this.held.markReleased(sendId, at);

  applyDeliveries = (sendId: string, updates: DeliveryUpdate[], wabaId?: string) => this.statuses.applyDeliveries(sendId, updates, wabaId);
  accountOf = (sendId: string) => this.statuses.accountOf(sendId);
}
