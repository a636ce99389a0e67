import { describe, expect, it } from 'vitest';
import { addAssignments, groupedAssignments, removeAssignments, replaceAssignments } from '#lib/domain/templates/assignments.ts';
import { InvalidRequest, NotFound } from '#lib/domain/shared/errors.ts';
import { isPlaceholder } from '#lib/domain/templates/template-record.ts';
import { bspCaller, callerOf, DEMO_FIXTURE, memoryWorld } from '../../support/memory/world.ts';

const ASSIGNED = '65a1b2c3d4e5f60718293a4b'; // client 7, template 9001, pair (41, 31), active
const PLACEHOLDER = '65a1b2c3d4e5f60718293a4d'; // client 7, template 9002, no pair
const acme = callerOf(7);

describe('assignments (use cases, in memory)', () => {
  it('turns the placeholder into the first assignment, keeping its id', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    const result = await addAssignments(world, acme, PLACEHOLDER, { channel_campaigns: [{ channel_id: 41, campaign_id: 31 }] });
    // Assess
    expect(result.ids).toEqual([PLACEHOLDER]);
    const siblings = await world.records.listForTemplate('100200300', '9002', 7);
    expect(siblings).toHaveLength(1);
    expect(siblings[0]).toMatchObject({ id: PLACEHOLDER, channel: { channel_id: 41 }, campaign: { campaign_id: 31 } });
  });

  it('adds a sibling per new pair and returns the held pair’s own id', async () => {
    const world = memoryWorld();
    const result = await addAssignments(world, acme, ASSIGNED, {
      channel_campaigns: [
        { channel_id: 41, campaign_id: 31 },
        { channel_id: 42, campaign_id: 32 },
      ],
    });
    expect(result.ids[0]).toBe(ASSIGNED);
    expect(await world.records.listForTemplate('100200300', '9001', 7)).toHaveLength(2);
  });

  it('leaves one inactive placeholder when the last pair goes', async () => {
    const world = memoryWorld();
    await removeAssignments(world, acme, ASSIGNED, {});
    const siblings = await world.records.listForTemplate('100200300', '9001', 7);
    expect(siblings).toHaveLength(1);
    expect(isPlaceholder(siblings[0])).toBe(true);
    expect(siblings[0]).toMatchObject({ id: ASSIGNED, active: false });
  });

  it('replaces the pairs with exactly the given ones', async () => {
    const world = memoryWorld();
    await replaceAssignments(world, acme, ASSIGNED, { channel_campaigns: [{ channel_id: 42, campaign_id: 33 }] });
    const [only] = await world.records.listForTemplate('100200300', '9001', 7);
    const groups = await groupedAssignments(world, acme, only.id);
    expect(groups.map((g) => g.campaign_id)).toEqual([33]);
    expect(await world.records.get(ASSIGNED)).toBeNull();
  });

  it('hides another client’s record without BSP_CN, and refuses a channel of another client', async () => {
    const world = memoryWorld();
    await expect(
      addAssignments(world, callerOf(9), ASSIGNED, { channel_campaigns: [{ channel_id: 71, campaign_id: 51 }] }),
    ).rejects.toBeInstanceOf(NotFound);
    const error = (await addAssignments(world, acme, ASSIGNED, { channel_campaigns: [{ channel_id: 61, campaign_id: 31 }] }).catch(
      (e: unknown) => e,
    )) as InvalidRequest;
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.details?.[0].path).toBe('channel_campaigns[0].channel_id');
  });

  it('lets a BSP act for a client sharing the WABA', async () => {
    const world = memoryWorld();
    const result = await addAssignments(world, bspCaller(), ASSIGNED, {
      client_id: 8,
      channel_campaigns: [{ channel_id: 61, campaign_id: 41 }],
    });
    const siblings = await world.records.listForTemplate('100200300', '9001', 8);
    expect(siblings.map((r) => r.id)).toContain(result.ids[0]);
    expect(siblings.filter(isPlaceholder)).toEqual([]);
  });

  it('keeps a half record when a pair is added, and forms no group or Unassigned entry from it (decisions §11)', async () => {
    // Prepare: client 7's record of 9001 holds its channel only
    const fixture = structuredClone(DEMO_FIXTURE);
    const record = fixture.template_records.find((r) => r.id === ASSIGNED)!;
    delete record.campaign_id;
    const world = memoryWorld(fixture);
    // Act
    const before = await groupedAssignments(world, acme, ASSIGNED);
    const unassigned = await world.listing.listingPage(7, { deleted: false, campaignName: 'Unassigned' }, { offset: 0, size: 100 });
    const added = await addAssignments(world, acme, ASSIGNED, { channel_campaigns: [{ channel_id: 41, campaign_id: 31 }] });
    // Assess
    expect(before).toEqual([]);
    expect(unassigned.entries.map((e) => e.template_id)).not.toContain('9001');
    expect(added.ids).not.toContain(ASSIGNED);
    const siblings = await world.records.listForTemplate('100200300', '9001', 7);
    expect(siblings.map((r) => `${r.channel?.channel_id}/${r.campaign?.campaign_id}`).sort()).toEqual(['41/31', '41/undefined']);
  });
});
