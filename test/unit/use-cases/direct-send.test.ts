import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphMessages } from '#lib/adapters/graph/graph-messages.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { STOPPING } from '#lib/domain/sends/dispatch/launch.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { cloudMessage } from '#lib/domain/sends/cloud-message.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { Unprocessable } from '#lib/domain/shared/errors.ts';
import { editTemplate } from '#lib/domain/templates/edit-template.ts';
import { listTemplates } from '#lib/domain/templates/list-templates.ts';
import { runSync, startSync } from '#lib/domain/templates/sync.ts';
import { SendBody } from '#lib/schemas/send.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import type { GraphError } from '../../../local/standins/graph/model.ts';
import { EMULATOR_TOKEN } from '../../../local/standins/graph/emulator.ts';
import { callerOf, type MemoryWorld, memoryWorld } from '../../support/memory/world.ts';

/**
 * Direct Send (issue 55 item 2, decisions §34, docs/platform-2027.md §2) on the in-memory stores and the Graph
 * emulator in process: the request's validation, the eligibility refused before anything is reserved or queued,
 * the job's free-form message with `category`, the utility rate, and Meta's generated template listed read-only.
 */
const acme = callerOf(7, { campaigns: [31, 32] });
const NOW = '2026-11-25T10:00:00.000Z';
const DID = '5215550001';
const WABA = '100200300';
const NUMBER = '110001';
const message = { type: 'text' as const, text: { body: 'Your parcel 4411 is at the pickup point until Friday.' } };
const direct = (extra: Record<string, unknown> = {}) => ({
  did: DID,
  type: 'template',
  channel: 'MSGCHAN',
  category: 'UTILITY',
  message,
  recipients: [{ to: '5215550100' }],
  ...extra,
});

function world(status?: 'ENABLED' | 'BLOCKED') {
  const w = memoryWorld();
  if (status) w.emulator.model.wabas.get(WABA)!.direct_send = status;
  return { w, deps: { ...w, now: () => NOW } };
}

/** An interactive Direct Send with reply buttons and an image header, and one with a call-to-action URL. */
const buttons = {
  type: 'interactive' as const,
  interactive: {
    type: 'button' as const,
    header: { type: 'image' as const, image: { link: 'https://cdn.example.com/parcel.png' } },
    body: { text: 'Your parcel 4411 is at the pickup point. Pick it up today?' },
    footer: { text: 'Reply to choose' },
    action: {
      buttons: [
        { type: 'reply' as const, reply: { id: 'today', title: 'Today' } },
        { type: 'reply' as const, reply: { id: 'tomorrow', title: 'Tomorrow' } },
      ],
    },
  },
};
const ctaUrl = {
  type: 'interactive' as const,
  interactive: {
    type: 'cta_url' as const,
    header: { type: 'document' as const, document: { link: 'https://cdn.example.com/invoice.pdf', filename: 'invoice.pdf' } },
    body: { text: 'Your invoice 4411 is ready.' },
    action: { name: 'cta_url' as const, parameters: { display_text: 'Pay now', url: 'https://pay.example.com/4411' } },
  },
};
const withInteractive = (change: (i: Record<string, any>) => void, base: typeof buttons | typeof ctaUrl = buttons) => {
  const copy = structuredClone(base) as Record<string, any>;
  change(copy.interactive);
  return direct({ message: copy });
};

const recipients = (count: number) => Array.from({ length: count }, (_, i) => ({ to: `5215551${String(i).padStart(5, '0')}` }));

async function sendDirect(deps: MemoryWorld & { now: () => string }, body: Record<string, unknown>, sendId = 'ds-1') {
  return sendTemplate(deps, acme, { pathDid: DID, sendId, body: body as never });
}

