import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from './directory.ts';
import type { ErrorDetail } from './errors.ts';
import type { DeliveryChange, DeliveryState } from './delivery.ts';
import type { DispatchJob, RecipientParams } from './sending/job.ts';
import type { ServiceEvent } from './events.ts';
import type { ListingCriteria, ListingEntry } from './template-listing.ts';
import type { MetaTemplate, NotifiedAt, TemplateRecord } from './template-record.ts';
import type { DeliveryStatus, WebhookConfig, WebhookDelivery } from './webhook.ts';

/**
 * The ports: what the use cases need from the outside world, in the domain's words. Adapters under
 * lib/adapters/ implement them (DynamoDB, SQS, EventBridge, the Graph API, HTTPS) and own every wire detail;
 * tests use the in-memory ones under test/support/memory/.
 */

/** Read side of the directory (decisions §8). */
export interface DirectoryStore {
  getChannel(waId: string): Promise<ChannelRecord | null>;
  /** Channels ordered by client_id then wa_id; one client's when clientId is given. */
  listChannels(clientId?: number): Promise<ChannelRecord[]>;
  clientHasWaba(clientId: number, wabaId: string): Promise<boolean>;
  /** The WABAs of a client (those its channel records name). */
  listClientWabas(clientId: number): Promise<string[]>;
  getWaba(wabaId: string): Promise<Waba | null>;
  getClient(clientId: number): Promise<Client | null>;
  getCampaign(clientId: number, campaignId: number): Promise<Campaign | null>;
  getContactChannel(clientId: number, channelId: number): Promise<ContactChannel | null>;
  /** The client's contact channels and campaigns among these ids, in one read (assignment checks). */
  getAssignables(
    clientId: number,
    channelIds: number[],
    campaignIds: number[],
  ): Promise<{ channels: Map<number, ContactChannel>; campaigns: Map<number, Campaign> }>;
  /**
   * The channel of this DID when it is in the client's WABA hierarchy (decisions §1), else null: the DID check
   * in one read.
   */
  channelOfClient(clientId: number, did: string): Promise<ChannelRecord | null>;
}

export interface WebhookConfigStore {
  get(clientId: number): Promise<WebhookConfig | null>;
  /** Writes the configuration; creates the signing secret only when none exists yet. */
  put(config: Pick<WebhookConfig, 'client_id' | 'url' | 'active'>, newSecret: string): Promise<WebhookConfig>;
  /**
   * Makes `newSecret` the signing secret and keeps the one it replaces until `previousUntil` (decisions §15);
   * null when the client has no configuration.
   */
  rotate(clientId: number, newSecret: string, previousUntil: string): Promise<WebhookConfig | null>;
}

/**
 * The webhook delivery log (decisions §15): one delivery per event, written at every attempt, kept a while
 * (then it expires), listed per client newest first.
 */
export interface DeliveryLog {
  /** The delivery and the event it carries (absent when it was too large to keep), or null. */
  get(id: string): Promise<{ delivery: WebhookDelivery; event?: ServiceEvent } | null>;
  /**
   * Writes the delivery as it now is, on condition it is still as read (`previous`; null: it must not exist
   * yet), else DeliveryChanged. The client's counts move with its status in the same write.
   */
  save(delivery: WebhookDelivery, event: ServiceEvent, previous: WebhookDelivery | null): Promise<void>;
  /** A page of the client's deliveries (of one status, when given), newest first, and how many there are. */
  list(
    clientId: number,
    status: DeliveryStatus | undefined,
    page: { offset: number; size: number },
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }>;
}

/**
 * A client's records of one template, read together with their version: every change of them is conditioned
 * on that version (decisions §11), so of two concurrent changes exactly one is written.
 */
export interface ClientAssignments {
  records: TemplateRecord[];
  version: number;
}

export interface AssignmentChange {
  /** The (client, template) whose records change, and the version they were read at. */
  of: { wabaId: string; templateId: string; clientId: number; version: number };
  /** The client's records of the template as read at that version (the listing entry is derived from them). */
  current: TemplateRecord[];
  /** Records to write whole: new siblings (must not exist) and records changed in place (must exist). */
  create: TemplateRecord[];
  update: { before: TemplateRecord; after: TemplateRecord }[];
  /** Records to remove, as they were read. */
  remove: TemplateRecord[];
}

