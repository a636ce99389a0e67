import { afterEach, describe, expect, it } from 'vitest';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphMessages } from '#lib/adapters/graph/graph-messages.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { graphApiVersion, settingDefault, settingProblem } from '#lib/config.ts';
import { type SettingSources, settingsFor } from '#lib/manifest/needs.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { EMULATOR_TOKEN, GraphEmulator } from '../../local/standins/graph/emulator.ts';
import { DEMO_FIXTURE } from '../support/memory/world.ts';

/**
 * The Graph API version as a setting (issue 55 item 7, decisions §34): GRAPH_API_VERSION, `vNN.N`, by default the
 * newest version whose differences the emulator speaks (docs/platform-2027.md §7), and the emulator answering each
 * version as the facts say.
 */
const NUMBER = '110001';
const order = (to: string) => ({
  messaging_product: 'whatsapp',
  to,
  type: 'template',
  template: {
    name: 'order_update',
    language: { code: 'en_US' },
    components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }],
  },
});

/** The service's Graph adapters on an emulator in process, calling the version given (the setting's default unset). */
function graphAt(version?: string) {
  const emulator = new GraphEmulator(DEMO_FIXTURE);
  const client = new GraphClient({
    baseUrl: 'http://graph.emulator',
    token: async () => EMULATOR_TOKEN,
    fetch: emulator.fetch,
    log: silentLog,
    baseDelayMs: 1,
    ...(version && { version }),
  });
  return { emulator, messages: new GraphMessages(client, new GraphUpstream(client, 'app')) };
}

/** One call to the emulator in process, as Graph's wire carries it. */
async function ask(emulator: GraphEmulator, path: string) {
  const response = await emulator.fetch(`http://graph.emulator/${path}`, { headers: { authorization: `Bearer ${EMULATOR_TOKEN}` } });
  return { status: response.status, body: (await response.json()) as { error?: { code: number; message: string } } };
}

describe('GRAPH_API_VERSION (issue 55)', () => {
  const saved = process.env.GRAPH_API_VERSION;
  afterEach(() => {
    if (saved === undefined) delete process.env.GRAPH_API_VERSION;
    else process.env.GRAPH_API_VERSION = saved;
  });

  it('reads v24.0 unset, an older version when set, and refuses what is not a version, naming the setting', () => {
    // Prepare, Act, Assess: unset, the default
    delete process.env.GRAPH_API_VERSION;
    expect(graphApiVersion()).toBe('v24.0');
    expect(settingDefault('GRAPH_API_VERSION')).toBe('v24.0');
    // Set, the version given
    process.env.GRAPH_API_VERSION = 'v23.0';
    expect(graphApiVersion()).toBe('v23.0');
    // Not a version: refused, naming the setting
    for (const wrong of ['23.0', 'v23', 'v24.0.1', 'latest', 'V24.0', 'v24.0/']) {
      process.env.GRAPH_API_VERSION = wrong;
      expect(() => graphApiVersion(), wrong).toThrow(/GRAPH_API_VERSION is invalid/);
    }
  });

  it('is given to the functions that call Graph where the deployment names it, and a wrong one fails the synth’s check', () => {
    // Prepare
    const sources = (graphApiVersion?: string) =>
      ({
        tableName: 't',
        graphApiUrl: 'https://graph.example',
        graphToken: { token: 'x' },
        metaApp: { appSecret: 's', verifyToken: 'v' },
        eventBusName: 'b',
        queueUrls: {},
        schedules: { group: 'g', queueArn: 'a', roleArn: 'r' },
        ...(graphApiVersion && { graphApiVersion }),
      }) as unknown as SettingSources;
    // Act
    const named = settingsFor({ table: 'none', upstream: true }, sources('v23.0'));
    const unnamed = settingsFor({ table: 'none', upstream: true }, sources());
    const noUpstream = settingsFor({ table: 'read' }, sources('v23.0'));
    // Assess
    expect(named.GRAPH_API_VERSION).toBe('v23.0');
    expect(unnamed).not.toHaveProperty('GRAPH_API_VERSION');
    expect(noUpstream).not.toHaveProperty('GRAPH_API_VERSION');
    expect(settingProblem('GRAPH_API_VERSION', 'v23.0')).toBeUndefined();
    expect(settingProblem('GRAPH_API_VERSION', '23')).toMatch(/GRAPH_API_VERSION is invalid/);
  });

  it('sends at the default version: the call names v24.0 and the emulator’s send response parses', async () => {
    // Prepare
    const { emulator, messages } = graphAt();
    // Act
    const answer = await messages.sendMessage(NUMBER, order('5215512340001'), 'tms1:s:0');
    // Assess: accepted with Graph's id; the emulator answered v24.0's shape, `message_status` in each `messages[]` item
    expect(answer).toEqual({ kind: 'accepted', message_id: expect.stringMatching(/^wamid\./) });
    expect(emulator.calls.at(-1)?.path).toBe(`/v24.0/${NUMBER}/messages`);
  });

  it('sends at v23.0 when set: the same send response, parsed the same (docs/platform-2027.md §7)', async () => {
    // Prepare
    const { emulator, messages } = graphAt('v23.0');
    // Act
    const answer = await messages.sendMessage(NUMBER, order('5215512340002'), 'tms1:s:0');
    const raw = await emulator.fetch(`http://graph.emulator/v23.0/${NUMBER}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${EMULATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(order('5215512340003')),
    });
    // Assess
    expect(answer).toEqual({ kind: 'accepted', message_id: expect.stringMatching(/^wamid\./) });
    expect(emulator.calls.at(-2)?.path).toBe(`/v23.0/${NUMBER}/messages`);
    expect(await raw.json()).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '5215512340003', wa_id: '5215512340003' }],
      messages: [{ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' }],
    });
  });
});

describe('the emulator per Graph version (docs/platform-2027.md §7)', () => {
  it('refuses an invalid template cursor with 131059 from v24.0 and Graph’s 100 before (upstream-facts §1.4)', async () => {
    // Prepare
    const emulator = new GraphEmulator(DEMO_FIXTURE);
    const path = (version: string) => `${version}/100200300/message_templates?after=not-a-cursor`;
    // Act
    const [v23, v24, v26] = await Promise.all(['v23.0', 'v24.0', 'v26.0'].map((version) => ask(emulator, path(version))));
    // Assess
    expect([v23.status, v23.body.error?.code]).toEqual([400, 100]);
    expect([v24.status, v24.body.error?.code]).toEqual([400, 131059]);
    expect([v26.status, v26.body.error?.code]).toEqual([400, 131059]);
  });

  it('refuses a version Meta never released as Graph does (2500), and answers one it no longer serves as its oldest', async () => {
    // Prepare
    const emulator = new GraphEmulator(DEMO_FIXTURE);
    // Act
    const unknown = await Promise.all(['v99.0', 'v24.5', 'v28.0', 'v24'].map((version) => ask(emulator, `${version}/${NUMBER}`)));
    const expired = await ask(emulator, `v20.0/${NUMBER}?fields=id`);
    const expiredCursor = await ask(emulator, 'v20.0/100200300/message_templates?after=not-a-cursor');
    // Assess
    for (const answer of unknown) {
      expect(answer.status).toBe(400);
      expect(answer.body.error?.code).toBe(2500);
      expect(answer.body.error?.message).toContain(`Unknown path components: /${NUMBER}`);
    }
    expect(expired).toEqual({ status: 200, body: { id: NUMBER } });
    expect(expiredCursor.body.error?.code).toBe(100);
  });
});
