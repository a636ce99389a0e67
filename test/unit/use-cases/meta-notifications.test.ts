import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changesOfNotification, notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { isSignedByMeta, metaSignature, subscriptionChallenge } from '#lib/adapters/meta/webhook-signature.ts';
import {
  type StatusReport,
  type MessageState,
  statusChange,
  messageReference,
  parseMessageReference,
} from '#lib/domain/shared/message-status.ts';
import { applyNotification } from '#lib/domain/inbound/meta-notifications.ts';
import type { MetaNotification } from '#lib/domain/inbound/notifications.ts';
import { memoryWorld } from '../../support/memory/world.ts';

const WABA = '100200300';
const status = (template_id: string, event: string, at: number, reason: string | null = 'NONE'): MetaNotification => ({
  kind: 'template_status',
  waba_id: WABA,
  template_id,
  at,
  event,
  reason,
});

describe('template notifications (use case, in memory)', () => {
  it('puts the status and reason on every record of every client sharing the WABA, with one event per client', async () => {
    // Prepare: template 9001 has records of clients 7 and 8 in the demo directory
    const world = memoryWorld();
    const clients = [...new Set((await world.records.listForTemplate(WABA, '9001')).map((r) => r.client_id))];
    // Act
    const outcome = await applyNotification(world, status('9001', 'REJECTED', 1000, 'INVALID_FORMAT'));
    // Assess
    expect(outcome).toBe('applied');
    const records = await world.records.listForTemplate(WABA, '9001');
    expect(records.every((r) => r.meta_template.status === 'REJECTED' && r.meta_template.rejected_reason === 'INVALID_FORMAT')).toBe(true);
    const events = world.publisher.published.filter((e) => e.type === 'template.status_changed');
    expect(events.map((e) => e.client_id).sort()).toEqual(clients.sort());
  });

  it('changes nothing twice for a repeat, and nothing for an older notification or a non-status event', async () => {
    const world = memoryWorld();
    await applyNotification(world, status('9001', 'PAUSED', 2000));
    const before = JSON.stringify(await world.records.listForTemplate(WABA, '9001'));
    await applyNotification(world, status('9001', 'PAUSED', 2000));
    await applyNotification(world, status('9001', 'APPROVED', 1000));
    await applyNotification(world, status('9001', 'FLAGGED', 3000));
    expect(JSON.stringify(await world.records.listForTemplate(WABA, '9001'))).toBe(before);
    expect(world.publisher.published.filter((e) => e.type === 'template.status_changed').length).toBe(
      new Set((await world.records.listForTemplate(WABA, '9001')).map((r) => r.client_id)).size,
    );
  });

  it('maps REINSTATED to APPROVED, takes category and quality changes without an event, and ignores unknown templates', async () => {
    const world = memoryWorld();
    await applyNotification(world, status('9001', 'DISABLED', 1000));
    await applyNotification(world, status('9001', 'REINSTATED', 2000));
    await applyNotification(world, {
      kind: 'template_category',
      waba_id: WABA,
      template_id: '9001',
      at: 3000,
      new_category: 'MARKETING',
      previous_category: 'UTILITY',
    });
    await applyNotification(world, { kind: 'template_quality', waba_id: WABA, template_id: '9001', at: 3000, new_quality: 'YELLOW' });
    const unknown = await applyNotification(world, status('123', 'REJECTED', 4000));
    const [record] = await world.records.listForTemplate(WABA, '9001');
    expect(record.meta_template).toMatchObject({
      status: 'APPROVED',
      category: 'MARKETING',
      previous_category: 'UTILITY',
      quality_score: { score: 'YELLOW', date: 3 },
    });
    expect(unknown).toBe('ignored');
  });
});