/** `not_processed`: not written, as the request's time ran short (decisions §19). */
export type ActiveWrite = 'written' | 'changed_meanwhile' | 'missing' | 'not_processed';

/** How much time a request has left before its function is stopped (a Lambda's remaining time). */
export interface Deadline {
  remainingMs(): number;
}
export interface ActiveFlip {
  record: TemplateRecord;
  to: boolean;
}

/** Template records (decisions §3). Every multi-record change is one transaction. */
export interface TemplateRecordStore {
  get(id: string): Promise<TemplateRecord | null>;
  getMany(ids: string[]): Promise<Map<string, TemplateRecord>>;
  /** A client's records in listing order (name, language, WABA, template, record id). */
  listForClient(clientId: number): Promise<TemplateRecord[]>;
  /**
   * One page of a client's listing entries (one per template, decisions §9) that meet the criteria, in listing
   * order, and how many meet them. Reads grow with the page and the matches, never with the client's records.
   */
  listingPage(
    clientId: number,
    criteria: ListingCriteria,
    page: { offset: number; size: number },
  ): Promise<{ entries: ListingEntry[]; total: number }>;
  /** One client's records of one template and their version, read consistently (never from a stale index). */
  readAssignments(wabaId: string, templateId: string, clientId: number): Promise<ClientAssignments>;
  /** Records of one upstream template; one client's when clientId is given. */
  listForTemplate(wabaId: string, templateId: string, clientId?: number): Promise<TemplateRecord[]>;
  /**
   * Sets each record's `active` to `to` only if it still has the other value: concurrent flips cannot both
   * succeed. Records are passed as read, so the store knows their (client, template)s without a read; the
   * outcomes answer in the flips' order.
   */
  setActive(flips: ActiveFlip[], now: string, deadline?: Deadline): Promise<ActiveWrite[]>;
  /**
   * Applies an assignment change atomically; throws AssignmentConflict when a record changed meanwhile and
   * ChangeTooLarge when the change is more than one atomic write can hold.
   */
  applyAssignments(change: AssignmentChange): Promise<void>;
  /**
   * Registers new records and their events in one transaction (the events go to the outbox); the records
   * must be the first of their (client, template), else AssignmentConflict. Events alone (no records) may be
   * written in several transactions: each event stands by itself.
   */
  register(records: TemplateRecord[], events: ServiceEvent[]): Promise<void>;
  /**
   * Registers many first records (a sync's placeholders, each of its own (client, template)) in as few writes
   * as the store allows; a record whose (client, template) has records already is left out and answered back.
   */
  registerEach(records: TemplateRecord[]): Promise<{ refused: TemplateRecord[] }>;
  /**
   * Replaces the meta_template of the given records (an edit reaches every sibling, a test's fixture) with the
   * template as the upstream held it at `heldSince` (default `now`): older status news is then stale.
   */
  replaceMetaTemplate(
    records: TemplateRecord[],
    meta: MetaTemplate,
    source: 'edit' | 'sync',
    now: string,
    heldSince?: string,
  ): Promise<void>;
  /**
   * Revises one client's records of one template from what they hold now (a notification or a sync): `revise`
   * gets them as read, consistently, and answers the template they then have and the events of the change,
   * or null for no change. Records and events are written together; a concurrent change makes it read and
   * revise again. Answers whether the records changed and the events written.
   */
  reviseTemplate(
    of: { wabaId: string; templateId: string; clientId: number },
    revise: (records: TemplateRecord[]) => TemplateRevision | null,
    now: string,
    source: 'sync' | 'webhook',
  ): Promise<{ revised: boolean; events: ServiceEvent[] }>;
  /**
   * Why this record could not be stored (too large, nested too deep), naming the request field to blame;
   * undefined when it can. Use cases ask before they call the upstream, so nothing is made there that
   * cannot be recorded here.
   */
  storageProblem(record: TemplateRecord): ErrorDetail | undefined;
  /** Sets or clears `deleted` (a sync no longer finds, or finds again, the template upstream). */
  markDeleted(records: TemplateRecord[], deleted: boolean, now: string): Promise<void>;
  /** The templates of the client's live listing entries on the WABA, one per template. */
  templatesOfWaba(clientId: number, wabaId: string): Promise<MetaTemplate[]>;
  /** The client's live listing entry of the WABA's template of this name and language (a send's template). */
  templateEntry(clientId: number, wabaId: string, name: string, language: string): Promise<ListingEntry | null>;
}

