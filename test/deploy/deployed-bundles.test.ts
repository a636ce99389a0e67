import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedFunctions, type DeployedFunction } from '../../infra/function-bundles.ts';
import { lambdaContext } from '../../local/api-server.ts';
import { EVENTS_DIR, fillSampleEvent, HTTP_SAMPLES, OTHER_SAMPLES } from '../../local/sample-events.ts';
import { functionName, nodeFunctions, samEnvironment, type SynthesizedTemplate, writeSamFiles } from '../../local/sam-environment.ts';
import { type LocalStack, startLocalStack } from '../../local/stack.ts';
import { sampleEventFiles } from '../../scripts/write-sample-events.ts';
import { synthesizedOnce } from '../support/synthesized.ts';

/**
 * CI checks what is deployed (issue 14): the stack is synthesized with bundling, as `cdk deploy` does; every
 * function's asset is copied into a folder with no node_modules anywhere above it and imported there; then each
 * answers its sample event (events/) against a local stack of its own (the demo fixture, as `npm start` has it).
 */
type Handler = (event: unknown, context: unknown) => Promise<any>;
/**
 * Node's own loader, as Lambda's runtime loads a bundle (an ES module without top-level await, which Node 22
 * requires as it is): vitest's import() would put every bundle (minified, with its source map) through its
 * transform pipeline first, seconds for the 33 of them.
 */
const loadBundle = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'tms-deployed-'));
const handlers = new Map<string, Handler>();
/** Each function's environment as `npm run sam:env` gives it: the template's, the local stack's over it. */
const environments = new Map<string, Record<string, string>>();
let stack: LocalStack;
let template: SynthesizedTemplate;
/** The run's cloud assembly (test/support/synthesized.ts): read, and the SAM template written beside its template. */
let outdir: string;