describe('a Direct Send’s request (the send route’s schema)', () => {
  it.each([
    ['category and message, no template', direct(), []],
    ['a template and category', direct({ template: { name: 'order_update', language: 'es' } }), ['template']],
    ['category without message', direct({ message: undefined }), ['message']],
    ['message without category', direct({ category: undefined }), ['template', 'message']],
    ['neither a template nor category', direct({ category: undefined, message: undefined }), ['template']],
    ['a MARKETING category', direct({ category: 'MARKETING' }), ['category']],
    ['an empty body text', direct({ message: { type: 'text', text: { body: '' } } }), ['message.text.body']],
    ['a body over 1024 characters', direct({ message: { type: 'text', text: { body: 'x'.repeat(1025) } } }), ['message.text.body']],
    ['a message of another type', direct({ message: { type: 'image', text: { body: 'x' } } }), ['message.type']],
    [
      'a standalone image (not Direct Send’s)',
      direct({ message: { type: 'image', image: { link: 'https://cdn.example.com/a.png' } } }),
      ['message.type'],
    ],
    ['reply buttons with an image header', direct({ message: buttons }), []],
    ['a call-to-action URL with a document header', direct({ message: ctaUrl }), []],
    ['an interactive list (not Direct Send’s)', withInteractive((i) => (i.type = 'list')), ['message.interactive.type']],
    [
      'four reply buttons',
      withInteractive((i) => i.action.buttons.push(...[3, 4].map((n) => ({ type: 'reply', reply: { id: `b${n}`, title: `B${n}` } })))),
      ['message.interactive.action.buttons'],
    ],
    [
      'two buttons of one title',
      withInteractive((i) => (i.action.buttons[1].reply.title = 'Today')),
      ['message.interactive.action.buttons'],
    ],
    [
      'a button title over 20 characters',
      withInteractive((i) => (i.action.buttons[0].reply.title = 'x'.repeat(21))),
      ['message.interactive.action.buttons[0].reply.title'],
    ],
    [
      'a media header without its link',
      withInteractive((i) => (i.header = { type: 'video', video: {} })),
      ['message.interactive.header.video.link'],
    ],
    [
      'a media header linked over http',
      withInteractive((i) => (i.header.image.link = 'http://cdn.example.com/a.png')),
      ['message.interactive.header.image.link'],
    ],
    [
      'an audio header',
      withInteractive((i) => (i.header = { type: 'audio', audio: { link: 'https://a.example.com/a.mp3' } })),
      ['message.interactive.header.type'],
    ],
    [
      'a header text over 60 characters',
      withInteractive((i) => (i.header = { type: 'text', text: 'x'.repeat(61) })),
      ['message.interactive.header.text'],
    ],
    ['a footer over 60 characters', withInteractive((i) => (i.footer.text = 'x'.repeat(61))), ['message.interactive.footer.text']],
    [
      'a call-to-action without its URL',
      withInteractive((i) => delete i.action.parameters.url, ctaUrl),
      ['message.interactive.action.parameters.url'],
    ],
  ])('%s: refused at %j', (_name, body, paths) => {
    // Act
    const result = v.safeParse(SendBody, body);
    // Assess
    const found = result.success ? [] : [...new Set(issuesToDetails(result.issues).map((d) => d.path))];
    expect(found).toEqual(paths);
  });
});

