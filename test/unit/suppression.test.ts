import { describe, expect, it } from 'vitest';
import { Forbidden, InvalidRequest, NotFound } from '#lib/domain/shared/errors.ts';
import {
  addSuppression,
  applyInboundConsent,
  consentOf,
  getSuppression,
  listSuppressions,
  removeSuppression,
} from '#lib/domain/people/suppression.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { MemorySuppressionStore } from '../support/memory/people/suppression-store.ts';
import { callerOf, memoryWorld } from '../support/memory/world.ts';

/** Suppression lists (decisions §25) on the in-memory store: keywords, tenancy, and what each source keeps. */
const agent = callerOf(7);
const bsp = { ...callerOf(7), isBsp: true };
const AT = '2026-11-26T10:00:00.000Z';

describe('what an inbound message says of consent (decisions §25)', () => {
  it('knows the opt-out and opt-in keywords whatever their case, accents and surrounding punctuation', () => {
    // Prepare / Act / Assess
    for (const text of ['STOP', 'stop', ' Stop. ', 'Baja', 'PARAR!', 'sair', 'Unsubscribe', 'cancelar', 'CÁNCELAR'])
      expect(consentOf(text), text).toBe('opt_out');
    for (const text of ['START', 'start', 'Alta', 'ÁLTA']) expect(consentOf(text), text).toBe('opt_in');
  });

  it('reads only the whole message: a sentence holding a keyword is not one', () => {
    // Prepare / Act / Assess
    for (const text of ['please stop', 'STOP it', 'stopping', 'START NOW', '', 'hola']) expect(consentOf(text), text).toBeUndefined();
  });
});

describe('a client’s suppression list (decisions §25)', () => {
  it('keeps the first entry of a number with its source and evidence; an opt-in removes it', async () => {
    // Prepare
    const suppressions = new MemorySuppressionStore();
    // Act
    await applyInboundConsent({ suppressions }, 7, { from: '+52 1 555 000 1234', text: 'Stop', id: 'wamid.in1', at: AT });
    const again = await addSuppression({ suppressions, now: () => AT }, agent, { phone: '5215550001234', reason: 'asked by phone' });
    const listed = await listSuppressions({ suppressions }, agent, {});
    await applyInboundConsent({ suppressions }, 7, { from: '5215550001234', text: 'START', id: 'wamid.in2', at: AT });
    const after = await listSuppressions({ suppressions }, agent, {});
    // Assess
    expect(again).toMatchObject({ created: false, source: 'inbound', message_id: 'wamid.in1' });
    expect(listed).toMatchObject({ total: 1, data: [{ phone: '5215550001234', source: 'inbound', at: AT, message_id: 'wamid.in1' }] });
    expect(after.total).toBe(0);
  });

  it('keeps clients apart: an agent acts for its own client, BSP_CN names the client', async () => {
    // Prepare
    const suppressions = new MemorySuppressionStore();
    // Act
    const other = await listSuppressions({ suppressions }, agent, { client_id: 8 }).catch((e) => e);
    const unnamed = await listSuppressions({ suppressions }, bsp, {}).catch((e) => e);
    await addSuppression({ suppressions }, bsp, { phone: '5215550009999', client_id: 8 });
    const ownList = await listSuppressions({ suppressions }, agent, {});
    const theirs = await listSuppressions({ suppressions }, bsp, { client_id: 8 });
    // Assess
    expect(other).toBeInstanceOf(Forbidden);
    expect(unnamed).toBeInstanceOf(InvalidRequest);
    expect(ownList.total).toBe(0);
    expect(theirs.total).toBe(1);
  });

  it('shows one number’s entry with its evidence, as written in any form, to its own client only', async () => {
    // Prepare: client 7's entry from an inbound STOP
    const suppressions = new MemorySuppressionStore();
    await suppressions.add(7, { phone: '5215550001234', source: 'inbound', at: AT, message_id: 'wamid.in-1' });
    // Act
    const own = await getSuppression({ suppressions }, agent, '+5215550001234');
    const named = await getSuppression({ suppressions }, bsp, '5215550001234', 7);
    const otherClient = await getSuppression({ suppressions }, bsp, '5215550001234', 8).catch((e) => e);
    const forbidden = await getSuppression({ suppressions }, agent, '5215550001234', 8).catch((e) => e);
    const unnamed = await getSuppression({ suppressions }, bsp, '5215550001234').catch((e) => e);
    // Assess
    expect(own).toEqual({ client_id: 7, phone: '5215550001234', source: 'inbound', at: AT, message_id: 'wamid.in-1' });
    expect(named).toEqual(own);
    expect(otherClient).toBeInstanceOf(NotFound);
    expect(forbidden).toBeInstanceOf(Forbidden);
    expect(unnamed).toBeInstanceOf(InvalidRequest);
  });

  it('refuses a phone without enough digits (400) and a removal of a number not on the list (404)', async () => {
    // Prepare
    const suppressions = new MemorySuppressionStore();
    // Act
    const short = await addSuppression({ suppressions }, agent, { phone: '+1 23' }).catch((e) => e);
    const missing = await removeSuppression({ suppressions }, agent, '5215550000000').catch((e) => e);
    // Assess
    expect(short).toBeInstanceOf(InvalidRequest);
    expect(missing).toBeInstanceOf(NotFound);
  });
});

