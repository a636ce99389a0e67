import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef } from '#lib/manifest/route.ts';
import { routes } from '#lib/manifest/routes.ts';
import { type ApiResponse, apiUrl, call, token } from '../support/api.ts';
import { agentOf, type Secrets, seedTenants, type Tenant } from '../support/tenancy-world.ts';

/**
 * Who sees what, for every route of the manifest (issue 52 item 7, decisions §1, §32). Clients 665 and 666 each
 * have a WABA, a number, a template, a delivered send, a budget, a price list, a webhook and a suppression. Each
 * route is asked by BSP_CN, by 665's agent, by 665's agent without campaigns and by 666's agent (the stranger)
 * for 665's things, and by 665's agent and BSP_CN naming 666's id wherever the route takes one (path, query,
 * body). Every answer has the status its row declares, the contract's error shape when it is an error, and
 * nothing of the client the caller did not name: no id, number, BSUID, name, secret or money figure of it.
 */

/** What a case asks: the route's path parameters, query, body and headers (the method and path are the manifest's). */
interface Ask {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}
/** A status, or the statuses a race between the cases may give (a sync already running, a replay already queued). */
type Status = number | readonly number[];
/** A request naming another client's id in one place, with what an agent and BSP_CN are answered. */
interface Foreign {
  ask: (own: Tenant, other: Tenant) => Ask;
  agent: Status;
  bsp: Status;
}
interface Row {
  /** The request naming the tenant's own things. */
  ask: (t: Tenant) => Ask;
  bsp: Status;
  agent: Status;
  /** The tenant's agent with no campaign in its token (the agent's status unless said). */
  noCampaign?: Status;
  /** Another client's agent asking for the tenant's things. */
  stranger: Status;
  /** Another client's id where the route takes one, by where it is. */
  foreign?: Record<string, Foreign>;
  /** BSP_CN's answer covers every client by design (the gaps report): not searched for the other client. */
  bspSeesAll?: true;
  /** Types the route also renders (CSV): the agent's own request asked for each, and searched as text. */
  renders?: readonly string[];
}

const today = () => new Date().toISOString().slice(0, 10);
const month = () => today().slice(0, 7);
const withClient = (t: Tenant, extra: Record<string, string> = {}) => ({ query: { client_id: String(t.clientId), ...extra } });
/** A route read by client_id in its query: another client's is 403 to an agent, the other client's to BSP_CN. */
const byClientQuery = (extra: Record<string, string> = {}, ok = 200): Row => ({
  ask: (t) => withClient(t, extra),
  bsp: ok,
  agent: ok,
  stranger: 403,
  foreign: { 'client_id in query': { ask: (_, o) => withClient(o, extra), agent: 403, bsp: ok } },
});
/** A route of /v1/clients/{client_id}/…: another client's is 403 to an agent. */
const byClientPath = (statuses: { bsp: Status; agent: Status; foreignBsp: Status }, extra: (t: Tenant) => Ask = () => ({})): Row => ({
  ask: (t) => ({ ...extra(t), path: { client_id: String(t.clientId), month: month() } }),
  bsp: statuses.bsp,
  agent: statuses.agent,
  stranger: 403,
  foreign: {
    'client_id in path': {
      ask: (_, o) => ({ ...extra(o), path: { client_id: String(o.clientId), month: month() } }),
      agent: 403,
      bsp: statuses.foreignBsp,
    },
  },
});
/** A send named by its id: another client's is 404 (decisions §12). */
const bySendId = (own: Status, extra: Ask = {}): Row => ({
  ask: (t) => ({ ...extra, path: { send_id: t.sendId } }),
  bsp: own,
  agent: own,
  stranger: 404,
  foreign: { 'send_id in path': { ask: (_, o) => ({ ...extra, path: { send_id: o.sendId } }), agent: 404, bsp: own } },
});
/** A public route: the same answer whoever calls. */
const publicRow = (status: number, ask: Ask = {}): Row => ({ ask: () => ask, bsp: status, agent: status, stranger: status });

