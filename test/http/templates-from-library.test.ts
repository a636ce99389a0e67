import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, token } from '../support/api.ts';
import { seedDirectory, waba } from '../support/seed.ts';

/**
 * Templates from Meta's Template Library through the stack (issue 55 item 6, docs/platform-2027.md §6).
 * Client 686 owns DID 686001 on WABA w686, a WABA of its own in the directory and the emulator.
 */
const C = 686;
const DID = '686001';
const WABA = 'w686';
const suffix = () => Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: C, client_name: 'Library Shop' }],
    wabas: [waba(WABA, [])],
    channels: [{ wa_id: DID, client_id: C, waba_id: WABA }],
  });
  await emulator('POST', 'wabas', { id: WABA, templates: [] });
});

const agent = () => token({ clientId: C, campaigns: [1], sub: 'lib-agent' });
const create = async (body: unknown, query = '') => call('POST', `/v1/templates/${DID}${query}`, { token: await agent(), body });
const listed = async (name: string) =>
  (await call('GET', `/v1/templates?client_id=${C}&name=${name}`, { token: await token({ clientId: 1, bsp: true }) })).body.data as Record<
    string,
    any
  >[];

/** The calls to this WABA's templates the emulator took (read, never cleared: other files share the emulator). */
const templatePosts = async () =>
  ((await emulator('GET', `calls?path=/${WABA}/message_templates`)).calls as { method: string; body?: Record<string, unknown> }[]).filter(
    (c) => c.method === 'POST',
  );

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

describe('POST /v1/templates/{did} from the template library', () => {
  it('creates it at the upstream in Meta’s shape, approved, and lists it with its library name and the library’s components', async () => {
    // Prepare
    const name = `track_lib_${suffix()}`;
    // Act
    const response = await create(delivery(name));
    const [entry] = await listed(name);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: expect.any(String), status: 'APPROVED', category: 'UTILITY' });
    const post = (await templatePosts()).find((c) => c.body?.name === name);
    expect(post?.body).toEqual({
      name,
      language: 'en_US',
      category: 'UTILITY',
      library_template_name: 'delivery_update_1',
      library_template_button_inputs: delivery(name).library_template_button_inputs,
    });
    expect(entry).toMatchObject({ client_id: C, waba_id: WABA, active: false, channel_campaigns: [] });
    expect(entry.meta_template).toMatchObject({
      id: response.body.id,
      name,
      status: 'APPROVED',
      category: 'UTILITY',
      library_template_name: 'delivery_update_1',
    });
    expect(entry.meta_template.components.map((c: { type: string }) => c.type)).toEqual(['BODY', 'BUTTONS']);
  });

  it('answers 400 upstream_rejected naming an unknown library template, and registers nothing', async () => {
    // Prepare
    const name = `unknown_lib_${suffix()}`;
    // Act
    const response = await create(delivery(name, { library_template_name: 'no_such_library_template' }));
    // Assess
    const error = expectErrorShape(response, 400, 'upstream_rejected');
    expect(error.message).toContain('no_such_library_template');
    expect(await listed(name)).toEqual([]);
  });

  it('answers 400 naming library_template_name when components are given too, before the upstream', async () => {
    // Prepare
    const name = `both_lib_${suffix()}`;
    // Act
    const response = await create(delivery(name, { components: [{ type: 'BODY', text: 'Order shipped' }] }));
    // Assess
    const error = expectErrorShape(response, 400);
    expect(error.details).toEqual([
      { path: 'library_template_name', message: 'not with components: a library template takes its content from Meta’s library' },
    ]);
    expect((await templatePosts()).filter((c) => c.body?.name === name)).toEqual([]);
  });

  it('answers 400 naming each input a library template refuses: a missing button input (Graph’s), an OTP input on UTILITY (ours)', async () => {
    // Act
    const missing = await create(delivery(`no_inputs_${suffix()}`, { library_template_button_inputs: undefined }));
    const otp = await create(
      delivery(`otp_util_${suffix()}`, { library_template_button_inputs: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }),
    );
    // Assess
    expect(expectErrorShape(missing, 400, 'upstream_rejected').message).toContain('needs a URL button input');
    expect(expectErrorShape(otp, 400).details).toEqual([
      { path: 'library_template_button_inputs[0]', message: 'OTP inputs belong to AUTHENTICATION library templates' },
    ]);
  });

  it('checks a library template in a dry run without making it', async () => {
    // Prepare
    const name = `dry_lib_${suffix()}`;
    // Act
    const response = await create(delivery(name), '?dry_run=true');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ valid: true, errors: [], review_warnings: [] });
    expect(await listed(name)).toEqual([]);
  });
});