export interface TemplateRevision {
  meta: MetaTemplate;
  /** When the records took the news, for a notification; kept as it was when absent. */
  notified_at?: NotifiedAt;
  events: ServiceEvent[];
}

/** A send as accepted (decisions §12): its jobs are dispatched only once it is `queued`. */
export interface SendRecord {
  send_id: string;
  client_id: number;
  did: string;
  template: { name: string; language: string };
  campaignId?: number;
  /** `queuing` while its jobs go onto the queue; `queued` once all of them are; `abandoned` when not all could be. */
  status: 'queuing' | 'queued' | 'abandoned';
  created_at: string;
  total: number;
  jobs: number;
  /** What the dispatcher did so far (absent until it starts): kept exact by the store's atomic counters. */
  counts?: SendCounts;
  /** Failures by Graph error code (or the dispatcher's own codes such as `outcome_unknown`). */
  errors?: { code: string; title: string; count: number }[];
  /** Set once when the template was found paused or disabled: the rest of the send is not sent. */
  stopped?: { code: string; title: string };
  /** The first position of each job, in order (decisions §22): where each block of recipients starts. */
  job_firsts?: number[];
  /** When a caller cancelled the send (decisions §22): recipients not yet claimed are never sent. */
  cancelled_at?: string;
  /** When a scheduled send goes (decisions §22): its jobs are held until then; its TTL counts from it. */
  send_at?: string;
  /** When a scheduled send's jobs went onto the dispatch queue. */
  released_at?: string;
  /** What of the request a resend repeats (decisions §25): the header and the caller's options. */
  request?: SendRequestOptions;
  /** While its template is paused (decisions §25): since when, and until when at the latest. */
  paused?: { since: string; until: string };
  /** The send this one resends recipients of, and the sends that resent this one's. */
  resend_of?: string;
  resent_as?: string[];
  /** What its delivered messages cost so far, by Meta's pricing category (decisions §24), in micro-dollars. */
  charges?: Record<string, { messages: number; billable: number; micros: number }>;
}

/** A send request's own options, kept so that a resend makes its messages alike (decisions §25). */
export interface SendRequestOptions {
  component?: DispatchJob['component'];
  attends?: DispatchJob['attends'];
  message_send_ttl_seconds?: number;
  allow_duplicates?: boolean;
}

export interface SendCounts {
  duplicates_removed: number;
  /** Recipients of a MARKETING send on the client's suppression list (decisions §25): never sent. */
  suppressed: number;
  /** Sent messages Meta holds for quality assessment now (decisions §25): a later status moves each on. */
  held: number;
  expired: number;
  sent: number;
  failed: number;
  delivered: number;
  read: number;
  /** Recipients never sent because the send was cancelled (decisions §22). */
  cancelled: number;
}

/** What became of one recipient of a send. */
export type RecipientOutcome =
  /** `held`: accepted and held by Meta for quality assessment, until a status moves it (decisions §25). */
  | { kind: 'sent'; message_id: string; held?: true }
  | { kind: 'failed'; code: string; title: string }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

/** What became of one position of a send: its recipient's outcome, or a repeat of an earlier position (never sent). */
export type PositionOutcome = RecipientOutcome | { kind: 'duplicate'; of: number } | { kind: 'suppressed' };

/**
 * One recipient of a send as stored (decisions §22): who, what the dispatcher made of it (absent while it is
 * pending: not claimed, or claimed and not settled), and what the upstream reported after accepting it.
 */
export interface StoredRecipient {
  index: number;
  to: string;
  params?: RecipientParams;
  outcome?: PositionOutcome;
  /** When the send was accepted, the outcome recorded, or the last report applied: the latest of them. */
  updated_at: string;
  delivery?: DeliveryState;
}

/** A block's recipients as the send accepted them: each `to`, which repeat which position, which are suppressed. */
export interface AcceptedBlock {
  ref: RecipientBlockRef;
  to: string[];
  repeats: (number | undefined)[];
  /** Offsets of the recipients on the client's suppression list (a MARKETING send, decisions §25). */
  suppressed?: number[];
  /** Each recipient's values as the caller gave them (a resend sends them again). */
  params?: (RecipientParams | undefined)[];
}

/** A block of a send's recipients as laid out by its jobs: where it starts, how many, and its job. */
export interface RecipientBlockRef {
  first: number;
  size: number;
  job: number;
}

