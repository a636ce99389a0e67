import type { StatusChange, MessageState } from '../shared/message-status.ts';
import type { SendReservation } from '../money/pricing/reservation.ts';
import type { BudgetRelease, TierVolume } from '../money/ports.ts';
import type { ServiceEvent } from '../webhooks/events.ts';
import type { DirectSend, DispatchJob, RecipientParams } from './dispatch-job.ts';
import type { FiguredStatus, PerformanceMark, RepliedRecipient } from './figures.ts';

// A send and its recipients as the dispatcher and the status worker keep them (decisions §12, §19, §23).

/** A send as accepted (decisions §12): its jobs are dispatched only once it is `queued`. */
export interface SendRecord {
  send_id: string;
  client_id: number;
  did: string;
  template: { name: string; language: string };
  campaignId?: number;
  /** The currency its messages are priced in: its WABA's billing currency when it was accepted (decisions §26). */
  currency?: string;
  /** What it reserved of its client's month (decisions §27); absent for sends accepted before issue 42. */
  reservation?: SendReservation;
  /** The client's price list when it was accepted (decisions §27): its agents then see prices, never costs. */
  price_list?: { effective_from: string; currency: string };
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
  charges?: Record<string, { messages: number; billable: number; micros: number; price_micros?: number }>;
  /** When its whole reservation was given back (decisions §30: never queued), by ReservationReturns, once. */
  reservation_returned_at?: string;
  ab?: import('./ab/ab-send.ts').AbSend; // An A/B send (decisions §33): its variants, seed and test first.
}

/** A send request's own options, kept so that a resend makes its messages alike (decisions §25). */
export interface SendRequestOptions {
  component?: DispatchJob['component'];
  attends?: DispatchJob['attends'];
  message_send_ttl_seconds?: number;
  allow_duplicates?: boolean;
  marketing_api?: 'auto' | 'cloud' | 'mm';
  ttl_seconds?: number;
  /** A Direct Send's category and message (issue 55 item 2): its resend is a Direct Send too. */
  category?: DirectSend['category'];
  message?: DirectSend['message'];
  max_price?: { amount_per_1000: number; currency: string };
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
  /** Recipients Meta refused for its per-user marketing limit (131049, decisions §28): apart from `failed`. */
  capped: number;
  capped_by_rule: number; // Skipped by the client's own frequency cap (decisions §33): never sent, apart from `failed`.
  delivered: number;
  read: number;
  /** Recipients never sent because the send was cancelled (decisions §22). */
  cancelled: number;
}

/** What became of one recipient of a send. */
export type RecipientOutcome =
  /** `held`: accepted and held by Meta for quality assessment, until a status moves it (decisions §25). */
  | { kind: 'sent'; message_id: string; held?: true; api?: 'mm' }
  | { kind: 'failed'; code: string; title: string }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

/** What became of one position of a send: its recipient's outcome, or a repeat of an earlier position (never sent). */
export type PositionOutcome = RecipientOutcome | { kind: 'duplicate'; of: number } | { kind: 'suppressed' };

/** One recipient of a send as stored (decisions §22): who, the dispatcher's outcome (absent while pending), Meta's reports. */
export interface StoredRecipient extends RepliedRecipient {
  index: number;
  /** The number as given; '' for a recipient named by its BSUID alone (decisions §28). */
  to: string;
  user_id?: string;
  params?: RecipientParams;
  outcome?: PositionOutcome;
  /** When the send was accepted, the outcome recorded, or the last report applied: the latest of them. */
  updated_at: string;
  delivery?: MessageState;
  ab?: { variant?: number; asked?: number }; // An A/B send's (decisions §33): its variant, its position as asked.
}

/** A block's recipients as the send accepted them: each `to`, which repeat which position, which are suppressed. */
export interface AcceptedBlock {
  ref: RecipientBlockRef;
  /** Each recipient's number as given (absent for a recipient named by BSUID alone, decisions §28). */
  to: (string | undefined)[];
  /** Each recipient's BSUID, where the send named one. */
  user_ids?: (string | undefined)[];
  repeats: (number | undefined)[];
  /** Offsets of the recipients on the client's suppression list (a MARKETING send, decisions §25). */
  suppressed?: number[];
  /** Each recipient's values as the caller gave them (a resend sends them again). */
  params?: (RecipientParams | undefined)[];
  ab?: { variant?: number; asked?: number[] }; // An A/B send's: the block's variant, its positions as asked (§33).
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
  variant?: number; // Its job's A/B variant but 0 (§33): kept from the claim, so a status overtaking the settle counts under it.
}

/**
 * Outcomes a block's earlier holders recorded, by offset in the block: what an invocation that handed the block
 * back had answered, and for a holder that died, its launches without a recorded answer as `outcome_unknown`
 * (LOST_OUTCOME: it may have sent them, so they are never sent again).
 */
export type RecordedOutcomes = ReadonlyMap<number, PositionOutcome>;

/** A block's claim: `claimed` (ours, but what earlier holders recorded), `done` (settled before), `busy` (held). */
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

/** One status report of a sent message, for the send it belongs to: where the message is, how it moves, when (§33). */
export interface StatusUpdate extends FiguredStatus {
  block: number;
  index: number;
  messageId: string;
  /** The change the report makes to the message's delivery state as stored (null: none). */
  change: (state: MessageState) => StatusChange | null;
  /** When the status that may charge the message was sent, its day in its WABA's zone (decisions §31) and category: its ledger item's. */
  chargedAt?: number;
  chargedDay?: string;
  chargedCategory?: string;
  /** The zone its month closes in (decisions §31: its client's billing timezone, else the WABA's; UTC if absent). */
  statementZone?: string;
  /** Where its charge counts toward a volume tier (decisions §26, §31): month, `<market>|<category>`, portfolio. */
  tierVolume?: TierVolume;
  /** Its part of its send's reservation (decisions §27): given back, in that month, when the message settles. */
  reserved?: { month: string; micros: number };
}