describe('message statuses (pure rules)', () => {
  const report = fc.constantFrom<StatusReport>('sent', 'delivered', 'read', 'failed');

  it('counts each fact once, whatever the order and repeats: sent + failed stays one, delivered ≥ read, failed only without delivery', () => {
    fc.assert(
      fc.property(fc.array(report, { maxLength: 12 }), (reports) => {
        // Prepare: one accepted message (sent 1)
        let state: MessageState = {};
        const counts = { sent: 1, failed: 0, delivered: 0, read: 0 };
        // Act
        for (const r of reports) {
          const change = statusChange(state, r, { code: '131047', title: 'x' });
          if (!change) continue;
          state = change.next;
          for (const [k, n] of Object.entries(change.counts)) counts[k as keyof typeof counts] += n;
        }
        // Assess
        expect(counts.sent + counts.failed).toBe(1);
        expect(counts.delivered).toBe(reports.some((r) => r === 'delivered' || r === 'read') ? 1 : 0);
        expect(counts.read).toBe(reports.includes('read') ? 1 : 0);
        expect(counts.failed).toBe(state.failed ? 1 : 0);
        if (counts.delivered) expect(counts.failed).toBe(0);
      }),
    );
  });

  it('round-trips the reference a message carries, and refuses anything else', () => {
    expect(parseMessageReference(messageReference('abc-123', 90, 97))).toEqual({ sendId: 'abc-123', block: 90, index: 97 });
    for (const other of [undefined, 42, '', 'tms2:a', 'other:abc:1:2', 'tms2:a:b:c', 'tms1:a:5215550001', 'tms2:a:1:2:3'])
      expect(parseMessageReference(other)).toBeUndefined();
  });
});

describe('message status notifications (use case, in memory)', () => {
  it('asks to come back while the block is only claimed, then counts the status once on the send', async () => {
    // Prepare: a send whose one block is claimed by the dispatcher
    const { sends, blocks, ...world } = memoryWorld();
    const deps = { ...world, sends, blocks };
    await sends.begin({
      send_id: 's1',
      client_id: 7,
      did: 'd',
      template: { name: 't', language: 'en_US' },
      status: 'queuing',
      created_at: 'now',
      total: 1,
      jobs: 1,
    });
    const block = { first: 0, size: 1, sendable: 1 };
    const lease = { holder: 'h', untilMs: Date.now() + 60_000 };
    await blocks.claimBlock('s1', block, lease, Date.now());
    const delivered: MetaNotification = {
      kind: 'message_status',
      message_id: 'wamid.1',
      status: 'delivered',
      reference: messageReference('s1', 0, 0),
      at: 1,
    };
    // Act
    const early = await applyNotification(deps, delivered);
    await blocks.settleBlock('s1', block, [{ kind: 'sent', message_id: 'wamid.1' }], lease);
    const onTime = await applyNotification(deps, delivered);
    const repeat = await applyNotification(deps, delivered);
    const foreign = await applyNotification(deps, { ...delivered, message_id: 'wamid.other' });
    const unreferenced = await applyNotification(deps, { ...delivered, reference: undefined });
    // Assess
    expect([early, onTime, repeat, foreign, unreferenced]).toEqual(['later', 'applied', 'unchanged', 'ignored', 'ignored']);
    expect((await sends.get('s1'))?.counts).toMatchObject({ sent: 1, delivered: 1, read: 0 });
  });
});

describe('number quality notifications (use case, in memory)', () => {
  it('forgets the number’s throughput level, so its next use asks the upstream again (decisions §19)', async () => {
    // Prepare: a level learned for the number
    const world = memoryWorld();
    await world.levels.put('5215550001', { level: 'STANDARD', checkedAtMs: Date.now() });
    const upgraded: MetaNotification = {
      kind: 'number_quality',
      waba_id: '100200300',
      number_digits: '5215550001',
      event: 'UPGRADE',
      at: 1,
    };
    // Act
    const outcome = await applyNotification(world, upgraded);
    // Assess
    expect(outcome).toBe('applied');
    expect(await world.levels.get('5215550001')).toBeUndefined();
  });
});

