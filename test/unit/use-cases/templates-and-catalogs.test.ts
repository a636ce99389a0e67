import { describe, expect, it } from 'vitest';
import { changeTemplateStatus } from '#lib/domain/templates/bulk-status.ts';
import { listProducts } from '#lib/domain/templates/catalogs.ts';
import { editTemplate, NO_CHANGE_MESSAGE } from '#lib/domain/templates/edit-template.ts';
import { applyNotification } from '#lib/domain/inbound/meta-notifications.ts';
import { InvalidRequest, NotFound, Unprocessable, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { listTemplates } from '#lib/domain/templates/list-templates.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

const acme = callerOf(7);
const DID = '5215550001';
const ORDER_UPDATE_EN = '65a1b2c3d4e5f60718293a4b';
const sendBody = (template: { name: string; language: string }, recipients: { to: string; params?: Record<string, string[]> }[]) => ({
  did: DID,
  type: 'template' as const,
  channel: 'MSGCHAN' as const,
  template,
  recipients,
});

describe('edit (use case, in memory)', () => {
  it('skips the upstream when nothing changes, and otherwise stores the new components as PENDING on every sibling', async () => {
    const world = memoryWorld();
    const current = (await world.records.get(ORDER_UPDATE_EN))!.meta_template;
    const same = await editTemplate(world, acme, { did: DID, recordId: ORDER_UPDATE_EN, body: { components: current.components } });
    expect(same).toMatchObject({ changed: false, message: NO_CHANGE_MESSAGE });
    const components = [{ type: 'HEADER', format: 'TEXT', text: 'Update' }, ...current.components];
    await editTemplate(world, acme, { did: DID, recordId: ORDER_UPDATE_EN, body: { components } });
    const siblings = await world.records.listForTemplate('100200300', current.id);
    expect(siblings.length).toBeGreaterThan(1);
    for (const record of siblings) expect(record).toMatchObject({ meta_template: { status: 'PENDING' }, headerType: 'TEXT' });
    expect(world.emulator.model.findTemplate(current.id)?.template.components).toEqual(components);
  });

  it('drops status news Meta dated before the edit when it arrives after it: the record stays PENDING', async () => {
    // Prepare: an approval Meta sent a second before the edit, still on its way
    const world = memoryWorld();
    const current = (await world.records.get(ORDER_UPDATE_EN))!.meta_template;
    const editedAt = Date.parse('2026-11-26T09:00:00.500Z');
    const components = [{ type: 'HEADER', format: 'TEXT', text: 'Update' }, ...current.components];
    await editTemplate({ ...world, now: () => new Date(editedAt).toISOString() }, acme, {
      did: DID,
      recordId: ORDER_UPDATE_EN,
      body: { components },
    });
    // Act: the late approval (entry time in whole seconds, as Meta sends it), then one after the edit
    const late = { kind: 'template_status' as const, waba_id: '100200300', template_id: current.id, event: 'APPROVED', reason: 'NONE' };
    await applyNotification(world, { ...late, at: Math.floor(editedAt / 1000) * 1000 });
    const afterLate = (await world.records.get(ORDER_UPDATE_EN))!.meta_template.status;
    await applyNotification(world, { ...late, event: 'REJECTED', at: editedAt + 60_000 });
    // Assess
    expect(afterLate).toBe('PENDING');
    expect((await world.records.get(ORDER_UPDATE_EN))!.meta_template.status).toBe('REJECTED');
  });

  it('refuses a category change of an APPROVED template', async () => {
    const world = memoryWorld();
    const current = (await world.records.get(ORDER_UPDATE_EN))!.meta_template;
    const edit = editTemplate(world, acme, {
      did: DID,
      recordId: ORDER_UPDATE_EN,
      body: { components: current.components, category: 'MARKETING' },
    });
    await expect(edit).rejects.toBeInstanceOf(InvalidRequest);
  });
});

/** A send of order_update (es) whose recipient gives one value per body variable. */
function orderUpdateSend(world: ReturnType<typeof memoryWorld>) {
  const template = world.emulator.model.findTemplate('9002')!.template;
  const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
  const params = { body: Array.from({ length: variables }, (_, i) => `v${i}`) };
  return sendBody({ name: 'order_update', language: 'es' }, [{ to: '5215550009999', params }]);
}

describe('send warnings (decisions §22): what Meta will not deliver, told before the send, never refusing it', () => {
  const recipients = (n: number) => Array.from({ length: n }, (_, i) => ({ to: String(525556000000 + i) }));
  /** order_update (UTILITY) to these recipients, each with the values its body asks for. */
  const orderUpdate = (to: { to: string }[]) => {
    const { params } = orderUpdateSend(memoryWorld()).recipients[0];
    return {
      ...sendBody(
        { name: 'order_update', language: 'es' },
        to.map((r) => ({ ...r, params })),
      ),
    };
  };
  const promoImage = sendBody({ name: 'promo_image', language: 'en_US' }, [{ to: '5215560001', params: { body: ['May'] } }]);
  const image = { component: { header: { type: 'image_url' as const, value: 'https://cdn.example.com/a.png' } } };

  it('warns when the unique recipients exceed the portfolio’s messaging limit, in the send and its dry run', async () => {
    // Prepare: the WABA's portfolio may reach 250 users a day
    const world = memoryWorld();
    world.emulator.model.wabas.get('100200300')!.messaging_limit = 'TIER_250';
    const over = orderUpdate(recipients(251));
    const repeated = orderUpdate([...recipients(250), recipients(1)[0]]);
    // Act
    const sent = await sendTemplate(world, acme, { pathDid: DID, sendId: 's-over', body: over });
    const dry = await dryRunSend(world, acme, {
      pathDid: DID,
      body: over,
      recipients: over.recipients.map((recipient, index) => ({ index, recipient })),
      refused: [],
      total: 251,
    });
    const within = await sendTemplate(world, acme, { pathDid: DID, sendId: 's-within', body: repeated });
    // Assess: queued all the same; a repeat is not another user
    expect(sent).toMatchObject({
      success: true,
      warnings: [{ code: 'messaging_limit_exceeded', message: expect.stringContaining('250') }],
    });
    expect(dry.warnings).toEqual(sent.warnings);
    expect(world.queue.sent.filter((job) => job.send_id === 's-over')).toHaveLength(1);
    expect(within.warnings).toBeUndefined();
  });

  it('warns of a marketing template on a number rated RED, and of nothing else there', async () => {
    // Prepare
    const world = memoryWorld();
    world.emulator.model.phoneNumbers.get('110001')!.quality_rating = 'RED';
    // Act
    const marketing = await sendTemplate(world, acme, { pathDid: DID, sendId: 's-m', body: { ...promoImage, ...image } });
    const utility = await sendTemplate(world, acme, { pathDid: DID, sendId: 's-u', body: orderUpdate(recipients(1)) });
    // Assess
    expect(marketing.warnings).toEqual([{ code: 'number_quality_red', message: expect.stringContaining('RED') }]);
    expect(utility.warnings).toBeUndefined();
  });
});

describe('send (use case, in memory)', () => {
  it('queues the recipients with the namespace and the template’s components, never the caller’s', async () => {
    const world = memoryWorld();
    await sendTemplate(world, acme, { pathDid: DID, sendId: 's-1', body: orderUpdateSend(world) });
    expect(world.queue.sent).toHaveLength(1);
    expect(world.queue.sent[0]).toMatchObject({
      send_id: 's-1',
      namespace: expect.any(String),
      total_contacts: 1,
      template: { id: '9002' },
    });
  });

  it('refuses a template that is not APPROVED, an unknown one, and recipients whose values do not fit', async () => {
    const world = memoryWorld();
    const send = (name: string, params?: Record<string, string[]>) =>
      sendTemplate(world, acme, {
        pathDid: DID,
        sendId: 's',
        body: sendBody({ name, language: 'en_US' }, [{ to: '5215550009999', params }]),
      });
    await expect(send('summer_promo')).rejects.toBeInstanceOf(Unprocessable);
    await expect(send('no_such_template')).rejects.toBeInstanceOf(NotFound);
    const error = (await send('order_update', { body: [] }).catch((e: unknown) => e)) as InvalidRequest;
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.details?.[0].path).toMatch(/^recipients\[0\]\.params/);
    expect(world.queue.sent).toEqual([]);
  });

  it('answers UpstreamUnavailable when the dispatch queue refuses the jobs, and abandons the send', async () => {
    const world = memoryWorld();
    world.queue.failing = true;
    await expect(sendTemplate(world, acme, { pathDid: DID, sendId: 's', body: orderUpdateSend(world) })).rejects.toBeInstanceOf(
      UpstreamUnavailable,
    );
    expect(await world.sends.get('s')).toMatchObject({ status: 'abandoned' });
  });

  it('records the send queued once all its jobs are on the queue, and queues nothing when it cannot record it', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    await sendTemplate(world, acme, { pathDid: DID, sendId: 'ok', body: orderUpdateSend(world) });
    world.sendTable.failing = true;
    const refused = sendTemplate(world, acme, { pathDid: DID, sendId: 'down', body: orderUpdateSend(world) });
    // Assess
    expect(await world.sends.get('ok')).toMatchObject({ status: 'queued', total: 1, jobs: 1, client_id: 7 });
    await expect(refused).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(world.queue.sent).toHaveLength(1);
  });
});