/**
 * Consecutive positions of one job, claimed, sent and settled as one (decisions §19): `first` is the first
 * position, `sendable` how many of its `size` positions are not repeats. Blocks are fixed by the job, so a job
 * delivered twice meets the same blocks.
 */
export interface RecipientBlock {
  first: number;
  size: number;
  sendable: number;
}

/**
 * Outcomes a block's earlier holders recorded, by offset in the block: what an invocation that handed the block
 * back had answered, and for a holder that died, its launches without a recorded answer as `outcome_unknown`
 * (LOST_OUTCOME: it may have sent them, so they are never sent again).
 */
export type RecordedOutcomes = ReadonlyMap<number, PositionOutcome>;

/**
 * What a block's claim found: `claimed` (ours to send now, except what earlier holders recorded), `done`
 * (settled by an earlier delivery of the job), `busy` (another invocation holds it).
 */
export type BlockClaim = { claimed: RecordedOutcomes } | 'done' | 'busy';

/** How far a holder got with a block: the answers it has, and the offset below which it may have launched. */
export interface BlockProgress {
  outcomes: RecordedOutcomes;
  launchedTo: number;
}

/** The outcome of each sendable recipient of a block settled `lost`. */
export const LOST_OUTCOME: RecipientOutcome = {
  kind: 'failed',
  code: 'outcome_unknown',
  title: 'The dispatcher stopped before it learned the outcome',
};

/** Who holds claims, and until when: a claim of a holder that did not settle it is `lost` after `untilMs`. */
export interface ClaimLease {
  holder: string;
  untilMs: number;
}

/** One status report of a sent message, for the send it belongs to: where the message is, and how it moves. */
export interface DeliveryUpdate {
  block: number;
  index: number;
  messageId: string;
  /** The change the report makes to the message's delivery state as stored (null: none). */
  change: (state: DeliveryState) => DeliveryChange | null;
  /** When the status that may charge the message was sent (its day is the ledger's day). */
  chargedAt?: number;
}

/**
 * Where a send's charges are kept beside its own counts (decisions §24): the client's ledger, by the WABA whose
 * number sent them (the status says which), the send's client and number, and the day.
 */
export interface LedgerOwner {
  waba_id: string;
  client_id: number;
  did: string;
}

/**
 * `applied` or `unchanged`; `unknown`: the send has no such message; `unsettled`: its block is claimed and its
 * outcome not recorded yet (the report overtook the dispatcher).
 */
export type DeliveryResult = 'applied' | 'unchanged' | 'unknown' | 'unsettled';

/**
 * The sends (decisions §12, §19). A send's jobs are queued in several requests, which cannot be one write: the
 * send is recorded as `queuing` first and settled after, and a dispatcher acts only on jobs of a `queued` send,
 * so a send whose jobs were not all queued is dispatched not at all. Its counts are exact sums of writes that
 * each count a block of outcomes or a batch of status reports, never a write per message on one item.
 *
 * The store is split along its jobs: the send itself (SendRecords), the dispatcher's claims and outcomes
 * (BlockLedger), the recipients as accepted (RecipientLists), a scheduled send's jobs (HeldJobs) and its
 * messages' delivery statuses (DeliveryStatuses). A use case asks for the parts it uses.
 */
export interface SendRecords {
  /** Records the send `queuing`, with the repeats its acceptance removed counted. */
  begin(send: SendRecord): Promise<void>;
  /** Settles a `queuing` send (as begun): `queued` also lists it among its client's sends. */
  settle(send: SendRecord, status: 'queued' | 'abandoned'): Promise<void>;
  get(sendId: string): Promise<SendRecord | null>;
  /** A client's `queued` sends, newest first, and how many there are. */
  list(clientId: number, page: { offset: number; size: number }): Promise<{ sends: SendRecord[]; total: number }>;
  /** Marks the send cancelled; the first time stays (cancelling twice is cancelling once). */
  cancel(sendId: string, at: string): Promise<void>;
  /**
   * Marks the send paused until `until` (its template is paused, decisions §25) with its `send.paused` event in
   * the outbox, in one write; false when it was paused already.
   */
  pause(sendId: string, until: string, event: ServiceEvent): Promise<boolean>;
  /** Ends the send's pause with its `send.resumed` event, in one write; false when it was not paused. */
  resume(sendId: string, event: ServiceEvent): Promise<boolean>;
  /** Adds a send made of this one's recipients (decisions §25: `resent_as`). */
  markResent(sendId: string, resentAs: string): Promise<void>;
  /** Whether the send was cancelled: one small consistent read (the dispatcher asks while it sends). */
  isCancelled(sendId: string): Promise<boolean>;
  /** Marks the send stopped (the template was paused or disabled); the first reason stays. */
  stop(sendId: string, reason: { code: string; title: string }): Promise<void>;
}

