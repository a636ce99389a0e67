import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createTemplate, dryRunCreate } from '#lib/domain/templates/create-template.ts';
import { InvalidRequest, UpstreamRejected } from '#lib/domain/shared/errors.ts';
import { CreateTemplateBody } from '#lib/schemas/create-template.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import { GraphModel } from '../../../local/standins/graph/model.ts';
import { browseLibrary, fromLibrary } from '../../../local/standins/graph/template-library.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * Templates from Meta's library (issue 55 item 6): the request schema's rules, the use case in memory against
 * the emulator in process, and the emulator's library.
 */
const DID = '5215550001';
const WABA = '100200300';
const delivery = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  library_template_name: 'delivery_update_1',
  library_template_button_inputs: [
    { type: 'URL', url: { base_url: 'https://shop.example.com/track/{{1}}', url_suffix_example: 'https://shop.example.com/track/A1' } },
  ],
  ...extra,
});

function schemaProblems(body: unknown) {
  const parsed = v.safeParse(CreateTemplateBody, body, { abortPipeEarly: true });
  return parsed.success ? [] : issuesToDetails(parsed.issues);
}

const parsed = (body: unknown) => v.parse(CreateTemplateBody, body) as never;
const create = (world: ReturnType<typeof memoryWorld>, body: unknown) =>
  createTemplate(world, callerOf(7), { did: DID, body: parsed(body) });
const posts = (world: ReturnType<typeof memoryWorld>) => world.emulator.calls.filter((c) => c.method === 'POST');

describe('the request schema: components or a library template, exactly one', () => {
  it.each([
    ['both', delivery('x', { components: [{ type: 'BODY', text: 'Hi' }] }), 'library_template_name', 'not with components'],
    ['neither', { name: 'x', language: 'en_US', category: 'UTILITY' }, 'components', 'is required'],
    [
      'button inputs alone',
      { ...delivery('x'), library_template_name: undefined, components: [{ type: 'BODY', text: 'Hi' }] },
      'library_template_button_inputs',
      'only with library_template_name',
    ],
    [
      'body inputs alone',
      { name: 'x', language: 'en_US', category: 'UTILITY', components: [], library_template_body_inputs: {} },
      'library_template_body_inputs',
      'only with library_template_name',
    ],
    ['a bad library name', delivery('x', { library_template_name: 'Delivery Update' }), 'library_template_name', 'lower-case'],
    [
      'an unknown button type',
      delivery('x', { library_template_button_inputs: [{ type: 'QUICK_REPLY' }] }),
      'library_template_button_inputs[0].type',
      'URL, PHONE_NUMBER or OTP',
    ],
    [
      'a URL input without https',
      delivery('x', { library_template_button_inputs: [{ type: 'URL', url: { base_url: 'http://x.example/{{1}}' } }] }),
      'library_template_button_inputs[0].url.base_url',
      'https',
    ],
    [
      'a body input of another kind',
      delivery('x', { library_template_body_inputs: { add_cats: true } }),
      'library_template_body_inputs.add_cats',
      'Unknown field',
    ],
    [
      'a code expiry past 90',
      delivery('x', { library_template_body_inputs: { code_expiration_minutes: 91 } }),
      'library_template_body_inputs.code_expiration_minutes',
      '90',
    ],
  ])('%s: a 400 naming its field', (_case, body, path, message) => {
    // Act
    const problems = schemaProblems(body);
    // Assess
    expect(problems).toHaveLength(1);
    expect(problems[0].path).toBe(path);
    expect(problems[0].message).toContain(message);
  });

  it('accepts a library template with its inputs, and a template of its own as before', () => {
    expect(schemaProblems(delivery('x'))).toEqual([]);
    expect(schemaProblems({ name: 'x', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi' }] })).toEqual([]);
  });
});

describe('create from the library (use case, in memory)', () => {
  it('sends Meta’s shape (the library name and inputs, no components) and keeps the record as any other, library name and components shown', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    const created = await create(world, delivery('track_from_library'));
    // Assess
    expect(created).toMatchObject({ status: 'APPROVED', category: 'UTILITY' });
    const [post] = posts(world);
    expect(post.body).toEqual({
      name: 'track_from_library',
      language: 'en_US',
      category: 'UTILITY',
      library_template_name: 'delivery_update_1',
      library_template_button_inputs: delivery('x').library_template_button_inputs,
    });
    const [record] = await world.records.listForTemplate(WABA, created.id);
    expect(record.meta_template).toMatchObject({ id: created.id, status: 'APPROVED', library_template_name: 'delivery_update_1' });
    expect(record.meta_template.components).toEqual([
      expect.objectContaining({ type: 'BODY', text: expect.stringContaining('{{2}}') }),
      { type: 'BUTTONS', buttons: [expect.objectContaining({ type: 'URL', url: 'https://shop.example.com/track/{{1}}' })] },
    ]);
    expect(world.publisher.published.map((e) => e.type)).toEqual(['template.created']);
  });

  it('makes an AUTHENTICATION one from its OTP input and body inputs', async () => {
    // Prepare
    const world = memoryWorld();
    const body = {
      name: 'login_code_lib',
      language: 'en_US',
      category: 'AUTHENTICATION',
      library_template_name: 'verification_code_1',
      library_template_button_inputs: [{ type: 'OTP', otp_type: 'COPY_CODE' }],
      library_template_body_inputs: { add_security_recommendation: true, code_expiration_minutes: 10 },
    };
    // Act
    const created = await create(world, body);
    // Assess
    const [record] = await world.records.listForTemplate(WABA, created.id);
    expect(created.category).toBe('AUTHENTICATION');
    expect(record.meta_template.components).toEqual([
      expect.objectContaining({ type: 'BODY', text: expect.stringContaining('do not share this code') }),
      expect.objectContaining({ type: 'FOOTER', text: 'This code expires in 10 minutes.' }),
      { type: 'BUTTONS', buttons: [expect.objectContaining({ type: 'URL', url: expect.stringContaining('otp_type=COPY_CODE') })] },
    ]);
  });

  it.each([
    ['MARKETING', delivery('x', { category: 'MARKETING' }), 'category'],
    [
      'an OTP input on UTILITY',
      delivery('x', { library_template_button_inputs: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }),
      'library_template_button_inputs[0]',
    ],
    ['a header of its own', delivery('x', { header_source: 'https://cdn.example.com/a.png' }), 'header_source'],
    ['code expiry at the top', delivery('x', { code_expiration_minutes: 5 }), 'code_expiration_minutes'],
    [
      'an AUTHENTICATION body input on UTILITY',
      delivery('x', { library_template_body_inputs: { code_expiration_minutes: 5 } }),
      'library_template_body_inputs.code_expiration_minutes',
    ],
    [
      'ZERO_TAP without its terms',
      {
        ...delivery('x'),
        category: 'AUTHENTICATION',
        library_template_name: 'verification_code_1',
        library_template_button_inputs: [
          { type: 'OTP', otp_type: 'ZERO_TAP', supported_apps: [{ package_name: 'com.example.app', signature_hash: 'K8a/AINcGX7' }] },
        ],
      },
      'library_template_button_inputs[0].zero_tap_terms_accepted',
    ],
  ])('refuses %s before the upstream is called, naming its field', async (_case, body, path) => {
    // Prepare
    const world = memoryWorld();
    // Act
    const error = (await create(world, body).catch((e: unknown) => e)) as InvalidRequest;
    // Assess
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.details?.map((d) => d.path)).toContain(path);
    expect(posts(world)).toEqual([]);
  });

  it('answers the upstream’s refusal of an unknown library name, naming it, and registers nothing', async () => {
    // Prepare
    const world = memoryWorld();
    const before = world.templateTable.records.size;
    // Act
    const error = await create(world, delivery('no_such_lib', { library_template_name: 'no_such_template_9' })).catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect((error as Error).message).toContain('no_such_template_9');
    expect(world.templateTable.records.size).toBe(before);
  });

  it('checks a library template in a dry run without calling the upstream', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    const result = await dryRunCreate(world, callerOf(7), { did: DID, body: parsed(delivery('dry_lib')) });
    // Assess
    expect(result).toEqual({ valid: true, errors: [], review_warnings: [] });
    expect(posts(world)).toEqual([]);
  });
});