beforeAll(async () => {
  // Prepare: a stack of this file's own, so the samples' writes meet no other test's data
  stack = await startLocalStack();
  // Prepare: synthesized with bundling (Cognito on: its trigger is deployed too), once for this file and the rehearsal's
  const synthesized = await synthesizedOnce();
  outdir = synthesized.outdir;
  template = synthesized.template as SynthesizedTemplate;
  const environment = samEnvironment(template, stack.settings);
  for (const [logicalId, resource] of nodeFunctions(template)) {
    const name = functionName(logicalId);
    const bundle = join(work, 'bundles', name);
    cpSync(join(outdir, resource.Metadata!['aws:asset:path']), bundle, { recursive: true });
    const module = loadBundle(join(bundle, 'index.mjs')) as { handler: Handler };
    handlers.set(name, module.handler);
    environments.set(name, environment[logicalId]);
  }
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** One invocation in the function's own environment (only its declared settings, as Lambda gives them). */
async function invoke(name: string, event: unknown) {
  const saved = { ...process.env };
  Object.assign(process.env, environments.get(name));
  try {
    return await handlers.get(name)!(await fillSampleEvent(event, stack.settings), lambdaContext(name, `sample-${name}`));
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

describe('the deployed bundles (issue 14)', () => {
  it('are importable with no node_modules within reach, one per function, each with its own code', () => {
    // Assess: nothing above the bundles could lend them a package
    for (let dir = join(work, 'bundles'); dir !== dirname(dir); dir = dirname(dir))
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    expect([...handlers.keys()].sort()).toEqual([...Object.keys(HTTP_SAMPLES), ...Object.keys(OTHER_SAMPLES)].sort());
    for (const [name, handler] of handlers) expect(typeof handler, name).toBe('function');
  });

  it('npm run sam:env: a SAM template declaring the local stack’s settings for every function, the env-vars file and filled events', async () => {
    // Act
    const dir = join(work, 'sam');
    await writeSamFiles(template, stack.settings, { templateFile: join(outdir, 'sam-local.template.json'), dir });
    // Assess: every function reads the local table, queues and issuer, on this host's architecture, no Ref left
    const sam = JSON.parse(readFileSync(join(outdir, 'sam-local.template.json'), 'utf8')) as SynthesizedTemplate;
    const envVars = JSON.parse(readFileSync(join(dir, 'env.json'), 'utf8')) as Record<string, Record<string, string>>;
    const functions = nodeFunctions(sam);
    expect(functions).toHaveLength(handlers.size);
    for (const [logicalId, resource] of functions) {
      const variables = resource.Properties.Environment?.Variables as Record<string, unknown>;
      expect(variables, logicalId).toMatchObject({ TABLE_NAME: stack.settings.TABLE_NAME, JWKS_URL: stack.settings.JWKS_URL });
      expect(
        Object.values(variables).every((value) => typeof value === 'string'),
        logicalId,
      ).toBe(true);
      expect(resource.Properties.Architectures).toEqual([process.arch === 'arm64' ? 'arm64' : 'x86_64']);
      expect(envVars[logicalId], logicalId).toEqual(variables);
    }
    // Assess: the filled events carry a real token, no placeholder
    const listCatalogs = readFileSync(join(dir, 'events', 'ListCatalogs.json'), 'utf8');
    expect(listCatalogs).not.toContain('{{');
    expect(JSON.parse(listCatalogs).headers.authorization).toMatch(/^Bearer eyJ/);
  });

  it('events/ holds exactly the sample events of local/sample-events.ts (npm run events)', () => {
    const expected = sampleEventFiles();
    expect(readdirSync(EVENTS_DIR).sort()).toEqual(Object.keys(expected).sort());
    for (const [file, text] of Object.entries(expected)) expect(readFileSync(join(EVENTS_DIR, file), 'utf8'), file).toBe(text);
  });

  it('each HTTP bundle answers its sample event with the status the demo fixture gives', async () => {
    const answers: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const [name, sample] of Object.entries(HTTP_SAMPLES)) {
      // Act: in order (the webhook configuration is written before it is read)
      const event = JSON.parse(readFileSync(join(EVENTS_DIR, `${name}.json`), 'utf8'));
      const response = await invoke(name, event);
      answers[name] = response.statusCode;
      expected[name] = sample.expect;
    }
    // Assess
    expect(answers).toEqual(expected);
  }, 60_000);

  it('an upstream route of a deployment whose Graph token was never set answers 502 saying what to set', async () => {
    // Prepare: the stack's token secret not set (nothing for the function to read)
    const own = environments.get('ListCatalogs')!;
    environments.set('ListCatalogs', { ...own, GRAPH_API_TOKEN: '', GRAPH_API_TOKEN_SECRET: '' });
    try {
      // Act
      const response = await invoke('ListCatalogs', JSON.parse(readFileSync(join(EVENTS_DIR, 'ListCatalogs.json'), 'utf8')));
      // Assess
      expect(response.statusCode).toBe(502);
      expect(JSON.parse(response.body)).toMatchObject({
        code: 'upstream_unavailable',
        message: expect.stringContaining('not configured to call the Graph API'),
      });
    } finally {
      environments.set('ListCatalogs', own);
    }
  });

  it('the docs and console bundles serve the files copied beside them, and the handshake answers its challenge', async () => {
    const docs = await invoke('GetApiDocs', JSON.parse(readFileSync(join(EVENTS_DIR, 'GetApiDocs.json'), 'utf8')));
    expect(docs.body).toContain('SwaggerUIBundle');
    const consolePage = await invoke('GetConsole', JSON.parse(readFileSync(join(EVENTS_DIR, 'GetConsole.json'), 'utf8')));
    expect(consolePage.body).toContain('<script type="application/json" id="console-config">{"signIn":"token"}</script>');
    expect(consolePage.body).toMatch(/<script type="module">.{10000,}<\/script>/s);
    const handshake = await invoke('VerifyMetaWebhook', JSON.parse(readFileSync(join(EVENTS_DIR, 'VerifyMetaWebhook.json'), 'utf8')));
    expect(handshake.body).toBe('4711');
  });

  it('each worker bundle takes its sample batch without failing a message, and the trigger fills the claims', async () => {
    for (const name of [
      'DeliverWebhooks',
      'SyncTemplatesWorker',
      'DispatchMessages',
      'AbandonDispatchJobs',
      'AbandonSyncJobs',
      'ApplyMetaNotifications',
      'ApplyMetaStatuses',
    ]) {
      const result = await invoke(name, JSON.parse(readFileSync(join(EVENTS_DIR, `${name}.json`), 'utf8')));
      expect(result, name).toEqual({ batchItemFailures: [] });
    }
    // The schedule's run: a rejection would fail here
    await invoke('RelayOutbox', OTHER_SAMPLES.RelayOutbox);
    const token = await invoke('PreTokenGeneration', OTHER_SAMPLES.PreTokenGeneration);
    // Under the claim names its environment gives (sam:env: the local issuer's defaults; deployed: tms_…)
    expect(token.response.claimsAndScopeOverrideDetails.accessTokenGeneration.claimsToAddOrOverride).toEqual({
      client_id: 7,
      permissions: [],
      campaigns: ['31', '32'],
    });
  });
});

/** The source files of a deployed bundle, from its source map (node_modules paths included), read once. */
const sources = new Map<string, string[]>();
const sourcesOf = (name: string): string[] => {
  if (!sources.has(name)) {
    const map = JSON.parse(readFileSync(join(work, 'bundles', name, 'index.mjs.map'), 'utf8')) as { sources: string[] };
    sources.set(name, map.sources);
  }
  return sources.get(name)!;
};
const has = (name: string, path: string) => sourcesOf(name).some((source) => source.includes(path));

/** What a declaration implies, as source paths that must (or must not) be in the bundle. */
const expectations = (fn: DeployedFunction): [string, boolean][] => [
  ['lib/adapters/dynamo/', fn.needs.table !== 'none'],
  ['lib/adapters/graph/', Boolean(fn.needs.upstream)],
  ['node_modules/@aws-sdk/client-secrets-manager/', Boolean(fn.needs.upstream || fn.needs.metaApp)],
  ['lib/adapters/meta/webhook-secrets', Boolean(fn.needs.metaApp)],
  ['lib/adapters/eventbridge/', Boolean(fn.needs.bus)],
  ['node_modules/@aws-sdk/client-eventbridge/', Boolean(fn.needs.bus)],
  ['lib/adapters/sqs/', (fn.needs.queues ?? []).length > 0 || Boolean(fn.redelivers)],
  ['lib/adapters/kinesis/', [...(fn.needs.streams ?? []), ...(fn.needs.rereads ?? [])].length > 0],
  ['node_modules/@aws-sdk/client-kinesis/', [...(fn.needs.streams ?? []), ...(fn.needs.rereads ?? [])].length > 0],
  ['node_modules/@fastify/busboy/', fn.multipart],
];

/**
 * Each deployed bundle carries exactly what its route (or worker) declares: an adapter or AWS client it does not
 * declare fails here, and so does one it declares but never uses (the stack grants by the declaration, so both
 * must agree). Read from the synthesized assets' source maps: the bundles are the ones deployed, built once.
 */
describe('what each deployed bundle carries', () => {
  const functions = deployedFunctions();

  it('reads a source map for every deployed function (so the checks below cannot pass vacuously)', () => {
    for (const fn of functions) expect(sourcesOf(fn.name).length, fn.name).toBeGreaterThan(20);
    expect(has('ListTemplates', 'lib/domain/templates/list-templates.ts')).toBe(true);
  });

  it.each(functions.map((fn) => [fn.name, fn] as const))('%s carries what it declares, and nothing it does not', (_name, fn) => {
    const wrong = expectations(fn)
      .filter(([path, wanted]) => has(fn.name, path) !== wanted)
      .map(([path, wanted]) => `${wanted ? 'missing' : 'undeclared'}: ${path}`);
    expect(wrong).toEqual([]);
  });

  it('keeps the SQS client out of every HTTP function that sends no jobs', () => {
    const carrying = functions
      .filter((fn) => fn.kind === 'http' && !(fn.needs.queues ?? []).length)
      .filter((fn) => has(fn.name, 'node_modules/@aws-sdk/client-sqs/'))
      .map((fn) => fn.name);
    expect(carrying).toEqual([]);
  });

  it('keeps every AWS SDK client out of the functions that touch no AWS service', () => {
    for (const name of ['GetOpenApi', 'RouteNotFound']) expect(has(name, 'node_modules/@aws-sdk/'), name).toBe(false);
  });
});