/** A send's blocks as the dispatcher claims, records and settles them (decisions §12, §23). */
export interface BlockLedger {
  /**
   * Claims a block before any of it is sent, with one conditional write: of two invocations (a job delivered
   * twice) exactly one claims it. A block handed back is claimed with what was recorded of it; one whose holder's
   * lease ran out with its launches since the last record `outcome_unknown` (issue 33: at most those are lost).
   */
  claimBlock(sendId: string, block: RecipientBlock, lease: ClaimLease, nowMs: number): Promise<BlockClaim>;
  /**
   * Records how far the holder got, before it launches past what it recorded last: its answers so far, and
   * `launchedTo`, the offset it may launch up to next. False when the block is no longer this lease's (its lease
   * ran out and another took it over): the holder launches nothing more of it.
   */
  recordProgress(sendId: string, block: RecipientBlock, lease: ClaimLease, progress: BlockProgress): Promise<boolean>;
  /**
   * Gives a claimed block back with its answers so far (a slice ended, or its number was busy): the next
   * invocation claims it at once and sends the rest. Nothing happens when the block is no longer this lease's.
   */
  handBack(sendId: string, block: RecipientBlock, lease: ClaimLease, outcomes: RecordedOutcomes): Promise<void>;
  /**
   * Settles a claimed block: every position's outcome (in order) and the send's counts, together. Nothing
   * happens when the block is no longer this lease's (another took it over when its lease ran out).
   */
  settleBlock(sendId: string, block: RecipientBlock, outcomes: PositionOutcome[], lease: ClaimLease): Promise<void>;
  /**
   * Marks a job begun before its first claim; answers `settled` when the job was settled whole already (then
   * nothing of it may be claimed).
   */
  beginJob(sendId: string, job: number): Promise<'begun' | 'settled'>;
  /**
   * Settles a job that was never begun whole, with one outcome for each of its recipients that is not a repeat
   * (an expired or stopped send): one write for the job. Answers false when the job was begun (its blocks are
   * settled one by one).
   */
  settleJob(sendId: string, job: number, recipients: number, outcome: RecipientOutcome): Promise<boolean>;
}

/** A send's recipients as accepted, and as they stand (decisions §22). */
export interface RecipientLists {
  /**
   * Keeps each block's recipients (their `to`, and which are repeats of which position) when the send is
   * accepted, before it is `queued`: the recipients listing reads them (decisions §22).
   */
  recordRecipients(sendId: string, blocks: AcceptedBlock[], at: string): Promise<void>;
  /** The recipients of these blocks, in position order, each with its outcome and delivery state as stored. */
  recipients(sendId: string, blocks: RecipientBlockRef[]): Promise<StoredRecipient[]>;
}

/** A scheduled send's jobs, kept until its time (decisions §22). */
export interface HeldJobs {
  /** Keeps a scheduled send's jobs until its time (decisions §22), before the send is `queued`. */
  holdJobs(sendId: string, jobs: DispatchJob[]): Promise<void>;
  heldJobs(sendId: string): Promise<DispatchJob[]>;
  /** Marks a scheduled send's jobs released onto the dispatch queue (the first time stays). */
  markReleased(sendId: string, at: string): Promise<void>;
}

/** The delivery statuses of a send's messages (decisions §13). */
export interface DeliveryStatuses {
  /**
   * Applies status reports of the send's messages (decisions §13) together: each message's delivery state and
   * the send's counts move in one write per batch, on condition every state is still the one read, so two
   * reports of one message never both count. A charge goes to the client's ledger under `wabaId` in the same
   * write. Answers in the reports' order.
   */
  applyDeliveries(sendId: string, updates: DeliveryUpdate[], wabaId?: string): Promise<DeliveryResult[]>;
}

/** Every part of the sends' store, as one adapter provides them. */
export interface SendStore extends SendRecords, BlockLedger, RecipientLists, HeldJobs, DeliveryStatuses {}

