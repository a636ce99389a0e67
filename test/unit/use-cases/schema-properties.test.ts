import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addAssignments, replaceAssignments } from '#lib/domain/templates/assignments.ts';
import { changeTemplateStatus } from '#lib/domain/templates/bulk-status.ts';
import { createTemplate } from '#lib/domain/templates/create-template.ts';
import { editTemplate } from '#lib/domain/templates/edit-template.ts';
import { DomainError } from '#lib/domain/shared/errors.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { startSync } from '#lib/domain/templates/sync.ts';
import { setWebhookConfig } from '#lib/domain/webhooks/webhook-config.ts';
import { AddChannelCampaigns, ReplaceChannelCampaigns } from '#lib/manifest/routes/assignments.ts';
import { ChangeTemplateStatus, CreateTemplate, EditTemplate, SyncTemplates } from '#lib/manifest/routes/templates.ts';
import { PutWebhookConfig } from '#lib/manifest/routes/webhooks.ts';
import { SendTemplate } from '#lib/manifest/routes/sends.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';
import { validUtilityTemplate } from '../../support/template-rule-cases.ts';

/**
 * Each route's body schema against its use case: whatever the schema lets through, the use case answers
 * with a result or a domain error (a 4xx/502 at the edge), never anything else (a 500).
 */
const acme = callerOf(7, { campaigns: [31, 32] });
const RECORD = '65a1b2c3d4e5f60718293a4b';
const valid: Record<string, Record<string, unknown>> = {
  create: validUtilityTemplate('prop_template'),
  library: {
    name: 'prop_library',
    language: 'en_US',
    category: 'UTILITY',
    library_template_name: 'delivery_update_1',
    library_template_button_inputs: [
      { type: 'URL', url: { base_url: 'https://shop.example.com/{{1}}', url_suffix_example: 'https://shop.example.com/a' } },
    ],
    library_template_body_inputs: { add_track_package_link: true },
  },
  edit: { components: [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['x']] } }] },
  send: {
    did: '5215550001',
    type: 'template',
    channel: 'MSGCHAN',
    template: { name: 'order_update', language: 'es' },
    recipients: [{ to: '5215550009', params: { body: ['a'] } }],
  },
  /** A Direct Send (issue 55 item 2): category and message instead of a template. */
  direct: {
    did: '5215550001',
    type: 'template',
    channel: 'MSGCHAN',
    category: 'UTILITY',
    message: { type: 'text', text: { body: 'Your parcel is at the pickup point.' } },
    recipients: [{ to: '5215550009' }],
  },
  /** An A/B send that tests first (decisions §33): variants instead of a template. */
  ab: {
    did: '5215550001',
    type: 'template',
    channel: 'MSGCHAN',
    variants: [
      { template: 'order_update', language: 'es', weight: 1 },
      { template: 'order_update', language: 'en_US', weight: 2 },
    ],
    test: { share: 0.2, wait_seconds: 3600, metric: 'read' },
    recipients: [{ to: '5215550009', params: { body: ['a'] } }],
  },
  /** An interactive Direct Send (issue 55): reply buttons under an image header. */
  directInteractive: {
    did: '5215550001',
    type: 'template',
    channel: 'MSGCHAN',
    category: 'UTILITY',
    message: {
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'image', image: { link: 'https://cdn.example.com/parcel.png' } },
        body: { text: 'Pick up today?' },
        action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }] },
      },
    },
    recipients: [{ to: '5215550009' }],
  },
  assignments: { channel_campaigns: [{ channel_id: 41, campaign_id: 31 }] },
  status: { action: 'enable', templates: [RECORD] },
  webhook: { url: 'https://hooks.example.com/in' },
  sync: {},
};
/** Anything, or a valid body with one field (or a new one) replaced by anything. */
const bodyFor = (base: Record<string, unknown>) =>
  fc.oneof(
    fc.constant(base),
    fc.jsonValue(),
    fc
      .tuple(fc.constantFrom(...Object.keys(base), 'template', 'category', 'message', 'variants', 'test', 'extra'), fc.jsonValue())
      .map(([k, value]) => ({ ...base, [k]: value })),
  );

type UseCase = (world: ReturnType<typeof memoryWorld>, body: never) => Promise<unknown>;
const cases: [string, v.GenericSchema, Record<string, unknown>, UseCase][] = [
  ['create', CreateTemplate.request.body, valid.create, (w, body) => createTemplate(w, acme, { did: '5215550001', body })],
  [
    'create from the library',
    CreateTemplate.request.body,
    valid.library,
    (w, body) => createTemplate(w, acme, { did: '5215550001', body }),
  ],
  ['edit', EditTemplate.request.body, valid.edit, (w, body) => editTemplate(w, acme, { did: '5215550001', recordId: RECORD, body })],
  ['send', SendTemplate.request.body, valid.send, (w, body) => sendTemplate(w, acme, { pathDid: '5215550001', sendId: 's', body })],
  [
    'direct send, on a WABA Meta enabled',
    SendTemplate.request.body,
    valid.direct,
    (w, body) => {
      w.emulator.model.wabas.get('100200300')!.direct_send = 'ENABLED';
      return sendTemplate(w, acme, { pathDid: '5215550001', sendId: 'd', body });
    },
  ],
  ['A/B send', SendTemplate.request.body, valid.ab, (w, body) => sendTemplate(w, acme, { pathDid: '5215550001', sendId: 'ab', body })],
  [
    'interactive direct send, on a WABA Meta enabled',
    SendTemplate.request.body,
    valid.directInteractive,
    (w, body) => {
      w.emulator.model.wabas.get('100200300')!.direct_send = 'ENABLED';
      return sendTemplate(w, acme, { pathDid: '5215550001', sendId: 'i', body });
    },
  ],
  ['add assignments', AddChannelCampaigns.request.body, valid.assignments, (w, body) => addAssignments(w, acme, RECORD, body)],
  ['replace assignments', ReplaceChannelCampaigns.request.body, valid.assignments, (w, body) => replaceAssignments(w, acme, RECORD, body)],
  ['bulk status', ChangeTemplateStatus.request.body, valid.status, (w, body) => changeTemplateStatus(w, acme, body)],
  [
    'webhook config',
    PutWebhookConfig.request.body,
    valid.webhook,
    (w, body) => setWebhookConfig({ store: w.webhooks, resolve: w.resolve }, acme, body),
  ],
  ['sync', SyncTemplates.request.body, valid.sync, (w, body) => startSync(w, acme, body)],
];

describe('body schemas against their use cases', () => {
  it.each(cases)('%s: anything the schema accepts gets a result or a domain error', async (_name, schema, base, run) => {
    const world = memoryWorld();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(bodyFor(base), async (input) => {
        const parsed = v.safeParse(schema, input);
        if (!parsed.success) return;
        accepted++;
        const outcome = await run(world, parsed.output as never).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (outcome !== undefined) expect(outcome, String(outcome)).toBeInstanceOf(DomainError);
      }),
      { numRuns: 150 },
    );
    expect(accepted).toBeGreaterThan(0);
  });
});