const templateDraft = { name: 'matrix_probe', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hi there' }] };
const sendBody = (t: Tenant, did = t.did, extra: Record<string, unknown> = {}) => ({
  did,
  type: 'template',
  channel: 'MSGCHAN',
  template: { name: t.templateName, language: 'en_US' },
  recipients: [{ to: t.phone, params: { body: ['x'] } }],
  ...extra,
});
const pairOf = (t: Tenant, campaign = t.campaignId) => ({ channel_campaigns: [{ channel_id: t.channelId, campaign_id: campaign }] });
const assignment = (own: Status): Row => ({
  ask: (t) => ({ path: { id: t.record }, body: pairOf(t) }),
  bsp: own,
  agent: own,
  stranger: 404,
  foreign: {
    // BSP_CN acts for its token's client unless it names another: a record of a WABA that client does not hold is 403.
    'record in path': { ask: (t, o) => ({ path: { id: o.record }, body: pairOf(t) }), agent: 404, bsp: 403 },
    'pair in body': { ask: (t, o) => ({ path: { id: t.record }, body: pairOf(o) }), agent: 400, bsp: 400 },
    'client_id in body': {
      ask: (t, o) => ({ path: { id: t.record }, body: { ...pairOf(t), client_id: o.clientId } }),
      agent: 403,
      bsp: 403,
    },
  },
});

/** An onboarding no one has (issue 55): BSP_CN is told 404, an agent 403 before anything is read. */
const NO_ONBOARDING = '0123456789abcdef0123456789abcdef';
const onboardingRow = (body?: unknown): Row => ({
  ask: (t) => ({ path: { client_id: String(t.clientId), onboarding_id: NO_ONBOARDING }, ...(body !== undefined && { body }) }),
  bsp: 404,
  agent: 403,
  stranger: 403,
  foreign: {
    'client_id in path': {
      ask: (_, o) => ({ path: { client_id: String(o.clientId), onboarding_id: NO_ONBOARDING }, ...(body !== undefined && { body }) }),
      agent: 403,
      bsp: 404,
    },
  },
});

/** Every route of the manifest, by name, and what each caller is answered. */
const MATRIX: Record<string, Row> = {
  ListClientMsgChannels: byClientQuery(),
  // Onboarding (issue 55): BSP_CN or the client's admin; a code Meta never gave fails at its exchange (200, `failed`).
  // Another client's admin, a real onboarding, max-price and Direct Send sends and a library template, walked with
  // the same rule (403 for a client path, 404 for a thing by its id): test/http/tenancy-2027.test.ts.
  StartOnboarding: byClientPath({ bsp: 200, agent: 403, foreignBsp: 200 }, (t) => ({
    body: { code: `matrix-probe-${t.clientId}`, waba_id: '1', phone_number_id: '2', pin: '123456' },
  })),
  ResumeOnboarding: onboardingRow({}),
  GetOnboarding: onboardingRow(),
  PutWebhookConfig: {
    ask: (t) => ({ body: { url: t.webhookUrl, active: true, client_id: t.clientId } }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: {
      'client_id in body': { ask: (_, o) => ({ body: { url: o.webhookUrl, active: true, client_id: o.clientId } }), agent: 403, bsp: 200 },
    },
  },
  GetWebhookConfig: byClientQuery(),
  RotateWebhookSecret: {
    ask: (t) => ({ body: { client_id: t.clientId } }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: { 'client_id in body': { ask: (_, o) => ({ body: { client_id: o.clientId } }), agent: 403, bsp: 200 } },
  },
  ListWebhookDeliveries: byClientQuery(),
  ReplayWebhookDelivery: {
    ask: (t) => ({ path: { id: t.deliveryId } }),
    bsp: [202, 409],
    agent: [202, 409],
    stranger: 404,
    // The route takes no client: BSP_CN replays any client's delivery, as it reads any client's send.
    foreign: { 'id in path': { ask: (_, o) => ({ path: { id: o.deliveryId } }), agent: 404, bsp: [202, 409] } },
  },
  ListCatalogs: {
    ask: (t) => ({ path: { did: t.did }, ...withClient(t) }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: {
      'did in path': { ask: (_, o) => ({ path: { did: o.did } }), agent: 403, bsp: 403 },
      'client_id in query': { ask: (t, o) => ({ path: { did: t.did }, ...withClient(o) }), agent: 403, bsp: 403 },
    },
  },
  ListProducts: {
    ask: (t) => ({ path: { did: t.did }, ...withClient(t, { catalog_id: 'matrix-catalog' }) }),
    bsp: 404,
    agent: 404,
    stranger: 403,
    foreign: {
      'did in path': { ask: (_, o) => ({ path: { did: o.did }, query: { catalog_id: 'matrix-catalog' } }), agent: 403, bsp: 403 },
      'client_id in query': {
        ask: (t, o) => ({ path: { did: t.did }, ...withClient(o, { catalog_id: 'matrix-catalog' }) }),
        agent: 403,
        bsp: 403,
      },
    },
  },
  ListTemplates: { ...byClientQuery({ size: '50' }), noCampaign: 400 },
  ChangeTemplateStatus: {
    ask: (t) => ({ body: { templates: [{ id: t.record, action: 'enable' }] } }),
    bsp: 200,
    agent: 200,
    stranger: 200,
    foreign: {
      'record in body': { ask: (_, o) => ({ body: { templates: [{ id: o.record, action: 'enable' }] } }), agent: 200, bsp: 200 },
    },
  },
  CreateTemplate: {
    ask: (t) => ({ path: { id: t.did }, query: { dry_run: 'true' }, body: templateDraft }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: {
      'did in path': { ask: (_, o) => ({ path: { id: o.did }, query: { dry_run: 'true' }, body: templateDraft }), agent: 403, bsp: 403 },
      'client_id in query': {
        ask: (t, o) => ({ path: { id: t.did }, ...withClient(o, { dry_run: 'true' }), body: templateDraft }),
        ...{ agent: 403, bsp: 403 },
      },
      'client_id in body': {
        ask: (t, o) => ({ path: { id: t.did }, query: { dry_run: 'true' }, body: { ...templateDraft, client_id: o.clientId } }),
        ...{ agent: 403, bsp: 403 },
      },
    },
  },
  EditTemplate: {
    ask: (t) => ({
      path: { id: t.did, messageTemplateId: t.record },
      query: { dry_run: 'true' },
      body: { components: templateDraft.components },
    }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: {
      'did in path': {
        ask: (t, o) => ({
          path: { id: o.did, messageTemplateId: t.record },
          query: { dry_run: 'true' },
          body: { components: templateDraft.components },
        }),
        ...{ agent: 403, bsp: 403 },
      },
      'record in path': {
        ask: (t, o) => ({
          path: { id: t.did, messageTemplateId: o.record },
          query: { dry_run: 'true' },
          body: { components: templateDraft.components },
        }),
        ...{ agent: 404, bsp: 404 },
      },
    },
  },
  SyncTemplates: {
    ask: (t) => ({ body: { client_id: t.clientId } }),
    bsp: [200, 409],
    agent: [200, 409],
    stranger: 403,
    foreign: { 'client_id in body': { ask: (_, o) => ({ body: { client_id: o.clientId } }), agent: 403, bsp: [200, 409] } },
  },
  GetSyncStatus: byClientQuery(),
  GetChannelCampaignsGrouped: {
    ask: (t) => ({ path: { id: t.record } }),
    bsp: 200,
    agent: 200,
    stranger: 404,
    // The route takes no client: BSP_CN reads any template's assignments.
    foreign: { 'record in path': { ask: (_, o) => ({ path: { id: o.record } }), agent: 404, bsp: 200 } },
  },
  AddChannelCampaigns: assignment(201),
  ReplaceChannelCampaigns: assignment(200),
  RemoveChannelCampaigns: {
    // A pair the template does not hold: nothing is removed, whoever asks.
    ask: (t) => ({ path: { id: t.record }, query: { channel_id: String(t.channelId), campaign_id: String(t.spareCampaignId) } }),
    bsp: 404,
    agent: 404,
    stranger: 404,
    foreign: {
      'record in path': {
        ask: (t, o) => ({ path: { id: o.record }, query: { channel_id: String(t.channelId), campaign_id: String(t.spareCampaignId) } }),
        ...{ agent: 404, bsp: 403 },
      },
      'client_id in query': {
        ask: (t, o) => ({
          path: { id: t.record },
          ...withClient(o, { channel_id: String(t.channelId), campaign_id: String(t.spareCampaignId) }),
        }),
        ...{ agent: 403, bsp: 403 },
      },
    },
  },
  SendTemplate: {
    ask: (t) => ({ path: { did: t.did }, query: { dry_run: 'true' }, body: sendBody(t) }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: {
      'did in path': {
        ask: (t, o) => ({ path: { did: o.did }, query: { dry_run: 'true' }, body: sendBody(t, o.did) }),
        agent: 403,
        bsp: 403,
      },
      'did in body': {
        ask: (t, o) => ({ path: { did: t.did }, query: { dry_run: 'true' }, body: sendBody(t, o.did) }),
        agent: 422,
        bsp: 422,
      },
      'client_id in body': {
        ask: (t, o) => ({ path: { did: t.did }, query: { dry_run: 'true' }, body: sendBody(t, t.did, { client_id: o.clientId }) }),
        ...{ agent: 403, bsp: 403 },
      },
    },
  },
  GetSend: bySendId(200),
  ListSendRecipients: bySendId(200),
  CancelSend: bySendId(409),
  ListSends: byClientQuery(),
  ResendSend: bySendId(409, { query: { dry_run: 'true' }, body: { which: 'failed' } }),
  // Which template worked (decisions §33): a send's as its status, a client's templates' as its usage.
  GetSendPerformance: bySendId(200),
  GetTemplatePerformance: { ...byClientQuery({ from: today(), to: today() }), renders: ['text/csv'] },
  GetUsage: { ...byClientQuery({ from: today(), to: today(), group_by: 'market,category,did' }), renders: ['text/csv'] },
  GetUsageGaps: { ask: () => ({ query: { from: today(), to: today() } }), bsp: 200, agent: 403, stranger: 403, bspSeesAll: true },
  PutBudget: byClientPath({ bsp: 200, agent: 403, foreignBsp: 200 }, (t) => ({ body: { monthly_amount: t.budget } })),
  GetBudget: byClientPath({ bsp: 200, agent: 200, foreignBsp: 200 }),
  // Issue 56: BSP_CN or the client's administrator sets the cap (the matrix's agent is not one), anyone of the client reads it.
  PutFrequencyCap: byClientPath({ bsp: 200, agent: 403, foreignBsp: 200 }, () => ({ body: { marketing: null } })),
  GetFrequencyCap: byClientPath({ bsp: 200, agent: 200, foreignBsp: 200 }),
  GetStatement: { ...byClientPath({ bsp: 200, agent: 200, foreignBsp: 200 }), renders: ['text/csv'] },
  // A list in force is never replaced: the same list again is 409 to BSP_CN.
  PutPriceList: byClientPath({ bsp: 409, agent: 403, foreignBsp: 409 }, (t) => ({
    body: { effective_from: today(), currency: 'USD', markup_percent: 20, prices: { Mexico: { marketing: t.fixedPrice } } },
  })),
  GetPriceList: byClientPath({ bsp: 200, agent: 200, foreignBsp: 200 }),
  ListSuppressions: byClientQuery(),
  GetSuppression: {
    ask: (t) => ({ path: { person: t.suppressedPhone }, ...withClient(t) }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: {
      'person in path': { ask: (t, o) => ({ path: { person: o.suppressedPhone }, ...withClient(t) }), agent: 404, bsp: 404 },
      'client_id in query': { ask: (t, o) => ({ path: { person: t.suppressedPhone }, ...withClient(o) }), agent: 403, bsp: 404 },
    },
  },
  AddSuppression: {
    ask: (t) => ({ body: { phone: t.suppressedPhone, user_id: t.suppressedBsuid, client_id: t.clientId } }),
    bsp: 200,
    agent: 200,
    stranger: 403,
    foreign: {
      'client_id in body': {
        ask: (_, o) => ({ body: { phone: o.suppressedPhone, user_id: o.suppressedBsuid, client_id: o.clientId } }),
        ...{ agent: 403, bsp: 200 },
      },
    },
  },
  RemoveSuppression: {
    // A person on no list: nothing is removed; another client's listed person is answered the same.
    ask: (t) => ({ path: { person: t.unlistedPhone }, ...withClient(t) }),
    bsp: 404,
    agent: 404,
    stranger: 403,
    foreign: {
      'person in path': { ask: (t, o) => ({ path: { person: o.suppressedPhone }, ...withClient(t) }), agent: 404, bsp: 404 },
      'client_id in query': { ask: (t, o) => ({ path: { person: t.unlistedPhone }, ...withClient(o) }), agent: 403, bsp: 404 },
    },
  },
  VerifyMetaWebhook: publicRow(403, { query: { 'hub.mode': 'subscribe', 'hub.challenge': '4711', 'hub.verify_token': 'not-it' } }),
  // Unsigned: 401 whoever calls (decisions §13).
  ReceiveMetaWebhook: publicRow(401, { body: { object: 'whatsapp_business_account', entry: [] } }),
  GetOpenApi: publicRow(200),
  GetApiDocs: publicRow(200),
  GetConsole: publicRow(200),
};

/** One request of the matrix: who asks, what, what it must be answered, and which client it must say nothing of. */
interface Case {
  label: string;
  caller: () => Promise<string>;
  ask: Ask;
  status: Status;
  /** The client whose things must not appear in the answer (unless the request itself named them). */
  mustNotShow?: Tenant;
  /** The caller's own client: figures equal to its own are its own, whoever else has them. */
  callerClient: Tenant;
}

function casesOf(row: Row, a: Tenant, b: Tenant): Case[] {
  const bsp = () => token({ clientId: a.clientId, bsp: true });
  const agent = () => agentOf(a);
  const noCampaign = () => token({ clientId: a.clientId, campaigns: [] });
  const stranger = () => agentOf(b);
  const own = row.ask(a);
  const cases: Case[] = [
    { label: 'BSP_CN, own ids', caller: bsp, ask: own, status: row.bsp, mustNotShow: row.bspSeesAll ? undefined : b, callerClient: a },
    { label: 'agent, own ids', caller: agent, ask: own, status: row.agent, mustNotShow: b, callerClient: a },
    {
      label: 'agent without campaigns',
      caller: noCampaign,
      ask: own,
      status: row.noCampaign ?? row.agent,
      mustNotShow: b,
      callerClient: a,
    },
    { label: "other client's agent", caller: stranger, ask: own, status: row.stranger, mustNotShow: a, callerClient: b },
    ...(row.renders ?? []).map((type) => ({
      label: `agent, own ids, as ${type}`,
      caller: agent,
      ask: { ...own, headers: { accept: type } },
      status: row.agent,
      mustNotShow: b,
      callerClient: a,
    })),
  ];
  for (const [where, foreign] of Object.entries(row.foreign ?? {})) {
    const ask = foreign.ask(a, b);
    cases.push({ label: `agent, other client's ${where}`, caller: agent, ask, status: foreign.agent, mustNotShow: b, callerClient: a });
    // BSP_CN may act for any client: what it asked of the other client is its to see.
    cases.push({ label: `BSP_CN, other client's ${where}`, caller: bsp, ask, status: foreign.bsp, callerClient: a });
  }
  return cases;
}

const urlOf = (route: RouteDef, ask: Ask) => {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ask.path?.[name] ?? 'x'));
  return ask.query ? `${path}?${new URLSearchParams(ask.query)}` : path;
};

/** Every value of a JSON answer with the key it sits under. */
function* entries(value: unknown, key = ''): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const item of value) yield* entries(item, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* entries(v, k);
  else yield [key, value];
}

const micros = (amount: number) => Math.round(amount * 1e6);

/** What of `secrets` an answer shows that its request did not name (figures the caller has too are its own). */
function leaksIn(answer: unknown, secrets: Secrets, asked: string, own: Secrets): string[] {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer ?? '');
  const named = (value: string | number) => asked.includes(String(value));
  const ownMoney = new Set(own.money.map(micros));
  const money = secrets.money.filter((m) => !ownMoney.has(micros(m)) && !named(m));
  const found = secrets.texts.filter((secret) => !named(secret) && text.includes(secret)).map((s) => `text ${s}`);
  if (typeof answer === 'string') {
    found.push(...money.filter((m) => text.includes(String(m)) || text.includes(m.toFixed(6))).map((m) => `figure ${m}`));
    return found;
  }
  for (const [key, value] of entries(answer)) {
    if (typeof value !== 'number' && typeof value !== 'string') continue;
    const number = Number(value);
    if (/client|campaign|channel/.test(key) && secrets.ids.includes(number) && !named(number)) found.push(`${key} ${value}`);
    if (typeof value === 'number' && money.some((m) => micros(m) === micros(value))) found.push(`figure ${key} ${value}`);
  }
  return found;
}

/** An answer as another type than JSON (CSV), its body as text: `call` checks JSON bodies against the schema. */
async function rendered(method: string, path: string, options: { token: string; headers?: Record<string, string> }): Promise<ApiResponse> {
  const response = await fetch(`${apiUrl()}${path}`, { method, headers: { ...options.headers, authorization: `Bearer ${options.token}` } });
  const text = await response.text();
  return { status: response.status, body: response.ok ? text : JSON.parse(text), headers: response.headers };
}

const accepts = (status: Status, actual: number) => (typeof status === 'number' ? status === actual : status.includes(actual));
const isErrorShape = (response: ApiResponse) =>
  typeof response.body?.message === 'string' &&
  typeof response.body?.code === 'string' &&
  typeof response.body?.request_id === 'string' &&
  (response.headers.get('content-type') ?? '').includes('application/json');

/** What is wrong with one case's answer: its status, its error's shape, what it shows of the other client. */
async function mismatchesOf(route: RouteDef, one: Case): Promise<string[]> {
  let response: ApiResponse;
  try {
    const request = { token: await one.caller(), body: one.ask.body, headers: one.ask.headers };
    response = await (one.ask.headers?.accept ? rendered : call)(route.method, urlOf(route, one.ask), request);
  } catch (error) {
    return [`${one.label}: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  const status = typeof one.status === 'number' ? one.status : one.status.join(' or ');
  if (!accepts(one.status, response.status))
    problems.push(`${one.label}: ${response.status} (expected ${status}) ${JSON.stringify(response.body).slice(0, 300)}`);
  if (response.status >= 400 && !isErrorShape(response)) problems.push(`${one.label}: not the error shape`);
  if (response.status >= 500) problems.push(`${one.label}: a ${response.status}`);
  if (one.mustNotShow) {
    const leaks = leaksIn(response.body, one.mustNotShow.secrets, JSON.stringify(one.ask), one.callerClient.secrets);
    if (leaks.length) problems.push(`${one.label}: shows client ${one.mustNotShow.clientId}'s ${leaks.join(', ')}`);
  }
  return problems;
}

let a: Tenant;
let b: Tenant;
let close = async () => {};

beforeAll(async () => {
  const world = await seedTenants([665, 5151.25, 0.0611], [666, 6262.75, 0.0733]);
  [a, b] = world.tenants;
  close = world.close;
}, 150_000);

afterAll(() => close());

describe('the tenancy matrix (issue 52 item 7)', () => {
  it('has a row for every route of the manifest, and none for a route it does not have', () => {
    // Prepare
    const manifest = routes.map((route) => route.name).sort();
    // Act
    const rows = Object.keys(MATRIX).sort();
    // Assess
    expect(rows).toEqual(manifest);
  });

  it('finds each kind of secret where it belongs: in the other client’s own answers', async () => {
    // Prepare: what the search would report of client 666 in its own agent's answers
    const none: Secrets = { texts: [], ids: [], money: [] };
    const own = async (path: string) => (await call('GET', path, { token: await agentOf(b) })).body;
    // Act
    const found = [
      `/v1/sends/${b.sendId}/recipients`,
      '/v1/sends',
      '/v1/suppressions',
      '/v1/webhook/config',
      `/v1/clients/${b.clientId}/budget`,
      `/v1/clients/${b.clientId}/price-list`,
      '/v1/templates?size=50',
    ].map(async (path) => leaksIn(await own(path), b.secrets, '', none));
    // Assess: the search is not blind to any of them
    const all = (await Promise.all(found)).flat().join('\n');
    for (const secret of [b.phone, b.bsuid, b.sendId, b.suppressedPhone, b.suppressedBsuid, b.webhookUrl, b.templateName, b.record])
      expect(all).toContain(`text ${secret}`);
    expect(all).toContain(`client_id ${b.clientId}`);
    expect(all).toContain(`figure monthly_amount ${b.budget}`);
    expect(all).toMatch(new RegExp(`figure \\w+ ${b.fixedPrice}`));
  });

  describe.concurrent('every route × caller × whose ids', () => {
    for (const route of routes) {
      it(`${route.method} ${route.path} (${route.name})`, async ({ expect }) => {
        // Prepare
        const row = MATRIX[route.name];
        expect(row, `no row for ${route.name}`).toBeDefined();
        const cases = casesOf(row!, a, b);
        // Act
        const found = await Promise.all(cases.map((one) => mismatchesOf(route, one)));
        // Assess
        expect(found.flat()).toEqual([]);
      });
    }
  });
});