/**
 * A sending number's throughput level as last learned from the upstream (decisions §19), by the number's
 * digits: kept so every invocation paces the number alike without asking the upstream each time.
 */
export interface ThroughputStore {
  get(numberDigits: string): Promise<KnownThroughput | undefined>;
  put(numberDigits: string, known: KnownThroughput): Promise<void>;
  /** Makes the next use ask the upstream again (Meta said the number's level changed). */
  forget(numberDigits: string): Promise<void>;
}

/**
 * A sending number's throughput level (decisions §19, upstream-facts §6.3): `STANDARD` (80/s), `HIGH` (1,000/s
 * after Meta's upgrade), or `COEXISTENCE` (20/s, a number also in use with the WhatsApp Business app).
 */
export type ThroughputLevel = 'STANDARD' | 'HIGH' | 'COEXISTENCE';

export interface KnownThroughput {
  level: ThroughputLevel;
  checkedAtMs: number;
}

/**
 * Paces a sending number across every invocation (decisions §12): reserves `count` consecutive send slots
 * `intervalMs` apart, none before `nowMs`, and answers when the first is. Reservations never overlap.
 */
export interface Pacer {
  reserve(numberId: string, count: number, intervalMs: number, nowMs: number): Promise<number>;
  /**
   * The same, only when the number's next free slot is at most `horizonMs` after `nowMs` (a campaign's next
   * chunk: it books close ahead, so a priority send's slots come soon after it); otherwise nothing is booked
   * and the answer says when the number is next free.
   */
  reserveNear(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number): Promise<NearReservation>;
}

export type NearReservation = { first: number } | { freeAt: number };

/** What the upstream answered to one message. */
export type MessageAnswer =
  /** `held`: Meta holds it for quality assessment (`held_for_quality_assessment`, decisions §25) before delivering it. */
  | { kind: 'accepted'; message_id: string; held?: true }
  /** Refused: `retryable` for throughput limits and the upstream's own faults. */
  | { kind: 'refused'; code: string; title: string; retryable: boolean }
  /** No answer in time after the request left: the upstream may have accepted it. */
  | { kind: 'unknown' };

/** One-time schedules of sends (decisions §22): at `atIso` the send is released. Scheduling a send twice is once. */
export interface SendScheduler {
  schedule(sendId: string, atIso: string): Promise<void>;
}

export interface SendingLimits {
  messagingLimit?: number;
  quality?: string;
}

/** Sending messages through the upstream (Cloud API). */
export interface MessageUpstream {
  /** `reference` comes back with the message's status reports (delivery.ts, messageReference). */
  sendMessage(phoneNumberId: string, message: Record<string, unknown>, reference: string): Promise<MessageAnswer>;
  /** The WABA's first catalog (SPM messages name it), or undefined. */
  catalogOf(wabaId: string): Promise<string | undefined>;
  /** The number's throughput level as the upstream reports it (decisions §19). */
  throughputOf(phoneNumberId: string): Promise<ThroughputLevel>;
}

/** How a sync run ended (decisions §14). */
export interface SyncRunResult {
  started_at: string;
  finished_at: string;
  result: 'succeeded' | 'failed';
  templates_seen: number;
  changes: number;
  error?: string;
}

/** How far a running sync got (decisions §14). */
export interface SyncProgress {
  wabas_done: number;
  wabas_total: number;
  pages: number;
  templates_seen: number;
  changes: number;
}

/** A client's sync as its lease and last run show it: `running` while an unexpired lease is held. */
export interface SyncState {
  running?: { started_at: string; progress?: SyncProgress };
  lastRun: SyncRunResult | null;
}

/** The one-sync-at-a-time lease per client: a conditional write with an expiry (decisions §4). */
export interface SyncLeaseStore {
  acquire(clientId: number, leaseId: string, nowMs: number, ttlMs: number): Promise<boolean>;
  holds(clientId: number, leaseId: string, nowMs: number): Promise<boolean>;
  /** Keeps the run's progress on its lease (only while the lease is this run's; otherwise nothing happens). */
  report(clientId: number, leaseId: string, progress: SyncProgress): Promise<void>;
  /** Gives the lease back (only its holder can); with a run's result, records it as the client's last run. */
  release(clientId: number, leaseId: string, lastRun?: SyncRunResult): Promise<void>;
  /** The running sync (an unexpired lease) and the last finished run, in one read. */
  state(clientId: number, nowMs: number): Promise<SyncState>;
}