/** Where a send's charges are kept beside its own counts (decisions §24): the client's ledger, by the WABA whose
 * number sent them (the status says which), the send's client and number, and the day. */
export interface LedgerOwner {
  waba_id: string;
  client_id: number;
  did: string;
}

/** `applied`, `unchanged`; `unknown`: no such message; `unsettled`: its outcome not recorded yet (the report overtook it). */
export type StatusResult = 'applied' | 'unchanged' | 'unknown' | 'unsettled';

/**
 * The sends (decisions §12, §19). A send's jobs are queued in several requests, which cannot be one write: the send is recorded as
 * `queuing` first and settled after, and a dispatcher acts only on jobs of a `queued` send, so a send whose jobs were not all queued is
 * dispatched not at all. Its counts are exact sums of writes that each count a block of outcomes or a batch of status reports, never a
 * write per message on one item.
 *
 * The store is split along its jobs: the send itself (SendRecords), the dispatcher's claims and outcomes (BlockLedger), the recipients as
 * accepted (RecipientLists), a scheduled send's jobs (HeldJobs) and its messages' delivery statuses (MessageStatuses). Each part has its
 * own adapter, and a use case is given the parts it uses, each apart: no type joins them again (test/architecture/ports.test.ts).
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
   * Settles a claimed block: every position's outcome (in order), the send's counts and, with a `mark`, its figures
   * (decisions §33), together. Nothing happens when the block is no longer this lease's (another took it over).
   */
  settleBlock(
    sendId: string,
    block: RecipientBlock,
    outcomes: PositionOutcome[],
    lease: ClaimLease,
    release?: BudgetRelease,
    mark?: PerformanceMark,
  ): Promise<void>;
  /** Marks a job begun before its first claim; answers `settled` when it was settled whole already (none of it claimable). */
  beginJob(sendId: string, job: number): Promise<'begun' | 'settled'>;
  /**
   * Settles a job that was never begun whole, with one outcome for each of its recipients that is not a repeat
   * (an expired or stopped send): one write for the job. Answers false when the job was begun (its blocks are
   * settled one by one).
   */
  settleJob(sendId: string, job: number, recipients: number, outcome: RecipientOutcome, release?: BudgetRelease): Promise<boolean>;
}

/** A send's recipients as accepted, and as they stand (decisions §22). */
export interface RecipientLists {
  /** Keeps each block's recipients and repeats before the send is `queued` (§22); with its number, by person for replies (§33). */
  recordRecipients(sendId: string, blocks: AcceptedBlock[], at: string, did?: string): Promise<void>;
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
export interface MessageStatuses {
  /**
   * Applies status reports of the send's messages (decisions §13) together: each message's delivery state and the
   * send's counts move in one write per batch, on condition every state is still the one read, so two reports of
   * one message never both count. A charge goes to the ledger under `wabaId` in that write. In the reports' order.
   */
  applyStatuses(sendId: string, updates: StatusUpdate[], wabaId?: string): Promise<StatusResult[]>;
  /** Whose the send is and what it reserved of its client's month (decisions §27), as accepted: never changes. */
  accountOf(sendId: string): Promise<{ client_id: number; reservation?: SendReservation } | undefined>;
}

/** A never-queued send's whole reservation given back once (decisions §30): the acceptance's failure path and the
 * worker that finds the send ask; one conditional mark on the send record, written with the release, decides. */
export interface ReservationReturns {
  /** The mark and `release` in one write: `already` when marked before; `no_send` when the send was never recorded. */
  returnWhole(sendId: string, release: BudgetRelease | undefined, at: string): Promise<'returned' | 'already' | 'no_send'>;
}

/** One-time schedules of sends (decisions §22): at `atIso` the send is released. Scheduling a send twice is once. */
export interface SendScheduler {
  schedule(sendId: string, atIso: string): Promise<void>;
}

/** A WABA's Marketing Messages API onboarding as Graph reports it (`marketing_messages_onboarding_status`, upstream-facts §9.B). */
export interface MarketingUpstream {
  /** Graph's status, e.g. `ONBOARDED` or `ELIGIBLE`; undefined where Graph names none. */
  marketingOnboardingOf(wabaId: string): Promise<string | undefined>;
}

/** Whether Meta enabled a WABA for Direct Send (issue 55 item 2): `ENABLED`, `NOT_ENABLED` or `BLOCKED` as Graph says. */
export interface DirectSendUpstream {
  directSendStatusOf(wabaId: string): Promise<string | undefined>;
}

/** What the service knows of a WABA's onboarding to the Marketing Messages API (decisions §28). */
export interface MarketingOnboardingState {
  onboarded: boolean;
  /** Graph's field, or Meta's `MM_LITE_TERMS_SIGNED` webhook. */
  source: 'graph' | 'webhook';
  /** When it was learned (ISO): a WABA not onboarded is asked again after a while. */
  at: string;
}

/** Each WABA's onboarding, kept in the table (`WABA#<id>` / `MM_ONBOARDING`). */
export interface MarketingOnboardings {
  get(wabaId: string): Promise<MarketingOnboardingState | null>;
  put(wabaId: string, state: MarketingOnboardingState): Promise<void>;
}
