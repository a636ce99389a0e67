import { describe, expect, it } from 'vitest';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { applyNotification } from '#lib/domain/inbound/meta-notifications.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { type CategoryNotification, categoryChangeOf } from '#lib/domain/templates/category-changes.ts';
import { listingEntryOf } from '#lib/domain/templates/template-listing.ts';
import { categoryNotes, templateRow } from '../../../console/src/pages/templates-data.ts';
import { MemoryMarketingOnboardings } from '../../support/memory/sends/marketing-onboardings.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * Meta's category changes (issue 55 item 3, decisions §34): the impending and the completed
 * `template_category_update` kept on the records and their listing entry, told to each client's webhook, and a
 * MARKETING send routed by the completed category alone.
 */
const WABA = '100200300';
const ORDER_UPDATE = '9001'; // UTILITY, records of clients 7 and 8
const ANNOUNCED_MS = Date.parse('2026-11-26T10:00:00.000Z');
const TAKES_EFFECT_MS = Date.parse('2026-11-27T10:00:00.000Z');
const DONE_MS = TAKES_EFFECT_MS + 5_000;

const impending = (at = ANNOUNCED_MS): CategoryNotification => ({
  kind: 'template_category',
  waba_id: WABA,
  template_id: ORDER_UPDATE,
  at,
  new_category: 'UTILITY',
  correct_category: 'MARKETING',
  takes_effect_at: TAKES_EFFECT_MS,
});
const completed = (at = DONE_MS, from = 'UTILITY', to = 'MARKETING'): CategoryNotification => ({
  kind: 'template_category',
  waba_id: WABA,
  template_id: ORDER_UPDATE,
  at,
  previous_category: from,
  new_category: to,
});

const categoryEvents = (world: ReturnType<typeof memoryWorld>) =>
  world.publisher.published.filter((e) => e.type.startsWith('template.category_'));

describe('Meta’s category changes on the template (decisions §34)', () => {
  it('reads Meta’s impending and completed payloads, category_update_timestamp as when the change happens', () => {
    // Prepare: Meta's examples (docs/platform-2027.md §3)
    const change = (value: Record<string, unknown>) => ({ waba_id: WABA, at: ANNOUNCED_MS, field: 'template_category_update', value });
    const names = { message_template_id: 9001, message_template_name: 'order_update', message_template_language: 'en_US' };
    // Act
    const [announced] = notificationsOf(
      change({ ...names, new_category: 'UTILITY', correct_category: 'MARKETING', category_update_timestamp: TAKES_EFFECT_MS / 1000 }),
    );
    const [done] = notificationsOf(change({ ...names, previous_category: 'UTILITY', new_category: 'MARKETING' }));
    const [badTime] = notificationsOf(
      change({ ...names, new_category: 'UTILITY', correct_category: 'marketing', category_update_timestamp: 'soon' }),
    );
    // Assess
    expect(announced).toEqual(impending());
    expect(done).toEqual({ ...completed(ANNOUNCED_MS) });
    expect(badTime).toEqual({ ...impending(), takes_effect_at: undefined, correct_category: 'MARKETING' });
  });

  it('keeps the impending change beside the category, then the completed one in its place, on every client’s records and listing entry', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    await applyNotification(world, impending());
    const announcedRecords = await world.records.listForTemplate(WABA, ORDER_UPDATE);
    await applyNotification(world, completed());
    const doneRecords = await world.records.listForTemplate(WABA, ORDER_UPDATE);
    // Assess
    expect(new Set(announcedRecords.map((r) => r.client_id))).toEqual(new Set([7, 8]));
    for (const r of announcedRecords) {
      expect(r.meta_template.category).toBe('UTILITY');
      expect(r.category_change).toEqual({
        impending: {
          category: 'UTILITY',
          correct_category: 'MARKETING',
          takes_effect_at: '2026-11-27T10:00:00.000Z',
          announced_at: '2026-11-26T10:00:00.000Z',
        },
      });
    }
    for (const r of doneRecords) {
      expect(r.meta_template).toMatchObject({ category: 'MARKETING', previous_category: 'UTILITY' });
      expect(r.category_change).toEqual({
        completed: { previous_category: 'UTILITY', new_category: 'MARKETING', at: '2026-11-27T10:00:05.000Z' },
      });
    }
    const entry = listingEntryOf(doneRecords.filter((r) => r.client_id === 7));
    expect(entry?.facets.category).toBe('MARKETING');
    expect(entry?.entry.category_change?.completed?.new_category).toBe('MARKETING');
  });

  it('tells each client’s webhook template.category_changing, then template.category_changed, once each, with the record', async () => {
    // Prepare
    const world = memoryWorld();
    // Act: each notification twice (Meta retries), and an announcement older than the completion arriving late
    await applyNotification(world, impending());
    await applyNotification(world, impending());
    await applyNotification(world, completed());
    await applyNotification(world, completed());
    await applyNotification(world, impending(ANNOUNCED_MS - 1_000));
    // Assess
    const events = categoryEvents(world);
    expect(events.map((e) => [e.type, e.client_id]).sort()).toEqual([
      ['template.category_changed', 7],
      ['template.category_changed', 8],
      ['template.category_changing', 7],
      ['template.category_changing', 8],
    ]);
    const changing = events.find((e) => e.type === 'template.category_changing' && e.client_id === 7)!.data as Record<string, any>;
    const changed = events.find((e) => e.type === 'template.category_changed' && e.client_id === 7)!.data as Record<string, any>;
    expect(changing).toMatchObject({
      client_id: 7,
      meta_template: { id: ORDER_UPDATE, category: 'UTILITY' },
      category_change: { impending: { correct_category: 'MARKETING', takes_effect_at: '2026-11-27T10:00:00.000Z' } },
    });
    expect(changed).toMatchObject({
      meta_template: { category: 'MARKETING' },
      category_change: { completed: { previous_category: 'UTILITY', new_category: 'MARKETING' } },
    });
    expect(world.publisher.published.filter((e) => e.type === 'template.status_changed')).toEqual([]);
  });

  it('keeps the last completed change beside a new announcement; a completion drops the announcement', () => {
    // Prepare
    const done = categoryChangeOf(undefined, completed());
    // Act
    const announcedAgain = categoryChangeOf(done, { ...impending(DONE_MS + 1), new_category: 'MARKETING', correct_category: 'UTILITY' });
    const unrelated = categoryChangeOf(done, { ...completed(), previous_category: undefined });
    // Assess
    expect(announcedAgain).toMatchObject({ completed: done?.completed, impending: { category: 'MARKETING', correct_category: 'UTILITY' } });
    expect(unrelated).toBe(done);
  });
});

