import type { BudgetRelease } from '#lib/domain/ports/costs.ts';
import type { MemoryBudgetStore } from './budget-store.ts';
import { type DeliveryState, failureCount } from '#lib/domain/delivery.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import {
  LOST_OUTCOME,
  type AcceptedBlock,
  type BlockClaim,
  type BlockProgress,
  type ClaimLease,
  type DeliveryResult,
  type DeliveryUpdate,
  type PositionOutcome,
  type RecipientBlock,
  type RecipientBlockRef,
  type RecipientOutcome,
  type RecordedOutcomes,
  type SendCounts,
  type SendRecord,
  type SendStore,
  type StoredRecipient,
} from '#lib/domain/ports/sending.ts';
import { NO_COUNTS } from '#lib/domain/send-status.ts';
import type { DispatchJob, RecipientParams } from '#lib/domain/sending/job.ts';
import { copy } from './copy.ts';

export class MemorySendStore implements SendStore {
  readonly sends = new Map<string, SendRecord>();

  /** The budgets whose months the settlements move, as the table's transactions do (decisions §27). */
  constructor(private readonly budgets?: MemoryBudgetStore) {}
  /** Progress records written (a write of the block's item each, in the table). */
  progressWrites = 0;
  /** Blocks by `<send>|<first>`: as the DynamoDB adapter's block items. */
  readonly blocks = new Map<
    string,
    {
      state: 'claimed' | 'open' | 'settled';
      holder?: string;
      untilMs?: number;
      sendable: number;
      size: number;
      outcomes?: PositionOutcome[];
      /** While claimed or open: the answers recorded so far by offset, and the offset launches may have reached. */
      recorded: Map<number, PositionOutcome>;
      launchedTo: number;
    }
  >();
  /** Sent messages' delivery states by `<send>|<index>`. */
  readonly messages = new Map<string, DeliveryState>();
  failing = false;