describe('a Direct Send accepted (in memory)', () => {
  it('queues jobs that carry the category and message, priced and reserved at the utility rate', async () => {
    // Prepare
    const { w, deps } = world('ENABLED');
    const price = rateCards.priceMicros('Mexico', 'utility', '2026-11-25') / 1e6;
    // Act
    const accepted = await sendDirect(deps, direct({ recipients: recipients(3) }));
    // Assess
    expect(accepted.estimate).toMatchObject({ by_market: { Mexico: { messages: 3 } } });
    expect(accepted.estimate?.amount).toBeCloseTo(3 * price, 6);
    const job = w.queue.sent.at(-1) as unknown as DispatchJob;
    expect(job.direct).toEqual({ category: 'UTILITY', message });
    expect(job.reservation?.category).toBe('utility');
    expect(job.template).toMatchObject({ name: 'direct_send', category: 'UTILITY' });
  });

  it('is sent as Meta’s free-form message with category, which the emulator takes and makes one AUTO_GENERATED template of', async () => {
    // Prepare / Act
    const { job, messages, generated } = await sentToEmulator({ recipients: recipients(2) });
    // Assess
    expect(messages[0]).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: job.recipients[0].to,
      type: 'text',
      text: message.text,
      category: 'utility',
    });
    expect(generated).toHaveLength(1);
    expect(generated[0]).toMatchObject({ status: 'APPROVED', category: 'UTILITY', name: expect.stringMatching(/^auto_generated_text_/) });
  });

  it.each([
    ['reply buttons with an image header', buttons, 'auto_generated_interactive_', ['HEADER', 'BODY', 'FOOTER', 'BUTTONS']],
    ['a call-to-action URL with a document header', ctaUrl, 'auto_generated_interactive_', ['HEADER', 'BODY', 'BUTTONS']],
  ])('sends %s as Meta’s interactive message with category, which the emulator takes', async (_name, interactive, prefix, parts) => {
    // Prepare / Act
    const { job, messages, generated } = await sentToEmulator({ message: interactive, recipients: recipients(2) });
    // Assess
    expect(messages[0]).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: job.recipients[0].to,
      type: 'interactive',
      interactive: interactive.interactive,
      category: 'utility',
    });
    expect(generated).toHaveLength(1);
    expect(generated[0].name).toMatch(new RegExp(`^${prefix}`));
    expect(generated[0].components.map((c) => c.type)).toEqual(parts);
  });

  it('is refused by the emulator as Meta refuses what Direct Send does not take: a standalone image, four buttons', () => {
    // Prepare
    const { w } = world('ENABLED');
    const base = { messaging_product: 'whatsapp', to: '5215550100', category: 'utility' };
    const four = structuredClone(buttons) as Record<string, any>;
    four.interactive.action.buttons = [1, 2, 3, 4].map((n) => ({ type: 'reply', reply: { id: `b${n}`, title: `B${n}` } }));
    const send = (message: Record<string, unknown>) => {
      try {
        w.emulator.model.answer('POST', [NUMBER, 'messages'], {}, { ...base, ...message }, new Uint8Array(), 'https://graph/x');
        return undefined;
      } catch (error) {
        return (error as GraphError).code;
      }
    };
    // Act, Assess
    expect(send({ type: 'image', image: { link: 'https://cdn.example.com/a.png' } })).toBe(100);
    expect(send(four)).toBe(100);
    expect(send(buttons)).toBeUndefined();
  });

  it.each([
    ['not enabled', undefined, 'direct_send_not_enabled', {}],
    ['blocked (139200)', 'BLOCKED', 'direct_send_blocked', {}],
    ['AUTHENTICATION (Meta’s beta)', 'ENABLED', 'direct_send_authentication_beta', { category: 'AUTHENTICATION' }],
  ] as const)('on a WABA %s is refused with a named 422, nothing reserved or queued', async (_name, status, reason, extra) => {
    // Prepare
    const { w, deps } = world(status);
    // Act
    const refused = await sendDirect(deps, direct(extra)).catch((e: unknown) => e);
    // Assess
    expect(refused).toBeInstanceOf(Unprocessable);
    expect((refused as Unprocessable).reason).toBe(reason);
    expect(w.queue.sent).toHaveLength(0);
    expect(await w.sends.get('ds-1')).toBeNull();
  });

  it('refuses recipients’ params: a Direct Send has nothing to fill in', async () => {
    // Prepare
    const { deps } = world('ENABLED');
    // Act
    const refused = sendDirect(deps, direct({ recipients: [{ to: '5215550100', params: { body: ['x'] } }] }));
    // Assess
    await expect(refused).rejects.toMatchObject({ details: [{ path: 'recipients[0].params.body' }] });
  });
});