describe('a MARKETING send routes by the completed category (decisions §28, §34)', () => {
  it('sends by /messages while a change to MARKETING is only announced, by /marketing_messages once done, by /messages once moved away', async () => {
    // Prepare: client 7's WABA is onboarded to the Marketing Messages API
    const world = memoryWorld();
    const onboardings = new MemoryMarketingOnboardings();
    await onboardings.put(WABA, { onboarded: true, source: 'webhook', at: '2026-11-26T09:00:00.000Z' });
    const deps = { ...world, onboardings, marketing: world.upstream, now: () => '2026-11-26T10:00:00.000Z' };
    const send = (sendId: string) =>
      sendTemplate(deps, callerOf(7), {
        pathDid: '5215550001',
        sendId,
        body: {
          did: '5215550001',
          type: 'template',
          channel: 'MSGCHAN',
          template: { name: 'order_update', language: 'en_US' },
          recipients: [{ to: '5215550000001', params: { body: ['A-1'] } }],
        } as never,
      });
    const apiOf = (sendId: string) =>
      (world.queue.sent as unknown as DispatchJob[]).find((job) => job.send_id === sendId)?.marketing_api ?? 'cloud';
    // Act
    await send('s-before');
    await applyNotification(world, impending());
    await send('s-announced');
    await applyNotification(world, completed());
    await send('s-marketing');
    await applyNotification(world, completed(DONE_MS + 60_000, 'MARKETING', 'UTILITY'));
    await send('s-utility-again');
    // Assess
    expect(['s-before', 's-announced', 's-marketing', 's-utility-again'].map(apiOf)).toEqual(['cloud', 'cloud', 'mm', 'cloud']);
  });
});

describe('the console’s template row (decisions §34)', () => {
  it('says the announced change with when it happens, and the last change Meta made', () => {
    // Act
    const row = templateRow({
      id: 'r1',
      meta_template: { name: 'order_update', category: 'UTILITY' },
      category_change: {
        impending: {
          category: 'UTILITY',
          correct_category: 'MARKETING',
          takes_effect_at: '2026-11-27T10:00:00.000Z',
          announced_at: '2026-11-26T10:00:00.000Z',
        },
        completed: { previous_category: 'MARKETING', new_category: 'UTILITY', at: '2026-10-01T08:30:00.000Z' },
      },
    });
    // Assess
    expect(row.categoryNotes).toEqual([
      'Meta will change it to MARKETING on 2026-11-27 10:00 UTC; its sends go as UTILITY until then.',
      'Meta changed it from MARKETING to UTILITY on 2026-10-01 08:30 UTC.',
    ]);
    expect(categoryNotes(undefined)).toEqual([]);
  });
});