/** A queue of jobs for a worker or the dispatch engine. */
export interface JobQueue {
  /**
   * Puts messages on the queue. `group` names whose work they are (the tenant, and its lane: lanes.ts
   * queueGroupOf): a fair queue delivers a quiet group's messages before a noisy group's backlog (decisions §23).
   */
  send(messages: Record<string, unknown>[], group?: string): Promise<void>;
}

/** Events written with the change that caused them and removed once published (transactional outbox). */
export interface OutboxStore {
  pending(olderThanIso: string, limit: number): Promise<ServiceEvent[]>;
  remove(ids: string[]): Promise<void>;
}

export class AssignmentConflict extends Error {
  constructor() {
    super('The assignments changed while this request was applied; retry it');
  }
}

/** The change is larger than the store can apply atomically. */
export class ChangeTooLarge extends Error {}

/** Publishes service events (to EventBridge in AWS). */
export interface EventPublisher {
  publish(events: ServiceEvent[]): Promise<void>;
}

/**
 * The upstream (Meta's Graph API), in the domain's words. Failures are UpstreamUnavailable (no usable answer:
 * network, timeout, 5xx/429 after retries, our credentials refused) or UpstreamRejected (the upstream refused
 * this request) from ./errors.ts.
 */
export interface WabaUpstream {
  /** The WABA's message template namespace, or undefined when the upstream has none. */
  namespaceOf(wabaId: string): Promise<string | undefined>;
}

/** A template as the upstream holds it: name, language, status, category and components, and whatever else it returns. */
export type UpstreamTemplate = MetaTemplate;

/** What a create sends upstream (the fields of upstream-facts §3). */
export interface TemplateDraftForUpstream {
  name: string;
  language: string;
  category: string;
  components: Record<string, unknown>[];
  parameter_format: 'POSITIONAL';
  message_send_ttl_seconds?: number;
  allow_category_change?: boolean;
  /** The dynamic max price settings (decisions §4); the upstream calls them the bid spec. */
  optimization?: Record<string, unknown>;
}

export interface CreatedTemplate {
  id: string;
  status: string;
  category: string;
}

/** An edit: the new components, and the category and optimization only when they change. */
export interface TemplateEdit {
  components: Record<string, unknown>[];
  category?: string;
  optimization?: Record<string, unknown>;
}

export interface TemplateUpstream extends WabaUpstream {
  /** The template of that name and language, or null. */
  findTemplate(wabaId: string, name: string, language: string): Promise<UpstreamTemplate | null>;
  /**
   * What Meta lets a send reach (decisions §22): the business portfolio's unique recipients in 24 hours
   * (Infinity: unlimited; absent: not known) and the sending number's quality rating.
   */
  sendingLimits(wabaId: string, phoneNumberId?: string): Promise<SendingLimits>;
  /** Every template of the WABA, a page at a time. */
  templatesOf(wabaId: string): AsyncIterable<UpstreamTemplate[]>;
  /** Answers when the upstream can list the WABA's templates; throws when it cannot. */
  probe(wabaId: string): Promise<void>;
  /** Throws UpstreamRejected with reason `duplicate_template` when the name and language exist already. */
  createTemplate(wabaId: string, draft: TemplateDraftForUpstream): Promise<CreatedTemplate>;
  editTemplate(templateId: string, edit: TemplateEdit): Promise<void>;
}

/** Header media: the upstream's resumable upload, which answers with a handle for the HEADER example. */
export interface MediaUpload {
  uploadMedia(file: { name: string; type: string; bytes: Uint8Array }): Promise<string>;
}

export interface Catalog {
  id: string;
  name: string;
  vertical: string;
}

/** A product as the contract shows it. */
export interface Product {
  id: string;
  name: string;
  retailer_id: string;
  image_urls: string[];
  description: string;
  currency: string;
  price: string;
  url: string;
  category: string;
  unique_id: string;
}

export interface ProductPage {
  products: Product[];
  /** The upstream's cursors around this page (empty strings when it gives none). */
  before: string;
  after: string;
  /** Whether another page follows this one. */
  hasNext: boolean;
}

export interface CatalogUpstream extends WabaUpstream {
  catalogsOf(wabaId: string): Promise<Catalog[]>;
  /** Throws UpstreamRejected when the upstream refuses the cursor or the catalog. */
  productsOf(catalogId: string, page: { limit: number; cursor?: string }): Promise<ProductPage>;
}

