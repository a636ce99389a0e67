import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { describe, expect, it } from 'vitest';
import { createTemplate, DUPLICATE_TEMPLATE } from '#lib/domain/templates/create-template.ts';
import { Conflict, InvalidRequest, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { relayOutbox } from '#lib/domain/webhooks/outbox.ts';
import { callerOf, type MemoryWorld, memoryWorld } from '../../support/memory/world.ts';

const DID = '5215550001';
const WABA = '100200300';
const body = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Order {{1}} is ready', example: { body_text: [['A-1']] } }],
  ...extra,
});
const create = (world: MemoryWorld, input: ReturnType<typeof body>, clientId = 7) =>
  createTemplate(world, callerOf(clientId), { did: DID, body: input });

describe('create a template (use case, in memory)', () => {
  it('creates it upstream, registers one record per pair with its event, publishes the event and clears the outbox', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    const created = await create(
      world,
      body('fresh_order', {
        channel_campaigns: {
          assignments: [
            { channel_id: 41, campaign_id: 31 },
            { channel_id: 42, campaign_id: 32 },
          ],
        },
      }),
    );
    // Assess
    expect(created.status).toBe('PENDING');
    const records = await world.records.listForTemplate(WABA, created.id);
    expect(records.map((r) => r.campaign?.campaign_id).sort()).toEqual([31, 32]);
    expect(records.every((r) => r.headerType === 'NONE' && r.namespace !== '' && r.active === false)).toBe(true);
    expect(world.publisher.published.map((e) => e.type)).toEqual(['template.created']);
    expect(world.templateTable.outbox.size).toBe(0);
    expect(world.emulator.model.findTemplate(created.id)?.template.name).toBe('fresh_order');
  });

  it('answers Conflict for a name and language the WABA already has, and registers nothing', async () => {
    const world = memoryWorld();
    const before = world.templateTable.records.size;
    const error = await create(world, body('order_update')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Conflict);
    expect((error as Conflict).message).toBe(DUPLICATE_TEMPLATE);
    expect(world.templateTable.records.size).toBe(before);
  });

  it('refuses a draft that breaks the rules before the upstream is called, naming each component path', async () => {
    const world = memoryWorld();
    const draft = body('bad_buttons', {
      components: [
        { type: 'BODY', text: 'Hi {{1}}' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'ftp://x' }] },
      ],
    });
    const error = (await create(world, draft).catch((e: unknown) => e)) as InvalidRequest;
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.details?.map((d) => d.path)).toEqual(
      expect.arrayContaining(['components[0].example.body_text', 'components[1].buttons[0].url']),
    );
    expect(world.emulator.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('answers UpstreamUnavailable when the upstream is down, leaving no record and no event', async () => {
    const world = memoryWorld();
    world.emulator.faults.add({ path: `/${WABA}/message_templates`, method: 'POST', status: 503 });
    const before = world.templateTable.records.size;
    await expect(create(world, body('during_outage'))).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(world.templateTable.records.size).toBe(before);
    expect(world.templateTable.outbox.size).toBe(0);
  });

  it('keeps the event in the outbox when publishing fails, and the relay publishes it once', async () => {
    // Prepare: the bus refuses the request's own publish
    const world = memoryWorld();
    world.publisher.failing = true;
    // Act
    await create(world, body('late_event'));
    world.publisher.failing = false;
    const relayed = await relayOutbox(world, 0, Date.now() + 1000);
    // Assess
    expect(relayed).toBe(1);
    expect(world.publisher.published.map((e) => (e.data as TemplateRecord).meta_template.name)).toEqual(['late_event']);
    expect(world.templateTable.outbox.size).toBe(0);
  });

  it('refuses a pair on another WABA and a client the caller may not act for', async () => {
    const world = memoryWorld();
    const otherWaba = body('wrong_pair', { channel_campaigns: { assignments: [{ channel_id: 43, campaign_id: 31 }] } });
    expect(await create(world, otherWaba).catch((e: unknown) => e)).toBeInstanceOf(InvalidRequest);
    await expect(createTemplate(world, callerOf(7), { did: DID, body: body('x', { client_id: 8 }) })).rejects.toThrow('BSP_CN');
  });
});
