import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { describe, expect, it } from 'vitest';
import { createTemplate } from '#lib/domain/templates/create-template.ts';
import { editTemplate } from '#lib/domain/templates/edit-template.ts';
import { InvalidRequest, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

const DID = '5215550001';
const WABA = '100200300';
const acme = callerOf(7);
const body = (name: string) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Parcel {{1}} left', example: { body_text: [['P-1']] } }],
});

describe('upstream faults after the upstream accepted (use cases, in memory)', () => {
  it('a create whose answer is lost adopts the template it made, with its record and event', async () => {
    // Prepare: Graph makes the template, then the answer never arrives
    const world = memoryWorld();
    world.emulator.faults.add({ path: `/${WABA}/message_templates`, method: 'POST', afterAccept: true, delayMs: 1_000, times: 1 });
    // Act
    const created = await createTemplate(world, acme, { did: DID, body: body('lost_answer') });
    // Assess
    const upstream = world.emulator.model.wabas.get(WABA)!.templates.filter((t) => t.name === 'lost_answer');
    expect(upstream.map((t) => t.id)).toEqual([created.id]);
    expect(await world.records.listForTemplate(WABA, created.id, 7)).toHaveLength(1);
    expect(world.publisher.published.map((e) => (e.data as TemplateRecord).meta_template.id)).toEqual([created.id]);
  });

  it('a retried create after a lost answer and no record answers as the first would have', async () => {
    // Prepare: the first try made the template upstream but recorded nothing (its answer was lost, the lookup too)
    const world = memoryWorld();
    world.emulator.faults.add({ path: `/${WABA}/message_templates`, afterAccept: true, delayMs: 1_000 });
    await expect(createTemplate(world, acme, { did: DID, body: body('retried') })).rejects.toBeInstanceOf(UpstreamUnavailable);
    world.emulator.faults.clear();
    // Act
    const again = await createTemplate(world, acme, { did: DID, body: body('retried') });
    // Assess
    expect(
      world.emulator.model.wabas
        .get(WABA)!
        .templates.filter((t) => t.name === 'retried')
        .map((t) => t.id),
    ).toEqual([again.id]);
    expect(await world.records.listForTemplate(WABA, again.id, 7)).toHaveLength(1);
  });

  it('an edit whose answer is lost stores what the upstream holds, so record and upstream agree', async () => {
    const world = memoryWorld();
    const recordId = '65a1b2c3d4e5f60718293a4b';
    const current = (await world.records.get(recordId))!.meta_template;
    const components = [{ type: 'BODY', text: 'Your order {{1}} has shipped', example: { body_text: [['A-1']] } }];
    world.emulator.faults.add({ path: `/${current.id}`, method: 'POST', afterAccept: true, delayMs: 1_000, times: 1 });
    const result = await editTemplate(world, acme, { did: DID, recordId, body: { components } });
    expect(result).toMatchObject({ changed: true });
    const upstream = world.emulator.model.findTemplate(current.id)!.template;
    expect((await world.records.get(recordId))?.meta_template).toMatchObject({ components: upstream.components, status: upstream.status });
  });

  it('refuses, before the upstream is called, what the store could not hold', async () => {
    const world = memoryWorld();
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { nested: deep };
    const tooDeep = { ...body('too_deep'), components: [{ type: 'BODY', text: 'Hi', extra: deep }] };
    const tooLarge = { ...body('too_large'), components: [{ type: 'BODY', text: 'Hi', note: 'x'.repeat(400 * 1024) }] };
    for (const draft of [tooDeep, tooLarge]) {
      const error = (await createTemplate(world, acme, { did: DID, body: draft }).catch((e: unknown) => e)) as InvalidRequest;
      expect(error).toBeInstanceOf(InvalidRequest);
      expect(error.details?.[0].path).toBe('components');
    }
    const spec = { ...body('big_spec'), optimization_spec: { bid_amount: 1, bid_strategy: 'x', blob: 'y'.repeat(420 * 1024) } };
    const specError = (await createTemplate(world, acme, { did: DID, body: spec }).catch((e: unknown) => e)) as InvalidRequest;
    expect(specError.details?.[0].path).toBe('optimization_spec');
    expect(world.emulator.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('a create racing a sync (use case, in memory)', () => {
  it('takes over the placeholder the sync made for the template it just created', async () => {
    // Prepare: the create's answer is late; meanwhile a sync of the client finds the new template
    const world = memoryWorld();
    world.emulator.faults.add({ path: `/${WABA}/message_templates`, method: 'POST', afterAccept: true, delayMs: 1_000, times: 1 });
    const { runSync, startSync } = await import('#lib/domain/templates/sync.ts');
    // Act
    const creating = createTemplate(world, acme, {
      did: DID,
      body: { ...body('raced'), channel_campaigns: { assignments: [{ channel_id: 41, campaign_id: 31 }] } },
    });
    await new Promise((r) => setTimeout(r, 100));
    await startSync(world, acme, {});
    await runSync(world, world.queue.sent.at(-1) as { client_id: number; lease_id: string });
    const created = await creating;
    // Assess: one record with the pair, no placeholder left
    const records = await world.records.listForTemplate(WABA, created.id, 7);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ campaign: { campaign_id: 31 }, createdBy: 'user-7' });
    expect(world.publisher.published.filter((e) => e.type === 'template.created')).toHaveLength(1);
  });
});