describe('a template Meta generated for Direct Send', () => {
  async function synced() {
    const { w, deps } = world('ENABLED');
    const m = { messaging_product: 'whatsapp', to: '5215550100', type: 'text', text: message.text, category: 'utility' };
    w.emulator.model.answer('POST', [NUMBER, 'messages'], {}, m, new Uint8Array(), 'https://graph/x');
    await startSync(w, acme, {});
    await runSync(w, w.queue.sent.at(-1) as { client_id: number; lease_id: string });
    const listed = await listTemplates(w, acme, { search: 'auto_generated' } as never);
    return { w, deps, listed: listed.data as Record<string, unknown>[] };
  }

  it('is listed after a sync, marked auto_generated', async () => {
    // Act
    const { listed } = await synced();
    // Assess
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ auto_generated: true, meta_template: { source: 'AUTO_GENERATED', status: 'APPROVED' } });
  });

  it('is never edited: a named 422 (Meta’s 2388318), without a call to Meta', async () => {
    // Prepare
    const { w, listed } = await synced();
    const calls = w.emulator.calls.length;
    // Act
    const refused = editTemplate(w, acme, {
      did: DID,
      recordId: String(listed[0].id),
      body: { components: [{ type: 'BODY', text: 'x' }] },
    });
    // Assess
    await expect(refused).rejects.toMatchObject({ reason: 'direct_send_template_read_only' });
    expect(w.emulator.calls.length).toBe(calls);
  });

  it('is refused by the emulator as Meta refuses it: edit 2388318, delete 2388330', async () => {
    // Prepare
    const { w } = await synced();
    const t = w.emulator.model.wabas.get(WABA)!.templates.find((x) => x.source === 'AUTO_GENERATED')!;
    const call = (method: string, segments: string[], query: Record<string, string>) => {
      try {
        w.emulator.model.answer(method, segments, query, { components: [] }, new Uint8Array(), 'https://graph/x');
      } catch (e) {
        return (e as GraphError).subcode;
      }
    };
    // Act, Assess
    expect(call('POST', [t.id], {})).toBe(2388318);
    expect(call('DELETE', [WABA, 'message_templates'], { name: t.name })).toBe(2388330);
  });
});

describe('Graph’s Direct Send refusals as the dispatcher meets them', () => {
  function messagesOf(w: MemoryWorld) {
    const client = new GraphClient({
      baseUrl: 'http://graph.emulator',
      token: async () => EMULATOR_TOKEN,
      fetch: w.emulator.fetch,
      log: silentLog,
      baseDelayMs: 1,
      timeoutMs: 300,
    });
    return new GraphMessages(client, new GraphUpstream(client, 'app'));
  }
  const free = { messaging_product: 'whatsapp', to: '5215550100', type: 'text', text: message.text, category: 'utility' };

  it('names 139200 (a blocked WABA), never retries it, and stops the send', async () => {
    // Prepare
    const { w } = world('BLOCKED');
    // Act
    const answer = await messagesOf(w).sendMessage(NUMBER, free, 'ref');
    // Assess
    expect(answer).toEqual({
      kind: 'refused',
      code: '139200',
      title: 'Direct Send utility or authentication access is blocked',
      retryable: false,
    });
    expect(STOPPING.has('139200')).toBe(true);
  });

  it('answers Meta’s error 100 for a WABA not enabled, as a refusal of the message', async () => {
    // Prepare
    const { w } = world();
    // Act
    const answer = await messagesOf(w).sendMessage(NUMBER, free, 'ref');
    // Assess
    expect(answer).toMatchObject({
      kind: 'refused',
      code: '100',
      retryable: false,
      title: expect.stringContaining('Direct Send isn’t enabled'),
    });
  });
});

/**
 * A Direct Send accepted on an enabled WABA, its job's messages as the dispatcher words them, each answered by the
 * emulator; and the AUTO_GENERATED templates the emulator made of them.
 */
async function sentToEmulator(request: Parameters<typeof direct>[0]) {
  const { w, deps } = world('ENABLED');
  await sendDirect(deps, direct(request));
  const job = w.queue.sent.at(-1) as unknown as DispatchJob;
  const messages = job.recipients.map((r) => cloudMessage(job, r));
  for (const m of messages) w.emulator.model.answer('POST', [NUMBER, 'messages'], {}, m, new Uint8Array(), 'https://graph/x');
  const generated = w.emulator.model.wabas.get(WABA)!.templates.filter((t) => t.source === 'AUTO_GENERATED');
  return { job, messages, generated };
}
