import { BULK_SAFETY_MS } from '#lib/domain/bulk-status.ts';
import { recordStorageProblem } from '#lib/adapters/dynamo/item-limits.ts';
import { registerOneByOne } from '#lib/adapters/dynamo/template-store.ts';
import { revisedRecord } from '#lib/domain/meta-notifications.ts';
import { type DirectoryEntities, directoryEntities, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/directory.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import {
  type ActiveFlip,
  type ActiveWrite,
  AssignmentConflict,
  type AssignmentChange,
  ChangeTooLarge,
  type DirectoryStore,
  type EventPublisher,
  type JobQueue,
  type OutboxStore,
  type Pacer,
  type BlockClaim,
  type BlockProgress,
  type RecordedOutcomes,
  type ClaimLease,
  type Deadline,
  type DeliveryResult,
  type DeliveryUpdate,
  type KnownThroughput,
  LOST_OUTCOME,
  type TemplatePause,
  type TemplatePauses,
  type AcceptedBlock,
  type Suppression,
  type SuppressionStore,
  type BudgetStore,
  type PositionOutcome,
  type RecipientBlock,
  type RecipientBlockRef,
  type RecipientOutcome,
  type SendCounts,
  type SendRecord,
  type SendScheduler,
  type SendStore,
  type StoredRecipient,
  type SyncLeaseStore,
  type SyncProgress,
  type SyncRunResult,
  type SyncState,
  type TemplateRecordStore,
  type ThroughputStore,
  type TemplateRevision,
  type WebhookConfigStore,
  type DeliveryLog,
} from '#lib/domain/ports.ts';
import type { DeliveryState } from '#lib/domain/delivery.ts';
import type { DispatchJob, RecipientParams } from '#lib/domain/sending/job.ts';
import { PAUSE_PERIODS_MS } from '#lib/domain/sending/pauses.ts';
import { NO_COUNTS } from '#lib/domain/send-status.ts';
import { assignmentSlot, type MetaTemplate, replacedRecord, type TemplateRecord } from '#lib/domain/template-record.ts';
import { type ListingCriteria, type ListingEntry, listingEntryOf, pageOfEntries } from '#lib/domain/template-listing.ts';
import { DeliveryChanged, type DeliveryStatus, type WebhookConfig, type WebhookDelivery } from '#lib/domain/webhook.ts';

/**
 * In-memory adapters of the store ports, with the DynamoDB adapters' conditional semantics: a record written
 * in place must still have the `updated_at` that was read, a client holds each pair (or its placeholder) at
 * most once, a change too large for one transaction is refused whole, a lease is taken only when free or
 * expired. Use cases run on them in milliseconds, without Java; test/unit/store-contract.test.ts runs the
 * same contract against these and the DynamoDB adapters.
 */
const copy = <T>(value: T): T => structuredClone(value);

export class MemoryDirectoryStore implements DirectoryStore {
  constructor(private readonly entities: DirectoryEntities) {}

  static fromFile(file: unknown) {
    return new MemoryDirectoryStore(directoryEntities(parseDirectoryFile(file)));
  }

  async getChannel(waId: string) {
    return copy(this.entities.channels.find((c) => c.wa_id === waId) ?? null);
  }
  async listChannels(clientId?: number): Promise<ChannelRecord[]> {
    return copy(
      this.entities.channels
        .filter((c) => clientId === undefined || c.client_id === clientId)
        .sort((a, b) => a.client_id - b.client_id || a.wa_id.localeCompare(b.wa_id)),
    );
  }
  async clientHasWaba(clientId: number, wabaId: string) {
    return this.entities.memberships.some((m) => m.client_id === clientId && m.waba_id === wabaId);
  }
  async listClientWabas(clientId: number) {
    return this.entities.memberships
      .filter((m) => m.client_id === clientId)
      .map((m) => m.waba_id)
      .sort();
  }
  async getWaba(wabaId: string): Promise<Waba | null> {
    return copy(this.entities.wabas.find((w) => w.waba_id === wabaId) ?? null);
  }
  async getClient(clientId: number): Promise<Client | null> {
    return copy(this.entities.clients.find((c) => c.client_id === clientId) ?? null);
  }
  async getCampaign(clientId: number, campaignId: number): Promise<Campaign | null> {
    return copy(this.entities.campaigns.find((c) => c.client_id === clientId && c.campaign_id === campaignId) ?? null);
  }
  async getContactChannel(clientId: number, channelId: number): Promise<ContactChannel | null> {
    return copy(this.entities.contactChannels.find((c) => c.client_id === clientId && c.channel_id === channelId) ?? null);
  }
  async getAssignables(clientId: number, channelIds: number[], campaignIds: number[]) {
    const channels = new Map<number, ContactChannel>();
    const campaigns = new Map<number, Campaign>();
    for (const id of channelIds) {
      const found = await this.getContactChannel(clientId, id);
      if (found) channels.set(id, found);
    }
    for (const id of campaignIds) {
      const found = await this.getCampaign(clientId, id);
      if (found) campaigns.set(id, found);
    }
    return { channels, campaigns };
  }
  async channelOfClient(clientId: number, did: string) {
    const channel = await this.getChannel(did);
    return channel && (await this.clientHasWaba(clientId, channel.waba_id)) ? channel : null;
  }
}

/** DynamoDB's limit of items in one transaction, counted as the DynamoDB adapter counts them. */
const TRANSACTION_LIMIT = 100;

const assignmentKey = (r: TemplateRecord) => `${r.waba_id}#${r.meta_template.id}#${r.client_id}#${assignmentSlot(r)}`;
const listingOrder = (r: TemplateRecord) =>
  `${r.meta_template.name}#${r.meta_template.language}#${r.waba_id}#${r.meta_template.id}#${r.id}`;

export class MemoryTemplateRecordStore implements TemplateRecordStore {
  readonly records = new Map<string, TemplateRecord>();
  /** Assignment keys: (template, client, pair) → record id. */
  private readonly keys = new Map<string, string>();
  readonly outbox = new Map<string, ServiceEvent>();
  /** The version of each (client, template)'s records; absent counts as 0. */
  private readonly versions = new Map<string, number>();

  constructor(initial: TemplateRecord[] = []) {
    for (const record of initial) this.put(record);
  }

  private put(record: TemplateRecord) {
    this.records.set(record.id, copy(record));
    this.keys.set(assignmentKey(record), record.id);
  }

  async get(id: string) {
    return copy(this.records.get(id) ?? null);
  }
  async getMany(ids: string[]) {
    return new Map([...new Set(ids)].filter((id) => this.records.has(id)).map((id) => [id, copy(this.records.get(id)!)]));
  }
  async listForClient(clientId: number) {
    return [...this.records.values()]
      .filter((r) => r.client_id === clientId)
      .sort((a, b) => (listingOrder(a) < listingOrder(b) ? -1 : 1))
      .map(copy);
  }
  async readAssignments(wabaId: string, templateId: string, clientId: number) {
    return {
      records: await this.listForTemplate(wabaId, templateId, clientId),
      version: this.versions.get(`${wabaId}#${templateId}#${clientId}`) ?? 0,
    };
  }

  async listForTemplate(wabaId: string, templateId: string, clientId?: number) {
    return [...this.records.values()]
      .filter((r) => r.waba_id === wabaId && r.meta_template.id === templateId && (clientId === undefined || r.client_id === clientId))
      .map(copy);
  }
  async listingPage(clientId: number, criteria: ListingCriteria, page: { offset: number; size: number }) {
    const groups = new Map<string, TemplateRecord[]>();
    for (const r of this.records.values()) {
      if (r.client_id !== clientId) continue;
      const key = `${r.waba_id}#${r.meta_template.id}`;
      groups.set(key, [...(groups.get(key) ?? []), copy(r)]);
    }
    const entries = [...groups.values()].map(listingEntryOf).filter((e): e is ListingEntry => e !== null);
    return pageOfEntries(entries, criteria, page);
  }
  async templatesOfWaba(clientId: number, wabaId: string) {
    const { entries } = await this.listingPage(clientId, { deleted: false, wabaId }, { offset: 0, size: Number.MAX_SAFE_INTEGER });
    return entries.map((e) => e.entry.meta_template as MetaTemplate);
  }
  async templateEntry(clientId: number, wabaId: string, name: string, language: string) {
    const { entries } = await this.listingPage(clientId, { deleted: false, wabaId, name, language }, { offset: 0, size: 1 });
    return entries[0] ?? null;
  }
  /** As the DynamoDB store: no write is begun with BULK_SAFETY_MS or less left; those flips are `not_processed`. */
  async setActive(flips: ActiveFlip[], now: string, deadline?: Deadline): Promise<ActiveWrite[]> {
    return flips.map(({ record: held, to }) => {
      if (deadline && deadline.remainingMs() <= BULK_SAFETY_MS) return 'not_processed';
      const record = this.records.get(held.id);
      if (!record) return 'missing';
      if (record.active === to) return 'changed_meanwhile';
      Object.assign(record, { active: to, updated_at: now });
      this.bump(record);
      return 'written';
    });
  }
  private bump(r: TemplateRecord) {
    const key = `${r.waba_id}#${r.meta_template.id}#${r.client_id}`;
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  /** All or nothing, checked before anything is written, as one DynamoDB transaction. */
  async applyAssignments(change: AssignmentChange) {
    let items = change.create.length * 2 + change.remove.length * 2;
    for (const { before, after } of change.update) items += assignmentKey(before) === assignmentKey(after) ? 1 : 3;
    if (items === 0) return;
    items += 1; // the version
    const versionKey = `${change.of.wabaId}#${change.of.templateId}#${change.of.clientId}`;
    if (items > TRANSACTION_LIMIT) throw new ChangeTooLarge(`${items} items exceed one transaction`);
    const unchanged = (r: TemplateRecord) => this.records.get(r.id)?.updated_at === r.updated_at;
    const freedKeys = new Set([...change.remove, ...change.update.map((u) => u.before)].map(assignmentKey));
    const takenKeys = new Set<string>();
    const claim = (r: TemplateRecord) => {
      const key = assignmentKey(r);
      const holder = this.keys.get(key);
      if ((holder !== undefined && !freedKeys.has(key)) || takenKeys.has(key)) return false;
      takenKeys.add(key);
      return true;
    };
    const ok =
      (this.versions.get(versionKey) ?? 0) === change.of.version &&
      change.create.every((r) => !this.records.has(r.id) && claim(r)) &&
      change.update.every(({ before, after }) => unchanged(before) && (assignmentKey(before) === assignmentKey(after) || claim(after))) &&
      change.remove.every(unchanged);
    if (!ok) throw new AssignmentConflict();
    for (const r of [...change.remove, ...change.update.map((u) => u.before)]) this.keys.delete(assignmentKey(r));
    for (const r of change.remove) this.records.delete(r.id);
    for (const r of [...change.create, ...change.update.map((u) => u.after)]) this.put(r);
    this.versions.set(versionKey, change.of.version + 1);
  }

  async register(records: TemplateRecord[], events: ServiceEvent[]) {
    if (records.length > 0) {
      if (records.length * 2 + events.length > TRANSACTION_LIMIT) throw new ChangeTooLarge('too many items for one transaction');
      const keys = records.map(assignmentKey);
      const groups = new Set(records.map((r) => `${r.waba_id}#${r.meta_template.id}#${r.client_id}`));
      const taken = [...groups].some((g) => this.versions.has(g));
      if (taken || records.some((r) => this.records.has(r.id)) || keys.some((k) => this.keys.has(k)) || new Set(keys).size < keys.length) {
        throw new AssignmentConflict();
      }
      for (const record of records) this.put(record);
      for (const group of groups) this.versions.set(group, 1);
    }
    for (const event of events) this.outbox.set(event.id, copy(event));
  }

  async registerEach(records: TemplateRecord[]) {
    return { refused: await registerOneByOne(this, records) };
  }

  /** The same limits as DynamoDB's (the contract test holds both to them). */
  storageProblem(record: TemplateRecord) {
    return recordStorageProblem(record);
  }

  async markDeleted(records: TemplateRecord[], deleted: boolean, now: string) {
    for (const r of records) {
      const stored = this.records.get(r.id);
      if (stored && Boolean(stored.deleted) !== deleted) {
        Object.assign(stored, { deleted, updated_at: now });
        this.bump(stored);
      }
    }
  }

  async reviseTemplate(
    of: { wabaId: string; templateId: string; clientId: number },
    revise: (records: TemplateRecord[]) => TemplateRevision | null,
    now: string,
    source: 'sync' | 'webhook',
  ) {
    const held = [...this.records.values()].filter(
      (r) => r.waba_id === of.wabaId && r.meta_template.id === of.templateId && r.client_id === of.clientId,
    );
    const revision = held.length > 0 ? revise(copy(held)) : null;
    if (!revision) return { revised: false, events: [] };
    for (const r of held) {
      Object.assign(r, revisedRecord(r, copy(revision), now, source));
      this.bump(r);
    }
    for (const event of revision.events) this.outbox.set(event.id, copy(event));
    return { revised: true, events: copy(revision.events) };
  }

  async replaceMetaTemplate(records: TemplateRecord[], meta: MetaTemplate, source: 'edit' | 'sync', now: string, heldSince = now) {
    for (const r of records) {
      const stored = this.records.get(r.id);
      if (stored) {
        Object.assign(stored, replacedRecord(stored, copy(meta), source, now, heldSince));
        this.bump(stored);
      }
    }
  }
}

export class MemorySendStore implements SendStore {
  readonly sends = new Map<string, SendRecord>();
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
      to: string[];
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
        return {
          index: ref.first + offset,
          to,
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
    if (outcome.kind === 'failed') this.count(sendId, { failed: 1 }, [{ code: outcome.code, title: outcome.title, count: 1 }]);
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
  async settleBlock(sendId: string, block: RecipientBlock, outcomes: PositionOutcome[], lease: ClaimLease) {
    const existing = this.heldUnder(sendId, block, lease);
    if (!existing) return;
    existing.state = 'settled';
    existing.outcomes = copy(outcomes);
    for (const outcome of outcomes) this.add(sendId, outcome);
  }
  /** The cost ledger as the table keeps it: `<waba>|<day>|<client>|<did>|<market>|<category>` → charges. */
  readonly ledger: Record<string, { messages: number; billable: number; micros: number }> = {};
  async applyDeliveries(sendId: string, updates: DeliveryUpdate[], wabaId?: string): Promise<DeliveryResult[]> {
    return updates.map((update) => {
      const block = this.blocks.get(`${sendId}|${update.block}`);
      if (!block) return 'unknown';
      if (block.state !== 'settled') return 'unsettled';
      const outcome = block.outcomes?.[update.index - update.block];
      if (outcome?.kind !== 'sent' || outcome.message_id !== update.messageId) return 'unknown';
      const id = `${sendId}|${update.index}`;
      const moved = update.change(copy(this.messages.get(id) ?? (outcome.held ? { held: true } : {})));
      if (!moved) return 'unchanged';
      this.messages.set(id, copy(moved.next));
      const list = this.recipientLists.get(`${sendId}|${update.block}`);
      list?.latest.set(update.index - update.block, { state: copy(moved.next), at: new Date().toISOString() });
      this.count(sendId, moved.counts, moved.errors);
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
      }
      return 'applied';
    });
  }
  readonly jobs = new Map<string, 'begun' | 'settled'>();
  /** The outcome of each job settled whole, by `<send>|<job>`. */
  readonly jobOutcomes = new Map<string, RecipientOutcome>();
  async beginJob(sendId: string, job: number) {
    const id = `${sendId}|${job}`;
    if (!this.jobs.has(id)) this.jobs.set(id, 'begun');
    return this.jobs.get(id)!;
  }
  async settleJob(sendId: string, job: number, recipients: number, outcome: RecipientOutcome) {
    const id = `${sendId}|${job}`;
    if (this.jobs.has(id)) return false;
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

/** One-time schedules of sends, as made (decisions §22); `failing` refuses them. */
export class MemorySendScheduler implements SendScheduler {
  readonly schedules = new Map<string, string>();
  failing = false;
  async schedule(sendId: string, atIso: string) {
    if (this.failing) throw new Error('scheduler down');
    if (!this.schedules.has(sendId)) this.schedules.set(sendId, atIso);
  }
}

/** Throughput levels by number digits, as the DynamoDB store keeps them. */
export class MemoryThroughputStore implements ThroughputStore {
  readonly levels = new Map<string, KnownThroughput>();
  async get(digits: string) {
    return copy(this.levels.get(digits));
  }
  async put(digits: string, known: KnownThroughput) {
    this.levels.set(digits, copy(known));
  }
  async forget(digits: string) {
    this.levels.delete(digits);
  }
}

export class MemoryOutboxStore implements OutboxStore {
  constructor(private readonly records: MemoryTemplateRecordStore) {}

  async pending(olderThanIso: string, limit: number) {
    return [...this.records.outbox.values()]
      .filter((e) => e.occurred_at < olderThanIso)
      .sort((a, b) => (a.occurred_at < b.occurred_at ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }
  async remove(ids: string[]) {
    for (const id of ids) this.records.outbox.delete(id);
  }
}

export class MemorySyncLeaseStore implements SyncLeaseStore {
  readonly leases = new Map<number, { leaseId: string; expiresAtMs: number; startedAt: string; progress?: SyncProgress }>();

  async acquire(clientId: number, leaseId: string, nowMs: number, ttlMs: number) {
    const current = this.leases.get(clientId);
    if (current && current.expiresAtMs >= nowMs) return false;
    this.leases.set(clientId, { leaseId, expiresAtMs: nowMs + ttlMs, startedAt: new Date(nowMs).toISOString() });
    return true;
  }
  async holds(clientId: number, leaseId: string, nowMs: number) {
    const current = this.leases.get(clientId);
    return current?.leaseId === leaseId && current.expiresAtMs >= nowMs;
  }
  readonly lastRuns = new Map<number, SyncRunResult>();

  async release(clientId: number, leaseId: string, lastRun?: SyncRunResult) {
    if (this.leases.get(clientId)?.leaseId === leaseId) this.leases.delete(clientId);
    if (lastRun) this.lastRuns.set(clientId, copy(lastRun));
  }
  async report(clientId: number, leaseId: string, progress: SyncProgress) {
    const current = this.leases.get(clientId);
    if (current?.leaseId === leaseId) current.progress = copy(progress);
  }
  async state(clientId: number, nowMs: number): Promise<SyncState> {
    const lease = this.leases.get(clientId);
    const lastRun = copy(this.lastRuns.get(clientId) ?? null);
    if (!lease || lease.expiresAtMs < nowMs) return { lastRun };
    return { lastRun, running: { started_at: lease.startedAt, ...(lease.progress && { progress: copy(lease.progress) }) } };
  }
}

export class MemoryWebhookConfigStore implements WebhookConfigStore {
  readonly configs = new Map<number, WebhookConfig>();

  async get(clientId: number) {
    return copy(this.configs.get(clientId) ?? null);
  }
  async put(config: Pick<WebhookConfig, 'client_id' | 'url' | 'active'>, newSecret: string) {
    const now = new Date().toISOString();
    const existing = this.configs.get(config.client_id);
    const saved: WebhookConfig = {
      ...existing,
      ...config,
      active: config.active ?? existing?.active ?? true,
      signing_secret: existing?.signing_secret ?? newSecret,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    this.configs.set(config.client_id, saved);
    return copy(saved);
  }
  async rotate(clientId: number, newSecret: string, previousUntil: string) {
    const existing = this.configs.get(clientId);
    if (!existing) return null;
    Object.assign(existing, {
      previous_secret: existing.signing_secret,
      previous_secret_expires_at: previousUntil,
      signing_secret: newSecret,
      updated_at: new Date().toISOString(),
    });
    return copy(existing);
  }
}

/** The delivery log as the DynamoDB adapter keeps it: conditional on the delivery as read, counts by status. */
export class MemoryDeliveryLog implements DeliveryLog {
  readonly deliveries = new Map<string, { delivery: WebhookDelivery; event: ServiceEvent }>();

  async get(id: string) {
    return copy(this.deliveries.get(id) ?? null);
  }
  async save(delivery: WebhookDelivery, event: ServiceEvent, previous: WebhookDelivery | null) {
    const held = this.deliveries.get(delivery.id)?.delivery;
    const unchanged = previous ? held?.attempts === previous.attempts && held.status === previous.status : held === undefined;
    if (!unchanged) throw new DeliveryChanged();
    this.deliveries.set(delivery.id, copy({ delivery, event }));
  }
  async list(clientId: number, status: DeliveryStatus | undefined, page: { offset: number; size: number }) {
    const all = [...this.deliveries.values()]
      .map((d) => d.delivery)
      .filter((d) => d.client_id === clientId && (!status || d.status === status))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return { deliveries: copy(all.slice(page.offset, page.offset + page.size)), total: all.length };
  }
}

/** A queue that keeps what it was sent, or refuses everything when told to. */
export class MemoryJobQueue implements JobQueue {
  readonly sent: Record<string, unknown>[] = [];
  /** Whose work each message is (its group: the tenant and its lane), in the order sent. */
  readonly groups: (string | undefined)[] = [];
  failing = false;

  async send(messages: Record<string, unknown>[], group?: string) {
    if (this.failing) throw new Error('queue unreachable');
    this.sent.push(...copy(messages));
    this.groups.push(...messages.map(() => group));
  }
}

/** An event publisher that keeps what it published, or fails when told to. */
export class MemoryEventPublisher implements EventPublisher {
  readonly published: ServiceEvent[] = [];
  failing = false;

  async publish(events: ServiceEvent[]) {
    if (this.failing) throw new Error('bus unreachable');
    this.published.push(...copy(events));
  }
}

/** The pacing of each number, as the DynamoDB pacer keeps it: the next free slot; reservations never overlap. */
export class MemoryPacer implements Pacer {
  readonly next = new Map<string, number>();
  readonly reservations: { numberId: string; first: number; count: number; intervalMs: number }[] = [];

  /** Reservations near refused: they book nothing (a read only, in the table). */
  refusals = 0;

  async reserve(numberId: string, count: number, intervalMs: number, nowMs: number) {
    const first = Math.max(this.next.get(numberId) ?? 0, nowMs);
    this.next.set(numberId, first + count * intervalMs);
    this.reservations.push({ numberId, first, count, intervalMs });
    return first;
  }

  async reserveNear(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number) {
    const free = Math.max(this.next.get(numberId) ?? 0, nowMs);
    if (free - nowMs > horizonMs) {
      this.refusals++;
      return { freeAt: free };
    }
    return { first: await this.reserve(numberId, count, intervalMs, nowMs) };
  }
}

/** Budgets and each month's reservations, as the table keeps them: a reservation checks and adds at once. */
export class MemoryBudgetStore implements BudgetStore {
  readonly budgets = new Map<number, { monthly_micros: number; updated_at: string }>();
  readonly months = new Map<string, number>();
  async get(clientId: number) {
    return this.budgets.get(clientId) ?? null;
  }
  async set(clientId: number, monthlyMicros: number | null, at: string) {
    if (monthlyMicros === null) this.budgets.delete(clientId);
    else this.budgets.set(clientId, { monthly_micros: monthlyMicros, updated_at: at });
  }
  async reserved(clientId: number, month: string) {
    return this.months.get(`${clientId}|${month}`) ?? 0;
  }
  async reserve(clientId: number, month: string, micros: number, limitMicros: number) {
    const now = await this.reserved(clientId, month);
    if (now + micros > limitMicros) return null;
    this.months.set(`${clientId}|${month}`, now + micros);
    return now + micros;
  }
  async release(clientId: number, month: string, micros: number) {
    this.months.set(`${clientId}|${month}`, (await this.reserved(clientId, month)) - micros);
  }
}

/** Suppression lists by client, as the table keeps them: the first entry of a number stays. */
export class MemorySuppressionStore implements SuppressionStore {
  readonly lists = new Map<number, Map<string, Suppression>>();
  /** Numbers asked for, a batch a call (the table reads a hundred a BatchGetItem). */
  readonly batches: number[] = [];
  private listOf(clientId: number) {
    if (!this.lists.has(clientId)) this.lists.set(clientId, new Map());
    return this.lists.get(clientId)!;
  }
  async add(clientId: number, entry: Suppression) {
    const list = this.listOf(clientId);
    if (list.has(entry.phone)) return false;
    list.set(entry.phone, copy(entry));
    return true;
  }
  async remove(clientId: number, phone: string) {
    return this.listOf(clientId).delete(phone);
  }
  async get(clientId: number, phones: string[]) {
    this.batches.push(phones.length);
    const list = this.listOf(clientId);
    return new Map(phones.flatMap((p) => (list.has(p) ? [[p, copy(list.get(p)!)] as const] : [])));
  }
  async list(clientId: number, page: { offset: number; size: number }) {
    const entries = [...this.listOf(clientId).values()].sort((a, b) => a.phone.localeCompare(b.phone));
    return { entries: entries.slice(page.offset, page.offset + page.size).map(copy), total: entries.length };
  }
}

/** Templates Meta paused or disabled, as the table keeps them: a pause in force is never moved. */
export class MemoryTemplatePauses implements TemplatePauses {
  readonly pauses = new Map<string, TemplatePause & { active?: boolean }>();
  async get(wabaId: string, templateId: string) {
    const pause = this.pauses.get(`${wabaId}|${templateId}`);
    if (!pause || pause.active) return null;
    const { active: _a, ...shown } = pause;
    return copy(shown);
  }
  async pause(wabaId: string, templateId: string, atMs: number) {
    const id = `${wabaId}|${templateId}`;
    const known = this.pauses.get(id);
    if (known && !known.active && (known.state === 'disabled' || (known.until_ms ?? 0) > atMs))
      return (await this.get(wabaId, templateId))!;
    const pauses = known?.pauses ?? 0;
    const next: TemplatePause = {
      state: 'paused',
      since_ms: atMs,
      until_ms: atMs + PAUSE_PERIODS_MS[Math.min(pauses, 1)],
      pauses: pauses + 1,
    };
    this.pauses.set(id, next);
    return copy(next);
  }
  async resume(wabaId: string, templateId: string) {
    const known = this.pauses.get(`${wabaId}|${templateId}`);
    if (known?.state === 'paused') known.active = true;
  }
  async disable(wabaId: string, templateId: string, atMs: number) {
    this.pauses.set(`${wabaId}|${templateId}`, {
      state: 'disabled',
      since_ms: atMs,
      pauses: this.pauses.get(`${wabaId}|${templateId}`)?.pauses ?? 0,
    });
  }
}
