import { NO_COUNTS } from '#lib/domain/sends/send-status.ts';
import { describe, expect, it } from 'vitest';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { type StatusReport, statusChange } from '#lib/domain/shared/message-status.ts';
import {
  AssignmentConflict,
  ChangeTooLarge,
  type TemplateAssignments,
  type TemplateListing,
  type TemplateRecords,
} from '#lib/domain/templates/ports.ts';
import {
  type ClaimLease,
  type StatusUpdate,
  LOST_OUTCOME,
  type PositionOutcome,
  type SendRecord,
  type BlockLedger,
  type MessageStatuses,
  type HeldJobs,
  type RecipientLists,
  type SendRecords,
} from '#lib/domain/sends/ports.ts';
import type { DeliveryLog } from '#lib/domain/webhooks/ports.ts';
import type { Pacer } from '#lib/domain/sends/dispatch/ports.ts';
import type { SyncLeaseStore } from '#lib/domain/templates/ports.ts';
import { DeliveryChanged, type WebhookDelivery } from '#lib/domain/webhooks/webhook.ts';
import { newRecordId, type TemplateRecord } from '#lib/domain/templates/template-record.ts';
import type { ListingCriteria } from '#lib/domain/templates/template-listing.ts';

/**
 * The conditional semantics every template record store and lease store keeps, run against the in-memory
 * adapters (test/unit/) and the DynamoDB adapters on DynamoDB Local (test/http/): the use-case tests on memory
 * prove something only while both pass the same contract.
 */
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

function record(templateId: string, clientId: number, pair?: [number, number], extra: Partial<TemplateRecord> = {}): TemplateRecord {
  const now = new Date().toISOString();
  return {
    id: newRecordId(),
    client_id: clientId,
    waba_id: 'contract-waba',
    namespace: 'ns',
    active: false,
    meta_template: { id: templateId, name: `t_${templateId}`, language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [] },
    ...(pair && {
      channel: { channel_id: pair[0], name: 'c', did: '1', type: 'MSGCHAN', waba_id: 'contract-waba' },
      campaign: { campaign_id: pair[1], campaign_name: 'k' },
    }),
    created_at: now,
    updated_at: now,
    ...extra,
  };
}

/** What a change is built on: the (client, template)'s version and its records as read at it. */
const withPair = (channelId: number, campaignId: number, campaignName: string) => ({
  channel: { channel_id: channelId, name: 'c', did: '1', type: 'MSGCHAN', waba_id: 'contract-waba' },
  campaign: { campaign_id: campaignId, campaign_name: campaignName },
});

/** The template ports, each its own adapter on one store, named as the use cases' deps name them. */
export interface TemplateParts {
  records: TemplateRecords;
  listing: TemplateListing;
  assignments: TemplateAssignments;
}

async function readFor(store: TemplateParts, templateId: string, clientId = 7) {
  const { version, records } = await store.assignments.readAssignments('contract-waba', templateId, clientId);
  return { of: { wabaId: 'contract-waba', templateId, clientId, version }, current: records };
}