/** One row of a client's ledger (decisions §24): a day's charges on one number, market and pricing category. */
export interface LedgerEntry {
  day: string;
  did: string;
  market: string;
  category: string;
  messages: number;
  billable: number;
  micros: number;
}

/** Meta's own figure of a WABA's day (pricing_analytics), by country and pricing category. */
export interface MetaCostEntry {
  day: string;
  country: string;
  category: string;
  volume: number;
  micros: number;
}

/**
 * The cost ledger (decisions §24): charges are added by the status path (DeliveryStatuses); this reads them, and
 * keeps Meta's own figures beside them.
 */
export interface CostLedger {
  /** A client's charges on days `from`–`to` (inclusive) on numbers of these WABAs. */
  charges(wabaIds: string[], clientId: number, from: string, to: string): Promise<LedgerEntry[]>;
  /** Every client's charges of one WABA's day, by client. */
  wabaDay(wabaId: string, day: string): Promise<{ client_id: number; entry: LedgerEntry }[]>;
  metaCosts(wabaIds: string[], from: string, to: string): Promise<MetaCostEntry[]>;
  /** Meta's figures of a WABA's day, as read (a later read replaces them). */
  putMetaCosts(wabaId: string, day: string, entries: MetaCostEntry[], readAt: string): Promise<void>;
}

/**
 * Clients' monthly budgets (decisions §24), and what each month's accepted sends reserved of them: a send's
 * check and reservation are one conditional write, so two sends at once never both pass a budget with room
 * for one.
 */
export interface BudgetStore {
  get(clientId: number): Promise<{ monthly_micros: number; updated_at: string } | null>;
  /** Sets the monthly budget; null removes it (nothing is refused then). */
  set(clientId: number, monthlyMicros: number | null, at: string): Promise<void>;
  reserved(clientId: number, month: string): Promise<number>;
  /** Adds `micros` to the month's reservations if they stay within `limitMicros`; the total after, or null. */
  reserve(clientId: number, month: string, micros: number, limitMicros: number): Promise<number | null>;
  /** Gives back a reservation whose send was never queued. */
  release(clientId: number, month: string, micros: number): Promise<void>;
}

/** Meta's own figures of what a WABA's messages cost (upstream-facts §8: pricing_analytics, DAILY). */
export interface PricingUpstream {
  /** The WABA's cost and volume from `startUnix` to `endUnix`, by day, country and pricing category. */
  pricingAnalytics(wabaId: string, startUnix: number, endUnix: number): Promise<MetaCostEntry[]>;
}

/** An entry of a client's suppression list (decisions §25): who, from where, when, and its evidence. */
export interface Suppression {
  /** The number's digits. */
  phone: string;
  source: 'api' | '131050' | 'inbound';
  at: string;
  /** The inbound message, or the refused message, that put it there. */
  message_id?: string;
  reason?: string;
}

/** Each client's suppression list (decisions §25): read a batch of recipients at a time, never scanned. */
export interface SuppressionStore {
  /** Adds the entry unless the number is on the list already (the first entry stays): whether it was added. */
  add(clientId: number, entry: Suppression): Promise<boolean>;
  /** Whether the number was on the list. */
  remove(clientId: number, phone: string): Promise<boolean>;
  /** The entries among these numbers (digits). */
  get(clientId: number, phones: string[]): Promise<Map<string, Suppression>>;
  list(clientId: number, page: { offset: number; size: number }): Promise<{ entries: Suppression[]; total: number }>;
}

/** A template Meta paused (for a while) or disabled (decisions §25), as the dispatcher reads it. */
export interface TemplatePause {
  state: 'paused' | 'disabled';
  since_ms: number;
  /** When a pause ends by itself (3 hours the first time, 6 the next), if no event ends it first. */
  until_ms?: number;
  /** How many times it was paused. */
  pauses: number;
}

/** Templates Meta paused or disabled: written by its status events and by a 132015 refusal. */
export interface TemplatePauses {
  get(wabaId: string, templateId: string): Promise<TemplatePause | null>;
  /** Paused from `atMs` for Meta's period (the first 3 h, then 6 h), unless a pause is in force: the pause now. */
  pause(wabaId: string, templateId: string, atMs: number): Promise<TemplatePause>;
  resume(wabaId: string, templateId: string): Promise<void>;
  disable(wabaId: string, templateId: string, atMs: number): Promise<void>;
}