  async begin(send: SendRecord) {
    if (this.failing) throw new Error('storage down');
    if (this.sends.has(send.send_id)) throw new Error('send exists');
    this.sends.set(send.send_id, {
      ...copy(send),
      counts: { ...NO_COUNTS, ...copy(send.counts) },
      errors: [],
    });
  }
  /** Recipients kept at acceptance by `<send>|<block first>`, with each message's latest state and when. */
  readonly recipientLists = new Map<
    string,
    {
      ref: RecipientBlockRef;
      to: (string | undefined)[];
      user_ids?: (string | undefined)[];
      repeats: (number | undefined)[];
      suppressed?: number[];
      params?: (RecipientParams | undefined)[];
      at: string;
      latest: Map<number, { state: DeliveryState; at: string }>;
    }
  >();
  async recordRecipients(sendId: string, blocks: AcceptedBlock[], at: string) {
    if (this.failing) throw new Error('storage down');
    for (const block of blocks) this.recipientLists.set(`${sendId}|${block.ref.first}`, { ...copy(block), at, latest: new Map() });
  }
  async recipients(sendId: string, blocks: RecipientBlockRef[]): Promise<StoredRecipient[]> {
    return blocks.flatMap((ref) => {
      const list = this.recipientLists.get(`${sendId}|${ref.first}`);
      if (!list) return [];
      const block = this.blocks.get(`${sendId}|${ref.first}`);
      const job = this.jobOutcomes.get(`${sendId}|${ref.job}`);
      return list.to.map((to, offset): StoredRecipient => {
        const repeat = list.repeats[offset];
        const latest = list.latest.get(offset);
        let outcome: PositionOutcome | undefined;
        if (repeat !== undefined) outcome = { kind: 'duplicate', of: repeat };
        else if (list.suppressed?.includes(offset)) outcome = { kind: 'suppressed' };
        else if (block?.state === 'settled') outcome = block.outcomes?.[offset];
        else if (!block && job) outcome = job;
        const values = list.params?.[offset];
        const userId = list.user_ids?.[offset];
        return {
          index: ref.first + offset,
          to: to ?? '',
          ...(userId && { user_id: userId }),
          ...(values && { params: copy(values) }),
          ...(outcome && { outcome: copy(outcome) }),
          updated_at: latest?.at ?? list.at,
          ...(latest && { delivery: copy(latest.state) }),
        };
      });
    });
  }
  async cancel(sendId: string, at: string) {
    const send = this.sends.get(sendId);
    if (send && !send.cancelled_at) send.cancelled_at = at;
  }
  /** Events written with a pause or its end (the table's outbox items). */
  readonly events: ServiceEvent[] = [];
  async pause(sendId: string, until: string, event: ServiceEvent) {
    const send = this.sends.get(sendId);
    if (!send || send.paused) return false;
    send.paused = { since: event.occurred_at, until };
    this.events.push(copy(event));
    return true;
  }
  async resume(sendId: string, event: ServiceEvent) {
    const send = this.sends.get(sendId);
    if (!send?.paused) return false;
    delete send.paused;
    this.events.push(copy(event));
    return true;
  }
  async markResent(sendId: string, resentAs: string) {
    const send = this.sends.get(sendId);
    if (send) send.resent_as = [...(send.resent_as ?? []), resentAs];
  }
  async isCancelled(sendId: string) {
    return this.sends.get(sendId)?.cancelled_at !== undefined;
  }
  /** Scheduled sends' held jobs, by send. */
  readonly held = new Map<string, DispatchJob[]>();
  async holdJobs(sendId: string, jobs: DispatchJob[]) {
    if (this.failing) throw new Error('storage down');
    this.held.set(sendId, copy(jobs));
  }
  async heldJobs(sendId: string) {
    return copy(this.held.get(sendId) ?? []);
  }
  async markReleased(sendId: string, at: string) {
    const send = this.sends.get(sendId);
    if (send && !send.released_at) send.released_at = at;
  }
  async settle(begun: SendRecord, status: 'queued' | 'abandoned') {
    const send = this.sends.get(begun.send_id);
    if (send?.status !== 'queuing') throw new Error('not queuing');
    send.status = status;
  }
  async get(sendId: string) {
    return copy(this.sends.get(sendId) ?? null);
  }
  async list(clientId: number, page: { offset: number; size: number }) {
    const all = [...this.sends.values()]
      .filter((send) => send.client_id === clientId && send.status === 'queued')
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.send_id.localeCompare(a.send_id));
    return { sends: copy(all.slice(page.offset, page.offset + page.size)), total: all.length };
  }
  private count(sendId: string, counts: Partial<SendCounts>, errors: { code: string; title: string; count: number }[]) {
    const send = this.sends.get(sendId)!;
    for (const [field, n] of Object.entries(counts)) send.counts![field as keyof SendCounts] += n;
    for (const { code, title, count } of errors) {
      const known = send.errors!.find((e) => e.code === code);
      if (known) known.count += count;
      else send.errors!.push({ code, title, count });
    }
    send.errors = send.errors!.filter((e) => e.count > 0);
  }
  private add(sendId: string, outcome: PositionOutcome) {
    if (outcome.kind === 'duplicate' || outcome.kind === 'suppressed') return;
    if (outcome.kind === 'failed')
      this.count(sendId, { [failureCount(outcome.code)]: 1 }, [{ code: outcome.code, title: outcome.title, count: 1 }]);
    else this.count(sendId, { [outcome.kind]: 1, ...(outcome.kind === 'sent' && outcome.held && { held: 1 }) }, []);
  }
  async claimBlock(sendId: string, block: RecipientBlock, lease: ClaimLease, nowMs: number): Promise<BlockClaim> {
    const id = `${sendId}|${block.first}`;
    const existing = this.blocks.get(id);
    if (!existing) {
      this.blocks.set(id, {
        state: 'claimed',
        holder: lease.holder,
        untilMs: lease.untilMs,
        sendable: block.sendable,
        size: block.size,
        recorded: new Map(),
        launchedTo: 0,
      });
      return { claimed: new Map() };
    }
    if (existing.state === 'settled') return 'done';
    if (existing.state === 'claimed' && existing.holder === lease.holder) return { claimed: new Map(existing.recorded) };
    if (existing.state === 'claimed' && (existing.untilMs ?? 0) > nowMs) return 'busy';
    // Handed back, or its holder died: what it launched without a recorded answer may have gone, never again.
    if (existing.state === 'claimed')
      for (let offset = 0; offset < existing.launchedTo; offset++)
        if (!existing.recorded.has(offset)) existing.recorded.set(offset, LOST_OUTCOME);
    Object.assign(existing, { state: 'claimed', holder: lease.holder, untilMs: lease.untilMs });
    return { claimed: new Map(existing.recorded) };
  }
  private heldUnder(sendId: string, block: RecipientBlock, lease: ClaimLease) {
    const existing = this.blocks.get(`${sendId}|${block.first}`);
    return existing?.state === 'claimed' && existing.holder === lease.holder && existing.untilMs === lease.untilMs ? existing : undefined;
  }
  async recordProgress(sendId: string, block: RecipientBlock, lease: ClaimLease, progress: BlockProgress) {
    const existing = this.heldUnder(sendId, block, lease);
    if (!existing) return false;
    existing.recorded = new Map(copy([...progress.outcomes]));
    existing.launchedTo = progress.launchedTo;
    this.progressWrites++;
    return true;
  }
  async handBack(sendId: string, block: RecipientBlock, lease: ClaimLease, outcomes: RecordedOutcomes) {
    const existing = this.heldUnder(sendId, block, lease);
    if (!existing) return;
    Object.assign(existing, { state: 'open', holder: undefined, untilMs: undefined, recorded: new Map(copy([...outcomes])) });
  }
  async settleBlock(sendId: string, block: RecipientBlock, outcomes: PositionOutcome[], lease: ClaimLease, release?: BudgetRelease) {
    const existing = this.heldUnder(sendId, block, lease);
    if (!existing) return;
    this.budgets?.settle(release);
    existing.state = 'settled';
    existing.outcomes = copy(outcomes);
    for (const outcome of outcomes) this.add(sendId, outcome);
  }
  /** Billable messages counted toward volume tiers: `<waba>|<month>|<market>|<category>` → messages. */
  readonly monthVolumes = new Map<string, number>();
  /** The cost ledger as the table keeps it: `<waba>|<day>|<client>|<did>|<market>|<category>` → charges. */
  readonly ledger: Record<string, { messages: number; billable: number; micros: number }> = {};
  async applyDeliveries(sendId: string, updates: DeliveryUpdate[], wabaId?: string): Promise<DeliveryResult[]> {
    return updates.map((update) => {
      const block = this.blocks.get(`${sendId}|${update.block}`);
      if (!block) return 'unknown';
      if (block.state !== 'settled') return 'unsettled';
      const outcome = block.outcomes?.[update.index - update.block];
      // A launch whose answer never came may have gone: Meta's status (found by its reference) says it did.
      const unknown = outcome?.kind === 'failed' && outcome.code === 'outcome_unknown';
      if (!unknown && (outcome?.kind !== 'sent' || outcome.message_id !== update.messageId)) return 'unknown';
      const id = `${sendId}|${update.index}`;
      const accepted = unknown
        ? { failed: { code: outcome.code, title: outcome.title } }
        : outcome?.kind === 'sent' && outcome.held
          ? { held: true }
          : {};
      const moved = update.change(copy(this.messages.get(id) ?? accepted));
      if (!moved) return 'unchanged';
      this.messages.set(id, copy(moved.next));
      const list = this.recipientLists.get(`${sendId}|${update.block}`);
      list?.latest.set(update.index - update.block, { state: copy(moved.next), at: new Date().toISOString() });
      this.count(sendId, moved.counts, moved.errors);
      const clientId = this.sends.get(sendId)?.client_id;
      if (moved.settles && update.reserved && clientId !== undefined)
        this.budgets?.move(clientId, update.reserved.month, { released: update.reserved.micros });
      if (moved.charge && clientId !== undefined) {
        const month = new Date(update.chargedAt ?? Date.now()).toISOString().slice(0, 7);
        this.budgets?.move(clientId, month, { spent: moved.charge.budget_micros ?? moved.charge.micros });
      }
      if (moved.charge) {
        const { pricing, market, micros } = moved.charge;
        const add = (charges: Record<string, { messages: number; billable: number; micros: number }>, key: string) => {
          charges[key] ??= { messages: 0, billable: 0, micros: 0 };
          const known = charges[key];
          known.messages += 1;
          known.billable += pricing.billable ? 1 : 0;
          known.micros += micros;
        };
        const send = this.sends.get(sendId)!;
        send.charges ??= {};
        add(send.charges, pricing.category);
        const day = new Date(update.chargedAt ?? Date.now()).toISOString().slice(0, 10);
        if (wabaId) add(this.ledger, `${wabaId}|${day}|${send.client_id}|${send.did}|${market}|${pricing.category}`);
        if (wabaId && update.tierVolume && micros > 0) {
          const key = `${wabaId}|${update.tierVolume.month}|${update.tierVolume.key}`;
          this.monthVolumes.set(key, (this.monthVolumes.get(key) ?? 0) + 1);
        }
      }
      return 'applied';
    });
  }
  async accountOf(sendId: string) {
    const send = this.sends.get(sendId);
    return send && { client_id: send.client_id, ...(send.reservation && { reservation: copy(send.reservation) }) };
  }
  readonly jobs = new Map<string, 'begun' | 'settled'>();
  /** The outcome of each job settled whole, by `<send>|<job>`. */
  readonly jobOutcomes = new Map<string, RecipientOutcome>();
  async beginJob(sendId: string, job: number) {
    const id = `${sendId}|${job}`;
    if (!this.jobs.has(id)) this.jobs.set(id, 'begun');
    return this.jobs.get(id)!;
  }
  async settleJob(sendId: string, job: number, recipients: number, outcome: RecipientOutcome, release?: BudgetRelease) {
    const id = `${sendId}|${job}`;
    if (this.jobs.has(id)) return false;
    this.budgets?.settle(release);
    this.jobs.set(id, 'settled');
    this.jobOutcomes.set(id, copy(outcome));
    for (let i = 0; i < recipients; i++) this.add(sendId, outcome);
    return true;
  }
  async stop(sendId: string, reason: { code: string; title: string }) {
    const send = this.sends.get(sendId);
    if (send && !send.stopped) send.stopped = reason;
  }
}