describe('a MARKETING send and the list (decisions §25)', () => {
  it('skips who is on the list, counts them suppressed, and reads the list a hundred recipients a BatchGetItem', async () => {
    // Prepare: summer_promo (MARKETING) approved; 2 of 10,000 recipients opted out
    const world = memoryWorld();
    world.emulator.model.findTemplate('9003')!.template.status = 'APPROVED';
    for (const record of world.templateTable.records.values())
      if (record.meta_template.id === '9003') record.meta_template = { ...record.meta_template, status: 'APPROVED' };
    const recipients = Array.from({ length: 10_000 }, (_, i) => `5215${String(i).padStart(6, '0')}`);
    await world.suppressions.add(7, { phone: recipients[3], source: 'api', at: AT });
    await world.suppressions.add(7, { phone: recipients[9_999], source: 'inbound', at: AT });
    // Act
    const answer = await sendTemplate({ ...world, now: () => AT }, agent, {
      pathDid: '5215550001',
      sendId: 's-promo',
      body: {
        did: '5215550001',
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'summer_promo', language: 'en_US' },
        recipients: recipients.map((to) => ({ to, params: { header: ['Ana'], body: ['20%'] } })),
      },
    });
    // Assess
    const jobs = world.queue.sent as unknown as DispatchJob[];
    const skipped = jobs.flatMap((job) => job.recipients.filter((r) => r.suppressed).map((r) => r.to));
    expect(answer.success).toBe(true);
    expect(skipped).toEqual([recipients[3], recipients[9_999]]);
    expect(jobs.flatMap((job) => job.recipients).find((r) => r.suppressed)).toEqual({ to: recipients[3], suppressed: true });
    expect(await getSend(world, agent, 's-promo')).toMatchObject({ total: 10_000, suppressed: 2, pending: 9_998 });
    expect(world.suppressions.batches).toEqual(Array.from({ length: 100 }, () => 100));
  });

  it('warns a MARKETING send of a template whose quality is RED (template_quality_red), and sends it', async () => {
    // Prepare: Meta rated summer_promo RED (message_template_quality_update)
    const world = memoryWorld();
    world.emulator.model.findTemplate('9003')!.template.status = 'APPROVED';
    for (const record of world.templateTable.records.values())
      if (record.meta_template.id === '9003')
        record.meta_template = { ...record.meta_template, status: 'APPROVED', quality_score: { score: 'RED' } };
    // Act
    const answer = await sendTemplate({ ...world, now: () => AT }, agent, {
      pathDid: '5215550001',
      sendId: 's-red',
      body: {
        did: '5215550001',
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'summer_promo', language: 'en_US' },
        recipients: [{ to: '5215550000001', params: { header: ['Ana'], body: ['20%'] } }],
      },
    });
    // Assess
    expect(answer.warnings).toEqual([expect.objectContaining({ code: 'template_quality_red' })]);
  });
});
