import { describe, expect, it } from 'vitest';
import type { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import type { SendDeps } from '#lib/domain/sends/accept/send-deps.ts';
import { sendDeps } from '#lib/wiring/send-deps.ts';
import { MemoryJobQueue } from '../../support/memory/shared/job-queue.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/** A send's acceptance and its dry run as one pipeline of steps; one wiring of a send's every port. */
const acme = callerOf(7);
const NOW = '2026-11-25T10:00:00.000Z';
const DID = '5215550001';

/** A UTILITY send of three Mexican numbers for client 7, going on `sendAt`. */
function scheduledSend(sendAt: string) {
  const world = memoryWorld();
  const template = world.emulator.model.findTemplate('9002')!.template;
  const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
  const body = {
    did: DID,
    type: 'template' as const,
    channel: 'MSGCHAN' as const,
    template: { name: 'order_update', language: 'es' },
    send_at: sendAt,
    recipients: Array.from({ length: 3 }, (_, i) => ({
      to: `52155500${i}0`,
      params: { body: Array.from({ length: variables }, () => 'v') },
    })),
  };
  return { world, deps: { ...world, now: () => NOW }, body };
}

describe('a send’s pipeline (send-pipeline.ts)', () => {
  it('answers a dry run with the estimate its send is accepted with: the price list of the day the send goes', async () => {
    // Prepare: one list in force now, the next from a day between now and the send's time
    const { world, deps, body } = scheduledSend('2026-11-28T10:00:00.000Z');
    await world.priceLists.put({
      client_id: 7,
      effective_from: '2026-11-01',
      currency: 'USD',
      markup_percent: 50,
      created_at: '2026-10-01',
    });
    await world.priceLists.put({ client_id: 7, effective_from: '2026-11-27', currency: 'USD', markup_percent: 100, created_at: NOW });
    const { recipients, ...rest } = body;
    // Act
    const dry = await dryRunSend(deps, acme, {
      pathDid: DID,
      body: rest,
      recipients: recipients.map((recipient, index) => ({ index, recipient })),
      refused: [],
      total: recipients.length,
    });
    const recordedByDryRun = world.sendTable.sends.size;
    const sent = await sendTemplate(deps, acme, { pathDid: DID, body, sendId: 's-1' });
    // Assess
    expect(recordedByDryRun).toBe(0);
    expect(sent.status).toBe('scheduled');
    expect(dry.estimate).toEqual(sent.estimate);
    expect((await world.sends.get('s-1'))?.price_list).toEqual({ effective_from: '2026-11-27', currency: 'USD' });
  });

  it('stops a dry run before anything is reserved, recorded, held, scheduled or queued', async () => {
    // Prepare
    const { world, deps, body } = scheduledSend('2026-11-26T10:00:00.000Z');
    const { recipients, ...rest } = body;
    // Act
    const dry = await dryRunSend(deps, acme, {
      pathDid: DID,
      body: rest,
      recipients: recipients.map((recipient, index) => ({ index, recipient })),
      refused: [],
      total: recipients.length,
    });
    // Assess
    expect(dry).toMatchObject({ success: true, dry_run: true, total: 3, valid: 3, invalid: [] });
    expect(world.sendTable.sends.size).toBe(0);
    expect(world.sendTable.held.size).toBe(0);
    expect(world.scheduler.schedules.size).toBe(0);
    expect(world.queue.sent).toEqual([]);
    expect(await world.budgets.month(7, '2026-11')).toEqual(await memoryWorld().budgets.month(7, '2026-11'));
  });
});

describe('a send’s dependencies (lib/wiring/send-deps.ts)', () => {
  it('are every port, required: one left out is a type error', () => {
    // Prepare
    const { peopleMap: _left, ...world } = memoryWorld();
    // Act
    // @ts-expect-error: a send without its people map would find repeats by number only, silently
    const deps: SendDeps = world;
    // Assess
    expect('peopleMap' in deps).toBe(false);
  });

  it('are wired once, Graph made at first use and answering for the templates, the currency and the MM onboarding', () => {
    // Prepare
    const graph = {} as GraphUpstream;
    let made = 0;
    const upstream = () => {
      made++;
      return graph;
    };
    // Act
    const deps = sendDeps({ client: {} as never, name: 'table' }, { queue: new MemoryJobQueue(), upstream });
    const before = made;
    const answering = [deps.upstream, deps.currencies, deps.marketing, deps.directSend];
    // Assess
    expect(before).toBe(0);
    expect(answering).toEqual([graph, graph, graph, graph]);
    expect(Object.keys(deps).sort()).toEqual(
      [
        'budgets',
        'currencies',
        'directory',
        'directSend',
        'frequencyCaps',
        'heldJobs',
        'marketingCounts',
        'peopleMap',
        'listing',
        'marketing',
        'onboardings',
        'priceLists',
        'queue',
        'recipientLists',
        'resolve',
        'scheduler',
        'sends',
        'suppressions',
        'upstream',
      ].sort(),
    );
  });
});