describe('Meta’s payloads and signatures (adapter)', () => {
  it('verifies the signature over the exact bytes, in any hex case, and nothing else', () => {
    const raw = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
    const good = metaSignature(raw, 'secret');
    expect(isSignedByMeta(raw, good, 'secret')).toBe(true);
    expect(isSignedByMeta(raw, good.toUpperCase().replace('SHA256', 'sha256'), 'secret')).toBe(true);
    expect(isSignedByMeta(Buffer.concat([raw, Buffer.from(' ')]), good, 'secret')).toBe(false);
    expect(isSignedByMeta(raw, good, 'other')).toBe(false);
    for (const bad of [undefined, '', 'sha1=abc', `sha256=${'0'.repeat(63)}`, `${good}0`])
      expect(isSignedByMeta(raw, bad, 'secret')).toBe(false);
  });

  it('answers the challenge only to subscribe with the token', () => {
    expect(subscriptionChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': 't', 'hub.challenge': 'c' }, 't')).toBe('c');
    expect(subscriptionChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': 'T', 'hub.challenge': 'c' }, 't')).toBeUndefined();
    expect(subscriptionChallenge({ 'hub.verify_token': 't', 'hub.challenge': 'c' }, 't')).toBeUndefined();
  });

  it('queues handled changes only, splits many statuses, and reads each change into notifications', () => {
    const statuses = Array.from({ length: 250 }, (_, i) => ({ id: `wamid.${i}`, status: 'delivered', timestamp: '1700000000' }));
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA,
          time: 1700000000,
          changes: [
            { field: 'messages', value: { messaging_product: 'whatsapp', statuses } },
            { field: 'messages', value: { messaging_product: 'whatsapp', messages: [{ id: 'in' }] } },
            { field: 'business_capability_update', value: {} },
            { field: 'phone_number_quality_update', value: { display_phone_number: '+52 1 555 0001', event: 'UPGRADE' } },
            { field: 'message_template_status_update', value: { event: 'approved', message_template_id: 9001, reason: 'NONE' } },
          ],
        },
      ],
    });
    const { changes, ignored } = changesOfNotification(raw);
    expect(changes.map((c) => c.field)).toEqual([
      'messages',
      'messages',
      'messages',
      'messages',
      'phone_number_quality_update',
      'message_template_status_update',
    ]);
    expect(ignored).toEqual(['business_capability_update']);
    expect(changes.slice(0, 3).flatMap(notificationsOf)).toHaveLength(250);
    // People's own messages are queued apart; one that is not a text with its number's metadata yields nothing.
    expect(notificationsOf(changes[3])).toEqual([]);
    changes.splice(3, 1);
    // A number's quality or throughput change names the number by its display digits (decisions §19).
    expect(notificationsOf(changes[3])).toEqual([
      { kind: 'number_quality', waba_id: WABA, at: 1700000000000, number_digits: '5215550001', event: 'UPGRADE' },
    ]);
    expect(notificationsOf(changes[4])).toEqual([
      { kind: 'template_status', waba_id: WABA, at: 1700000000000, template_id: '9001', event: 'APPROVED', reason: 'NONE' },
    ]);
    expect(notificationsOf({ waba_id: WABA, at: 1, field: 'message_template_status_update', value: { event: 1 } })).toEqual([]);
    // Meta's volume tier of a pricing category (decisions §24): read, and logged by the worker.
    const tier = { pricing_category: 'UTILITY', tier: '2:2500001-5000000', effective_month: '2026-12', region: 'Other' };
    expect(
      notificationsOf({
        waba_id: WABA,
        at: 1,
        field: 'account_update',
        value: { event: 'VOLUME_BASED_PRICING_TIER_UPDATE', volume_tier_info: tier },
      }),
    ).toEqual([{ kind: 'pricing_tier', waba_id: WABA, at: 1, ...tier }]);
    expect(notificationsOf({ waba_id: WABA, at: 1, field: 'account_update', value: {} })).toEqual([]);
    // A person's text to a number (decisions §25): who wrote, to which number, what.
    const inbound = {
      metadata: { display_phone_number: '+52 1 555 0001', phone_number_id: '110001' },
      messages: [{ from: '5215550100', id: 'wamid.in', timestamp: '1700000000', type: 'text', text: { body: 'Stop' } }],
    };
    expect(notificationsOf({ waba_id: WABA, at: 1, field: 'messages', value: inbound })).toEqual([
      {
        kind: 'inbound_message',
        waba_id: WABA,
        number_digits: '5215550001',
        from: '5215550100',
        message_id: 'wamid.in',
        text: 'Stop',
        at: 1700000000000,
      },
    ]);
  });

  it('never throws on a signed body of any shape: it is a notification, or a 400 (InvalidRequest)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (raw) => {
        try {
          const { changes } = changesOfNotification(raw);
          for (const change of changes) notificationsOf(change);
        } catch (error) {
          expect((error as Error).name).toBe('InvalidRequest');
        }
      }),
    );
  });
});