describe('listing, bulk status and catalogs (use cases, in memory)', () => {
  it('lists the client’s templates one entry per template, and enables a record whose pair is whole', async () => {
    const world = memoryWorld();
    const listing = await listTemplates(world, acme, {});
    expect(listing.total).toBeGreaterThan(0);
    const result = await changeTemplateStatus(world, acme, { action: 'disable', templates: [ORDER_UPDATE_EN] });
    expect(result.summary).toMatchObject({ succeeded: 1 });
    expect((await world.records.get(ORDER_UPDATE_EN))?.active).toBe(false);
  });

  it('answers not_processed, unwritten, for what a request reaches with too little time left (decisions §19)', async () => {
    // Prepare: a request whose function has 2 s left, under the 3 s a write needs in hand
    const world = memoryWorld();
    // Act
    const result = await changeTemplateStatus(
      world,
      acme,
      { action: 'disable', templates: [ORDER_UPDATE_EN] },
      { deadline: { remainingMs: () => 2_000 } },
    );
    // Assess
    expect(result.results).toEqual([{ id: ORDER_UPDATE_EN, action: 'disable', success: false, skipped: false, reason: 'not_processed' }]);
    expect(result.summary).toMatchObject({ succeeded: 0, failed: 1 });
    expect((await world.records.get(ORDER_UPDATE_EN))?.active).toBe(true);
  });

  it('pages a catalog’s 230 products as 100, 100 and 30, and refuses a cursor of nothing', async () => {
    const world = memoryWorld();
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await listProducts(world, acme, { did: DID, catalogId: 'cat-1', limit: 100, cursor });
      sizes.push(page.data.length);
      seen.push(...page.data.map((p) => p.id));
      cursor = page.paging.next;
    } while (cursor);
    expect(sizes).toEqual([100, 100, 30]);
    expect(new Set(seen).size).toBe(230);
    await expect(listProducts(world, acme, { did: DID, catalogId: 'cat-1', cursor: 'bm9wZQ' })).rejects.toBeInstanceOf(InvalidRequest);
  });
});