export function templateRecordStoreContract(name: string, makeStore: () => TemplateParts | Promise<TemplateParts>) {
  describe(`${name}: the template record store contract`, () => {
    it('registers a pair once: a second registration of the same pair is an AssignmentConflict', async () => {
      const store = await makeStore();
      const template = unique();
      await store.records.register([record(template, 7, [1, 2])], []);
      await expect(store.records.register([record(template, 7, [1, 2])], [])).rejects.toBeInstanceOf(AssignmentConflict);
      expect(await store.records.listForTemplate('contract-waba', template, 7)).toHaveLength(1);
    });

    it('refuses a change whose record changed since it was read, and writes none of it', async () => {
      const store = await makeStore();
      const template = unique();
      const held = record(template, 7, [1, 2]);
      await store.records.register([held], []);
      await store.assignments.setActive([{ record: held, to: true }], new Date(Date.now() + 1000).toISOString());
      const added = record(template, 7, [3, 4]);
      const stale = store.assignments.applyAssignments({
        ...(await readFor(store, template)),
        create: [added],
        update: [],
        remove: [held],
      });
      await expect(stale).rejects.toBeInstanceOf(AssignmentConflict);
      expect((await store.records.listForTemplate('contract-waba', template, 7)).map((r) => r.id)).toEqual([held.id]);
    });

    it('lets exactly one of two concurrent changes claim the same pair', async () => {
      const store = await makeStore();
      const template = unique();
      await store.records.register([record(template, 7, [1, 2])], []);
      const seen = await readFor(store, template);
      const outcomes = await Promise.allSettled([
        store.assignments.applyAssignments({ ...seen, create: [record(template, 7, [5, 6])], update: [], remove: [] }),
        store.assignments.applyAssignments({ ...seen, create: [record(template, 7, [5, 6])], update: [], remove: [] }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(await store.records.listForTemplate('contract-waba', template, 7)).toHaveLength(2);
    });

    it('writes two changes read at the same version only once, even when they touch different records', async () => {
      // Prepare: pairs A and B; each request removes one, and each alone would leave the other in place
      const store = await makeStore();
      const template = unique();
      const a = record(template, 7, [1, 2]);
      const b = record(template, 7, [3, 4]);
      await store.records.register([a, b], []);
      const seen = await readFor(store, template);
      // Act
      const outcomes = await Promise.allSettled([
        store.assignments.applyAssignments({ ...seen, create: [], update: [], remove: [a] }),
        store.assignments.applyAssignments({ ...seen, create: [], update: [], remove: [b] }),
      ]);
      // Assess: the loser wrote nothing, so the client still holds a record of the template
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      const after = await store.assignments.readAssignments('contract-waba', template, 7);
      expect(after.records).toHaveLength(1);
      expect(after.version).toBe(seen.of.version + 1);
    });

    it('reads back what it registered, consistently, with a version', async () => {
      const store = await makeStore();
      const template = unique();
      const held = record(template, 7, [1, 2]);
      await store.records.register([held], []);
      const read = await store.assignments.readAssignments('contract-waba', template, 7);
      expect(read.records.map((r) => r.id)).toEqual([held.id]);
      expect(read.version).toBeGreaterThan(0);
      await expect(store.records.register([record(template, 7, [9, 9])], [])).rejects.toBeInstanceOf(AssignmentConflict);
    });

    it('flips active only from the value read', async () => {
      const store = await makeStore();
      const held = record(unique(), 7, [1, 2]);
      await store.records.register([held], []);
      const now = new Date().toISOString();
      expect(await store.assignments.setActive([{ record: held, to: true }], now)).toEqual(['written']);
      expect(await store.assignments.setActive([{ record: held, to: true }], now)).toEqual(['changed_meanwhile']);
      expect(await store.assignments.setActive([{ record: { ...held, id: newRecordId() }, to: true }], now)).toEqual(['missing']);
    });

    it('refuses, whole, a change larger than one atomic write', async () => {
      const store = await makeStore();
      const template = unique();
      const many = Array.from({ length: 60 }, (_, i) => record(template, 7, [100 + i, 1]));
      await expect(
        store.assignments.applyAssignments({ ...(await readFor(store, template)), create: many, update: [], remove: [] }),
      ).rejects.toBeInstanceOf(ChangeTooLarge);
      expect(await store.records.listForTemplate('contract-waba', template, 7)).toEqual([]);
    });

    it('keeps each (client, template) listing entry exact through every kind of change', async () => {
      // Prepare: a client of its own, three templates; one with two pairs, one a placeholder
      const store = await makeStore();
      const client = Number(unique().slice(-9));
      const t = [unique(), unique(), unique()];
      const named = (id: string, name: string, extra: Partial<TemplateRecord> = {}) =>
        record(id, client, undefined, { meta_template: { ...record(id, client).meta_template, name }, ...extra });
      const a1 = { ...named(t[0], 'alpha'), ...withPair(1, 2, 'north') };
      const a2 = { ...named(t[0], 'alpha'), ...withPair(3, 4, 'south') };
      const a3 = { ...named(t[0], 'alpha'), ...withPair(5, 6, 'north') };
      const b = named(t[1], 'bravo');
      const c = named(t[2], 'charlie', { meta_template: { ...record(t[2], client).meta_template, name: 'charlie', status: 'PENDING' } });
      await store.records.register([a1, a2, a3], []);
      await store.records.register([b], []);
      await store.records.register([c], []);
      const page = (criteria: ListingCriteria) => store.listing.listingPage(client, criteria, { offset: 0, size: 20 });
      const names = async (criteria: ListingCriteria) => (await page(criteria)).entries.map((e) => e.facets.name);
      // Act + Assess: each filter, then each kind of change
      expect(await page({ deleted: false })).toMatchObject({ total: 3 });
      expect(await names({ deleted: false })).toEqual(['alpha', 'bravo', 'charlie']);
      expect((await page({ deleted: false })).entries[0].entry.channel_campaigns).toHaveLength(3);
      expect(await names({ deleted: false, states: ['PENDING'] })).toEqual(['charlie']);
      expect(await names({ deleted: false, campaignName: 'south' })).toEqual(['alpha']);
      expect(await names({ deleted: false, campaignName: 'Unassigned' })).toEqual(['bravo', 'charlie']);
      expect(await names({ deleted: false, name: 'bravo' })).toEqual(['bravo']);
      expect(await names({ deleted: false, templateId: t[2] })).toEqual(['charlie']);
      expect(await names({ deleted: false, search: 'ra', states: ['APPROVED'] })).toEqual(['bravo']);
      expect(await page({ deleted: false, active: true })).toMatchObject({ total: 0 });
      await store.assignments.setActive([{ record: a2, to: true }], new Date().toISOString());
      expect(await names({ deleted: false, active: true })).toEqual(['alpha']);
      expect(await names({ deleted: false, active: false })).toEqual(['bravo', 'charlie']);
      await store.records.replaceMetaTemplate([c], { ...c.meta_template, status: 'APPROVED' }, 'sync', new Date().toISOString());
      expect(await names({ deleted: false, states: ['APPROVED'] })).toEqual(['alpha', 'bravo', 'charlie']);
      await store.records.markDeleted([b], true, new Date().toISOString());
      expect(await page({ deleted: false })).toMatchObject({ total: 2 });
      expect(await page({ deleted: true })).toMatchObject({ total: 1 });
      expect(await names({ deleted: true, campaignName: 'Unassigned' })).toEqual(['bravo']);
      expect(await names({ deleted: false, campaignName: 'Unassigned' })).toEqual(['charlie']);
      const { records, version } = await store.assignments.readAssignments('contract-waba', t[0], client);
      await store.assignments.applyAssignments({
        of: { wabaId: 'contract-waba', templateId: t[0], clientId: client, version },
        current: records,
        create: [],
        update: [],
        remove: records.filter((r) => r.campaign?.campaign_name === 'south'),
      });
      expect(await names({ deleted: false, campaignName: 'south' })).toEqual([]);
      expect(await names({ deleted: false, active: true })).toEqual([]);
      // Either north record removed (whichever held the campaign), the other still lists the template under it
      for (const gone of [a1, a3].sort((x, y) => (x.id < y.id ? -1 : 1)).slice(0, 1)) {
        const held = await store.assignments.readAssignments('contract-waba', t[0], client);
        const current = held.records.find((r) => r.id === gone.id)!;
        await store.assignments.applyAssignments({
          of: { wabaId: 'contract-waba', templateId: t[0], clientId: client, version: held.version },
          current: held.records,
          create: [],
          update: [],
          remove: [current],
        });
      }
      expect(await names({ deleted: false, campaignName: 'north' })).toEqual(['alpha']);
      expect(await store.listing.listingPage(client, { deleted: false }, { offset: 1, size: 1 })).toMatchObject({ total: 2 });
      expect(
        (await store.listing.listingPage(client, { deleted: false }, { offset: 1, size: 1 })).entries.map((e) => e.facets.name),
      ).toEqual(['charlie']);
    });

    it('changes more records of one template than one transaction holds, and keeps their entry whole', async () => {
      // Prepare: one template with 120 records (three changes of 40 pairs)
      const store = await makeStore();
      const client = Number(unique().slice(-9));
      const template = unique();
      const first = record(template, client, [1, 1]);
      await store.records.register([first], []);
      for (let part = 0; part < 3; part++) {
        const created = Array.from({ length: part === 0 ? 39 : 40 }, (_, i) => record(template, client, [1000 + part * 100 + i, 1]));
        const { records, version } = await store.assignments.readAssignments('contract-waba', template, client);
        await store.assignments.applyAssignments({
          of: { wabaId: 'contract-waba', templateId: template, clientId: client, version },
          current: records,
          create: created,
          update: [],
          remove: [],
        });
      }
      const { records } = await store.assignments.readAssignments('contract-waba', template, client);
      expect(records).toHaveLength(120);
      // Act
      await store.records.replaceMetaTemplate(records, { ...first.meta_template, status: 'PAUSED' }, 'sync', new Date().toISOString());
      await store.records.markDeleted(records, true, new Date().toISOString());
      // Assess
      const after = await store.assignments.readAssignments('contract-waba', template, client);
      expect(after.records.every((r) => r.deleted === true && r.meta_template.status === 'PAUSED')).toBe(true);
      const deleted = await store.listing.listingPage(client, { deleted: true }, { offset: 0, size: 20 });
      expect(deleted.total).toBe(1);
      expect(deleted.entries[0].facets.status).toBe('PAUSED');
      expect((await store.listing.listingPage(client, { deleted: false }, { offset: 0, size: 20 })).total).toBe(0);
    });

    it('revises every record of a (client, template) larger than one transaction, deciding once, with one event', async () => {
      // Prepare: one template with 100 records of one client
      const store = await makeStore();
      const client = Number(unique().slice(-9));
      const template = unique();
      const first = record(template, client, [1, 1]);
      await store.records.register([first], []);
      for (let part = 0; part < 3; part++) {
        const created = Array.from({ length: 33 }, (_, i) => record(template, client, [2000 + part * 100 + i, 1]));
        const { records, version } = await store.assignments.readAssignments('contract-waba', template, client);
        await store.assignments.applyAssignments({
          of: { wabaId: 'contract-waba', templateId: template, clientId: client, version },
          current: records,
          create: created,
          update: [],
          remove: [],
        });
      }
      let decisions = 0;
      const event = {
        id: unique(),
        type: 'template.status_changed' as const,
        occurred_at: new Date().toISOString(),
        client_id: client,
        data: first,
      };
      // Act: a revision that applies only while no record is PAUSED yet (as a notification's does)
      const result = await store.records.reviseTemplate(
        { wabaId: 'contract-waba', templateId: template, clientId: client },
        (held) => {
          if (held.some((r) => r.meta_template.status === 'PAUSED')) return null;
          decisions++;
          return { meta: { ...held[0].meta_template, status: 'PAUSED' }, notified_at: { template_status: 1 }, events: [event] };
        },
        new Date().toISOString(),
        'webhook',
      );
      // Assess
      const after = await store.assignments.readAssignments('contract-waba', template, client);
      expect(after.records).toHaveLength(100);
      expect(after.records.every((r) => r.meta_template.status === 'PAUSED' && r.notified_at?.template_status === 1)).toBe(true);
      expect(result).toEqual({ revised: true, events: [event] });
      expect(decisions).toBe(1);
    });

    it('keeps the header type with the components when they are replaced', async () => {
      const store = await makeStore();
      const held = record(unique(), 7, [1, 2], { headerType: 'NONE' });
      await store.records.register([held], []);
      const meta = { ...held.meta_template, components: [{ type: 'HEADER', format: 'IMAGE' }] };
      await store.records.replaceMetaTemplate([held], meta, 'edit', new Date().toISOString());
      expect(await store.records.get(held.id)).toMatchObject({ headerType: 'IMAGE', syncMeta: { source: 'edit' } });
    });
  });
}

export function syncLeaseStoreContract(name: string, makeStore: () => SyncLeaseStore | Promise<SyncLeaseStore>) {
  describe(`${name}: the sync lease contract`, () => {
    it('is taken once until it expires, and only its holder releases it', async () => {
      const leases = await makeStore();
      const client = Number(String(Date.now()).slice(-8)) + Math.floor(Math.random() * 1000);
      const now = Date.now();
      expect(await leases.acquire(client, 'a', now, 60_000)).toBe(true);
      expect(await leases.acquire(client, 'b', now + 1_000, 60_000)).toBe(false);
      await leases.release(client, 'b');
      expect(await leases.holds(client, 'a', now + 2_000)).toBe(true);
      expect(await leases.acquire(client, 'b', now + 120_000, 60_000)).toBe(true);
      expect(await leases.holds(client, 'a', now + 120_000)).toBe(false);
      await leases.release(client, 'b');
      expect(await leases.acquire(client, 'c', now + 121_000, 60_000)).toBe(true);
    });

    it('keeps the last run’s result when its holder releases it', async () => {
      const leases = await makeStore();
      const client = Number(String(Date.now()).slice(-8)) + Math.floor(Math.random() * 1000) + 2000;
      const run = { started_at: 'a', finished_at: 'b', result: 'failed' as const, templates_seen: 3, changes: 1, error: 'WABA 1: down' };
      expect(await leases.acquire(client, 'a', Date.now(), 60_000)).toBe(true);
      await leases.release(client, 'a', run);
      expect(await leases.state(client, Date.now())).toEqual({ lastRun: run });
      expect(await leases.acquire(client, 'b', Date.now(), 60_000)).toBe(true);
    });

    it('shows the running lease with its holder’s progress only; an expired lease is not running', async () => {
      const leases = await makeStore();
      const client = Number(String(Date.now()).slice(-8)) + Math.floor(Math.random() * 1000) + 4000;
      const now = Date.now();
      const progress = { wabas_done: 1, wabas_total: 3, pages: 2, templates_seen: 40, changes: 5 };
      expect(await leases.acquire(client, 'a', now, 60_000)).toBe(true);
      await leases.report(client, 'a', progress);
      await leases.report(client, 'someone-else', { ...progress, pages: 99 });
      expect(await leases.state(client, now + 1_000)).toEqual({
        lastRun: null,
        running: { started_at: new Date(now).toISOString(), progress },
      });
      expect(await leases.state(client, now + 120_000)).toEqual({ lastRun: null });
    });
  });
}

/** The delivery log (decisions §15): conditional on the delivery as read, listed newest first with exact totals. */
export function deliveryLogContract(name: string, makeLog: () => DeliveryLog | Promise<DeliveryLog>) {
  describe(`${name}: the webhook delivery log contract`, () => {
    const client = () => 600_000 + Math.floor(Math.random() * 100_000);
    const eventOf = (id: string, clientId: number) =>
      ({ id, type: 'template.created', occurred_at: new Date().toISOString(), client_id: clientId, data: {} }) as unknown as ServiceEvent;
    const deliveryOf = (id: string, clientId: number, createdAt: string): WebhookDelivery => ({
      id,
      client_id: clientId,
      event_id: id,
      type: 'template.created',
      status: 'pending',
      attempts: 0,
      created_at: createdAt,
    });

    it('writes a delivery once, then only from the state it was read in', async () => {
      // Prepare
      const log = await makeLog();
      const clientId = client();
      const id = crypto.randomUUID();
      const first = deliveryOf(id, clientId, new Date().toISOString());
      // Act
      await log.save(first, eventOf(id, clientId), null);
      const again = await log.save(first, eventOf(id, clientId), null).catch((e: unknown) => e);
      const tried = { ...first, attempts: 1, status: 'delivered' as const, last_status_code: 204 };
      await log.save(tried, eventOf(id, clientId), first);
      const stale = await log.save({ ...first, attempts: 1 }, eventOf(id, clientId), first).catch((e: unknown) => e);
      // Assess
      expect(again).toBeInstanceOf(DeliveryChanged);
      expect(stale).toBeInstanceOf(DeliveryChanged);
      expect(await log.get(id)).toEqual({ delivery: tried, event: expect.objectContaining({ id }) });
    });

    it('lists a client’s deliveries newest first, by status, with totals that follow every status change', async () => {
      // Prepare: five deliveries a second apart; two delivered, one failed
      const log = await makeLog();
      const clientId = client();
      const base = Date.now() - 10_000;
      const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
      for (const [i, id] of ids.entries())
        await log.save(deliveryOf(id, clientId, new Date(base + i * 1000).toISOString()), eventOf(id, clientId), null);
      for (const i of [1, 3]) {
        const held = (await log.get(ids[i]))!.delivery;
        await log.save({ ...held, status: 'delivered', attempts: 1 }, eventOf(ids[i], clientId), held);
      }
      const held = (await log.get(ids[4]))!.delivery;
      await log.save({ ...held, status: 'failed', attempts: 20 }, eventOf(ids[4], clientId), held);
      // Act
      const page = await log.list(clientId, undefined, { offset: 1, size: 2 });
      const delivered = await log.list(clientId, 'delivered', { offset: 0, size: 10 });
      const pending = await log.list(clientId, 'pending', { offset: 0, size: 10 });
      const otherClient = await log.list(clientId + 1, undefined, { offset: 0, size: 10 });
      // Assess
      expect(page.total).toBe(5);
      expect(page.deliveries.map((d) => d.id)).toEqual([ids[3], ids[2]]);
      expect(delivered).toMatchObject({ total: 2, deliveries: [{ id: ids[3] }, { id: ids[1] }] });
      expect(pending.total).toBe(2);
      expect(otherClient).toEqual({ deliveries: [], total: 0 });
    });
  });
}

/**
 * The sends (decisions §12, §19): a block is claimed once and settled once, a lost block's recipients count
 * `outcome_unknown`, and status reports count each fact once, also when two batches carry the same report.
 */
/** The sends' ports, each its own adapter on one store, named as the use cases' deps name them. */
export interface SendParts {
  sends: SendRecords;
  blocks: BlockLedger;
  recipientLists: RecipientLists;
  heldJobs: HeldJobs;
  messageStatuses: MessageStatuses;
}

export function sendStoreContract(name: string, makeStore: () => SendParts | Promise<SendParts>) {
  describe(`${name}: the send store contract`, () => {
    const begun = async (store: SendParts, total: number, repeats = 0) => {
      const send: SendRecord = {
        send_id: `contract-${unique()}`,
        client_id: 7,
        did: '1',
        template: { name: 't', language: 'en_US' },
        status: 'queuing',
        created_at: new Date().toISOString(),
        total,
        jobs: 1,
        counts: { ...NO_COUNTS, duplicates_removed: repeats },
      };
      await store.sends.begin(send);
      await store.sends.settle(send, 'queued');
      return send.send_id;
    };
    const lease = (holder: string, untilMs = Date.now() + 60_000): ClaimLease => ({ holder, untilMs });
    const sent = (id: string): PositionOutcome => ({ kind: 'sent', message_id: id });
    const report = (block: number, index: number, messageId: string, status: StatusReport): StatusUpdate => ({
      block,
      index,
      messageId,
      change: (state) => statusChange(state, status),
    });

    it('claims a block once: busy for another holder while its lease lasts, done once settled', async () => {
      // Prepare
      const store = await makeStore();
      const sendId = await begun(store, 3, 1);
      const block = { first: 0, size: 3, sendable: 2 };
      // Act
      const first = await store.blocks.claimBlock(sendId, block, lease('a'), Date.now());
      const other = await store.blocks.claimBlock(sendId, block, lease('b'), Date.now());
      await store.blocks.settleBlock(
        sendId,
        block,
        [sent('m0'), { kind: 'duplicate', of: 0 }, { kind: 'failed', code: '131026', title: 'x' }],
        lease('a', 0),
      );
      const wrongLease = (await store.sends.get(sendId))?.counts;
      const own = lease('a');
      const again = await store.blocks.claimBlock(sendId, { first: 3, size: 1, sendable: 1 }, own, Date.now());
      await store.blocks.settleBlock(sendId, { first: 3, size: 1, sendable: 1 }, [sent('m3')], own);
      const afterSettle = await store.blocks.claimBlock(sendId, { first: 3, size: 1, sendable: 1 }, lease('c'), Date.now());
      // Assess: a settlement under another lease than the claim's changes nothing; the repeat counted at acceptance
      expect([first, other, again, afterSettle]).toEqual([{ claimed: new Map() }, 'busy', { claimed: new Map() }, 'done']);
      expect(wrongLease).toMatchObject({ sent: 0, failed: 0, duplicates_removed: 1 });
      expect((await store.sends.get(sendId))?.counts).toMatchObject({ sent: 1, failed: 0, duplicates_removed: 1 });
    });

    it('hands a block back only under its own lease, with its answers: the next holder claims it with them', async () => {
      // Prepare
      const store = await makeStore();
      const sendId = await begun(store, 3);
      const block = { first: 0, size: 3, sendable: 3 };
      const own = lease('a');
      await store.blocks.claimBlock(sendId, block, own, Date.now());
      // Act: another lease hands nothing back; its own does, with the first answer
      await store.blocks.handBack(sendId, block, lease('b'), new Map([[0, sent('m9')]]));
      const whileHeld = await store.blocks.claimBlock(sendId, block, lease('c'), Date.now());
      await store.blocks.handBack(sendId, block, own, new Map([[0, sent('m0')]]));
      const afterHandBack = await store.blocks.claimBlock(sendId, block, lease('c'), Date.now());
      const again = await store.blocks.claimBlock(sendId, block, lease('d'), Date.now());
      // Assess: nothing counted until the block is settled
      expect(whileHeld).toBe('busy');
      expect(afterHandBack).toEqual({ claimed: new Map([[0, sent('m0')]]) });
      expect(again).toBe('busy');
      expect((await store.sends.get(sendId))?.counts).toMatchObject({ sent: 0, failed: 0 });
    });

    it('takes over a dead holder’s block with only its launches since its last record unknown, and refuses the dead holder’s late records', async () => {
      // Prepare: holder "dead" answered offset 0, recorded it and may launch up to offset 2, then died
      const store = await makeStore();
      const sendId = await begun(store, 4);
      const block = { first: 0, size: 4, sendable: 4 };
      const dead = lease('dead', Date.now() + 1_000);
      await store.blocks.claimBlock(sendId, block, dead, Date.now());
      expect(await store.blocks.recordProgress(sendId, block, dead, { outcomes: new Map([[0, sent('m0')]]), launchedTo: 2 })).toBe(true);
      // Act: another invocation meets it after the dead holder's lease ran out
      const taken = await store.blocks.claimBlock(sendId, block, lease('b'), Date.now() + 2_000);
      const late = await store.blocks.recordProgress(sendId, block, dead, { outcomes: new Map([[1, sent('m1')]]), launchedTo: 4 });
      // Assess: offset 1 may have gone (unknown), offsets 2 and 3 were never launched; the dead holder is refused
      expect(taken).toEqual({
        claimed: new Map([
          [0, sent('m0')],
          [1, LOST_OUTCOME],
        ]),
      });
      expect(late).toBe(false);
    });

    it('lets one of two invocations take over a dead holder’s block: what it may have launched settles outcome_unknown, once', async () => {
      // Prepare: holder "dead" claimed a block of 3 (one a repeat), recorded that it may launch all of it, and died
      const store = await makeStore();
      const sendId = await begun(store, 3, 1);
      const block = { first: 0, size: 3, sendable: 2 };
      const dead = lease('dead', Date.now() - 1);
      await store.blocks.claimBlock(sendId, block, dead, Date.now() - 10_000);
      await store.blocks.recordProgress(sendId, block, dead, { outcomes: new Map([[1, { kind: 'duplicate', of: 0 }]]), launchedTo: 3 });
      // Act
      const found = await Promise.all(
        [lease('b'), lease('c')].map(async (l) => ({ l, claim: await store.blocks.claimBlock(sendId, block, l, Date.now()) })),
      );
      const winner = found.find((f) => typeof f.claim !== 'string')!;
      const recorded = (winner.claim as { claimed: ReadonlyMap<number, PositionOutcome> }).claimed;
      await store.blocks.settleBlock(
        sendId,
        block,
        [0, 1, 2].map((offset) => recorded.get(offset)!),
        winner.l,
      );
      await store.blocks.settleBlock(sendId, block, [sent('m0'), { kind: 'duplicate', of: 0 }, sent('m2')], dead);
      // Assess: exactly one took it over; the dead holder's late settlement changes nothing
      expect(found.map((f) => (typeof f.claim === 'string' ? f.claim : 'claimed')).sort()).toEqual(['busy', 'claimed']);
      const send = await store.sends.get(sendId);
      expect(send?.counts).toMatchObject({ sent: 0, failed: 2 });
      expect(send?.errors).toEqual([{ code: 'outcome_unknown', title: expect.any(String), count: 2 }]);
    });

    it('counts each status fact once, in one batch or in two at once, and none of an unsettled or unknown message', async () => {
      // Prepare: block 0 settled with two messages; block 2 claimed, not settled
      const store = await makeStore();
      const sendId = await begun(store, 3);
      const own = lease('a');
      await store.blocks.claimBlock(sendId, { first: 0, size: 2, sendable: 2 }, own, Date.now());
      await store.blocks.settleBlock(sendId, { first: 0, size: 2, sendable: 2 }, [sent('m0'), sent('m1')], own);
      await store.blocks.claimBlock(sendId, { first: 2, size: 1, sendable: 1 }, own, Date.now());
      // Act
      const batch = await store.messageStatuses.applyStatuses(sendId, [
        report(0, 0, 'm0', 'delivered'),
        report(0, 0, 'm0', 'read'),
        report(0, 0, 'm0', 'read'),
        report(0, 1, 'other', 'delivered'),
        report(2, 2, 'm2', 'delivered'),
      ]);
      const twice = await Promise.all([
        store.messageStatuses.applyStatuses(sendId, [report(0, 1, 'm1', 'read')]),
        store.messageStatuses.applyStatuses(sendId, [report(0, 1, 'm1', 'read')]),
      ]);
      // Assess
      expect(batch).toEqual(['applied', 'applied', 'unchanged', 'unknown', 'unsettled']);
      expect(twice.flat().sort()).toEqual(['applied', 'unchanged']);
      expect((await store.sends.get(sendId))?.counts).toMatchObject({ sent: 2, delivered: 2, read: 2, failed: 0 });
    });

    it('applies the statuses of a block handed back open from its recorded answers, once, whatever settles it after (decisions §30)', async () => {
      // Prepare: a block of two handed back with its first message's answer recorded
      const store = await makeStore();
      const sendId = await begun(store, 2);
      const block = { first: 0, size: 2, sendable: 2 };
      const first = lease('a');
      await store.blocks.claimBlock(sendId, block, first, Date.now());
      await store.blocks.handBack(sendId, block, first, new Map([[0, sent('m0')]]));
      // Act
      const open = await store.messageStatuses.applyStatuses(sendId, [report(0, 0, 'm0', 'delivered'), report(0, 1, 'm1', 'delivered')]);
      const later = lease('b');
      await store.blocks.claimBlock(sendId, block, later, Date.now());
      await store.blocks.settleBlock(sendId, block, [sent('m0'), sent('m1')], later);
      const settled = await store.messageStatuses.applyStatuses(sendId, [report(0, 0, 'm0', 'delivered'), report(0, 1, 'm1', 'delivered')]);
      // Assess
      expect([...open, ...settled]).toEqual(['applied', 'unsettled', 'unchanged', 'applied']);
      expect((await store.sends.get(sendId))?.counts).toMatchObject({ sent: 2, delivered: 2, failed: 0 });
    });

    it('keeps each recipient with its outcome and latest delivery state, and a whole job’s outcome for its blocks', async () => {
      // Prepare: job 1 is positions 0–2 (a repeat at 1), job 2 is position 3; job 1 sent, job 2 cancelled whole
      const store = await makeStore();
      const sendId = await begun(store, 4, 1);
      const at = new Date().toISOString();
      await store.recipientLists.recordRecipients(
        sendId,
        [
          { ref: { first: 0, size: 3, job: 1 }, to: ['+1 555', '1555', '1556'], repeats: [undefined, 0, undefined] },
          { ref: { first: 3, size: 1, job: 2 }, to: ['1557'], repeats: [undefined] },
        ],
        at,
      );
      const pending = await store.recipientLists.recipients(sendId, [{ first: 0, size: 3, job: 1 }]);
      const own = lease('a');
      await store.blocks.claimBlock(sendId, { first: 0, size: 3, sendable: 2 }, own, Date.now());
      await store.blocks.settleBlock(
        sendId,
        { first: 0, size: 3, sendable: 2 },
        [sent('m0'), { kind: 'duplicate', of: 0 }, { kind: 'failed', code: '131050', title: 'Stopped marketing' }],
        own,
      );
      await store.blocks.settleJob(sendId, 2, 1, { kind: 'cancelled' });
      // Act
      await store.messageStatuses.applyStatuses(sendId, [report(0, 0, 'm0', 'read')]);
      const stored = await store.recipientLists.recipients(sendId, [
        { first: 0, size: 3, job: 1 },
        { first: 3, size: 1, job: 2 },
      ]);
      // Assess
      expect(pending.map((r) => r.outcome?.kind)).toEqual([undefined, 'duplicate', undefined]);
      expect(pending[0]).toEqual({ index: 0, to: '+1 555', updated_at: at });
      expect(stored.map((r) => [r.index, r.to, r.outcome])).toEqual([
        [0, '+1 555', { kind: 'sent', message_id: 'm0' }],
        [1, '1555', { kind: 'duplicate', of: 0 }],
        [2, '1556', { kind: 'failed', code: '131050', title: 'Stopped marketing' }],
        [3, '1557', { kind: 'cancelled' }],
      ]);
      expect(stored[0].delivery).toEqual({ delivered: true, read: true });
      expect(stored[2].updated_at >= at).toBe(true);
      expect((await store.sends.get(sendId))?.counts).toMatchObject({ sent: 1, failed: 1, cancelled: 1, read: 1 });
    });

    it('cancels a send once: the first time stays', async () => {
      // Prepare
      const store = await makeStore();
      const sendId = await begun(store, 1);
      // Act
      const before = await store.sends.isCancelled(sendId);
      await store.sends.cancel(sendId, '2026-11-25T10:00:00.000Z');
      await store.sends.cancel(sendId, '2026-11-25T11:00:00.000Z');
      // Assess
      expect(before).toBe(false);
      expect(await store.sends.isCancelled(sendId)).toBe(true);
      expect((await store.sends.get(sendId))?.cancelled_at).toBe('2026-11-25T10:00:00.000Z');
    });

    it('settles a job whole once, never after it was begun', async () => {
      // Prepare
      const store = await makeStore();
      const sendId = await begun(store, 5);
      // Act
      const whole = await store.blocks.settleJob(sendId, 1, 4, { kind: 'expired' });
      const again = await store.blocks.settleJob(sendId, 1, 4, { kind: 'expired' });
      await store.blocks.beginJob(sendId, 2);
      const begunJob = await store.blocks.settleJob(sendId, 2, 1, { kind: 'expired' });
      // Assess
      expect([whole, again, begunJob]).toEqual([true, false, false]);
      expect(await store.blocks.beginJob(sendId, 1)).toBe('settled');
      expect((await store.sends.get(sendId))?.counts).toMatchObject({ expired: 4 });
    });
  });
}

/**
 * A number's pacing (decisions §12, §23): reservations never overlap, whoever books them at once; a reservation
 * near books nothing when the number is booked further ahead than its horizon, and says when it is free; with a
 * rank (issue 44), it gives way to a better rank that holds the number or waits for it.
 */
export function pacerContract(name: string, makePacer: () => Pacer | Promise<Pacer>) {
  describe(`${name}: the pacer contract`, () => {
    it('books consecutive slots for concurrent reservations, none overlapping, none before now', async () => {
      // Prepare
      const pacer = await makePacer();
      const number = `pacer-${unique()}`;
      const now = Date.now();
      // Act
      const firsts = await Promise.all([0, 1, 2, 3, 4].map(() => pacer.reserve(number, 10, 5, now)));
      // Assess: five runs of 10 slots 5 ms apart, end to end from now
      expect([...firsts].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4].map((i) => now + i * 50));
    });

    it('books near only within its horizon, and otherwise tells when the number is free', async () => {
      // Prepare: the number booked 3 s ahead
      const pacer = await makePacer();
      const number = `pacer-${unique()}`;
      const now = Date.now();
      await pacer.reserve(number, 300, 10, now);
      // Act
      const far = await pacer.reserveNear(number, 20, 10, now, 1_000);
      const near = await pacer.reserveNear(number, 20, 10, now + 2_500, 1_000);
      // Assess: the first booked nothing, so the second's slots start where the first booking ended
      expect(far).toEqual({ freeAt: now + 3_000 });
      expect(near).toEqual({ first: now + 3_000 });
      expect(await pacer.reserve(number, 1, 10, now)).toBe(now + 3_200);
    });

    it('gives way to a better rank that holds the number or waits for it, and lets a better rank by (issue 44)', async () => {
      // Prepare: a UTILITY chunk (rank 1) booked, holding the number 1 s past its slots
      const pacer = await makePacer();
      const number = `pacer-${unique()}`;
      const now = Date.now();
      const utility = { rank: 1, holdMs: 1_000 };
      const campaign = { rank: 2, holdMs: 0 };
      const booked = await pacer.reserveNear(number, 10, 10, now, 250, utility);
      // Act: a campaign's chunk, an AUTHENTICATION chunk, then the campaign once the hold is over
      const behind = await pacer.reserveNear(number, 10, 10, now, 1_000, campaign);
      const better = await pacer.reserveNear(number, 10, 10, now, 250, { rank: 0, holdMs: 1_000 });
      const after = await pacer.reserveNear(number, 10, 10, now + 1_300, 1_000, campaign);
      // Assess
      expect(booked).toEqual({ first: now });
      expect(behind).toEqual({ freeAt: now + 100, heldUntil: now + 1_100 });
      expect(better).toEqual({ first: now + 100 });
      expect(after).toEqual({ first: now + 1_300 });
    });

    it('keeps a better rank’s want: refused for its horizon, it holds the number from when it asks again', async () => {
      // Prepare: the number booked 3 s ahead
      const pacer = await makePacer();
      const number = `pacer-${unique()}`;
      const now = Date.now();
      await pacer.reserve(number, 300, 10, now);
      // Act: a UTILITY chunk refused (its turn is at 2.75 s), then a campaign's ask within its own horizon
      const waiting = await pacer.reserveNear(number, 10, 10, now, 250, { rank: 1, holdMs: 1_000 });
      const behind = await pacer.reserveNear(number, 10, 10, now + 2_500, 1_000, { rank: 2, holdMs: 0 });
      // Assess: the campaign gives way until the UTILITY send's turn and its hold are over
      expect(waiting).toEqual({ freeAt: now + 3_000 });
      expect(behind).toEqual({ freeAt: now + 3_000, heldUntil: now + 3_750 });
    });
  });
}