describe('the emulator’s template library', () => {
  it('takes Meta’s own example form of the button inputs, a JSON-ish string', () => {
    // Act
    const made = fromLibrary({
      category: 'UTILITY',
      library_template_name: 'payment_reminder_1',
      library_template_button_inputs: `[
        {'type': 'URL', 'url': {'base_url' : 'https://www.example.com/{{1}}', 'url_suffix_example' : 'https://www.example.com/demo'}},
        {type: 'PHONE_NUMBER', 'phone_number': '+16315551010'}
      ]`,
    });
    // Assess
    expect(made.components.at(-1)).toEqual({
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Pay now', url: 'https://www.example.com/{{1}}', example: ['https://www.example.com/demo'] },
        { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+16315551010' },
      ],
    });
  });

  it.each([
    ['a URL button without its input', { library_template_name: 'delivery_update_1' }, 'needs a URL button input'],
    [
      'an input with no button',
      { library_template_name: 'order_confirmation_1', library_template_button_inputs: [{ type: 'PHONE_NUMBER', phone_number: '+1555' }] },
      'has no PHONE_NUMBER button',
    ],
    ['MARKETING', { library_template_name: 'order_confirmation_1', category: 'MARKETING' }, 'UTILITY or AUTHENTICATION'],
    ['components beside the name', { library_template_name: 'order_confirmation_1', components: [] }, 'components cannot be given'],
  ])('refuses %s with Graph’s error 100', (_case, body, message) => {
    // Act
    const error = (() => {
      try {
        fromLibrary({ category: 'UTILITY', ...body });
      } catch (e) {
        return e as { code: number; userMessage: string };
      }
    })();
    // Assess
    expect(error?.code).toBe(100);
    expect(error?.userMessage).toContain(message);
  });

  it('browses the library by search, use case and language', () => {
    expect(browseLibrary({ search: 'order' }).data.map((e) => e.name)).toEqual(['delivery_update_1', 'order_confirmation_1']);
    expect(browseLibrary({ usecase: 'verification' }).data.map((e) => e.name)).toEqual(['verification_code_1']);
    expect(browseLibrary({ language: 'pt_BR' }).data).toEqual([]);
  });

  it('lists a library template with its library name, approved', () => {
    // Prepare
    const model = new GraphModel({
      wabas: [{ waba_id: 'w1', waba_name: 'W', namespace: 'ns', templates: [], catalogs: [] }],
      channels: [],
    } as never);
    const body = { name: 'shipped', language: 'en_US', category: 'utility', library_template_name: 'order_confirmation_1' };
    // Act
    model.answer('POST', ['w1', 'message_templates'], {}, body, new Uint8Array(), 'http://graph/w1/message_templates');
    const listed = model.answer(
      'GET',
      ['w1', 'message_templates'],
      { name: 'shipped' },
      undefined,
      new Uint8Array(),
      'http://graph/w1/message_templates',
    );
    // Assess
    expect(listed).toMatchObject({
      data: [{ name: 'shipped', status: 'APPROVED', category: 'UTILITY', library_template_name: 'order_confirmation_1' }],
    });
  });
});
