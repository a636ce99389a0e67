import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { SQSClient } from '@aws-sdk/client-sqs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { App } from 'aws-cdk-lib';
import type { KinesisStreamEvent, SQSEvent } from 'aws-lambda';
import { parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { withNestedFunctions } from '../infra/nested-templates.ts';
import { TemplateMessagingStack } from '../infra/stack.ts';
import { startGraphEmulator } from '../local/parts/graph.ts';
import { fillSampleEvent, HTTP_SAMPLES, OTHER_SAMPLES, readSampleEvent, SAMPLE_TOKENS } from '../local/sample-events.ts';
import { functionName } from '../local/sam-environment.ts';
import { DEMO_FIXTURE } from '../local/stack.ts';
import {
  anotherPoolTokens,
  consoleSignInChecks,
  poolMfaChecks,
  preTokenGenerationEvent,
  signIn,
  type Tokens,
  type TriggerResponse,
  withTriggerClaims,
} from './cognito.ts';
import { deployedEnvironment, loadDirectory, output, setSecrets } from './deploy-steps.ts';
import { DeployedFunction } from './deployed-function.ts';
import { type Denial, IamGate } from './gate.ts';
import { resolve } from './intrinsics.ts';
import { type Credentials, type Moto, REHEARSAL_REGION, startMoto } from './moto.ts';
import { journeys } from './journeys.ts';
import { runQueueWorker } from './queue-worker.ts';
import { givenUpBody, runStreamWorker } from './stream-worker.ts';
import { deployerClients, type MadeStack, makeStack, type Template } from './resources.ts';
import { workers } from '#lib/manifest/workers.ts';

export const REHEARSAL_STACK = 'Rehearsal';
const ACCOUNT = '123456789012';
/** Lambda's trust: the only principal a function's role may trust. */
const LAMBDA_TRUST = {
  Statement: [{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } }],
  Version: '2012-10-17',
};

/** A trust policy of one statement letting one AWS service other than Lambda take the role. */
function trustsOneOtherService(policy: unknown) {
  const statements = (policy as { Statement?: { Effect?: string; Action?: string; Principal?: { Service?: unknown } }[] })?.Statement ?? [];
  const service = statements[0]?.Principal?.Service;
  return (
    statements.length === 1 &&
    statements[0].Effect === 'Allow' &&
    statements[0].Action === 'sts:AssumeRole' &&
    typeof service === 'string' &&
    service.endsWith('.amazonaws.com') &&
    service !== 'lambda.amazonaws.com'
  );
}

/** The stack as `cdk deploy` synthesizes it (Cognito on, bundles built), into `outdir`. */
export function synthesize(outdir: string): Template {
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  new TemplateMessagingStack(app, REHEARSAL_STACK, { cognito: true, env: { region: REHEARSAL_REGION } });
  app.synth();
  return JSON.parse(readFileSync(join(outdir, `${REHEARSAL_STACK}.template.json`), 'utf8')) as Template;
}

/** One check of the rehearsal: what was expected, what came. */
export interface Check {
  name: string;
  expected: string;
  got: string;
  passed: boolean;
}

export interface RehearsalReport {
  made: Record<string, number>;
  notMade: Record<string, number>;
  /** Each function against its sample. */
  functions: Check[];
  /** Paths through several functions, the queues, the bus and its rule: a send dispatched, an event delivered. */
  journeys: Check[];
  /** Tokens of the template's user pool at the listing bundle. */
  cognito: Check[];
  /** The console's app client and hosted-UI domain as Cognito (moto) holds them (issue 45). */
  consoleSignIn: Check[];
  /** The pool's second factor as Cognito (moto) holds it (decisions §32). */
  mfa: Check[];
  denials: Denial[];
  /** The AWS actions each function called (as its role, through the gate). */
  calls: Record<string, string[]>;
  /** Roles whose template trust policy is not Lambda's alone. */
  trust: string[];
  /** The logs of each function that failed. */
  logs: Record<string, string[]>;
  passed: boolean;
}

export interface RehearsalOptions {
  /** The synthesized template, and the cdk.out folder holding its assets. */
  template: Template;
  outdir: string;
  /** Only these functions (by name: `SendTemplate`); the Cognito checks run when the listing bundle is among them. */
  only?: string[];
  log?: (line: string) => void;
}

const check = (name: string, expected: string, got: string): Check => ({ name, expected, got, passed: expected === got });

/**
 * Deploys the synthesized stack into moto and runs every deployed bundle there with its own role (issue 24):
 * the resources are made from the template (resources.ts), README's deploy steps done (secrets set, directory
 * loaded), each function's role assumed through STS with IAM enforced (moto) and resources checked (gate.ts),
 * and each function answers its sample of events/ as on the local stack. The callers are users of the
 * template's pool whose tokens carry the trigger bundle's claims.
 */
export async function rehearse(given: RehearsalOptions): Promise<RehearsalReport> {
  // The workers' functions are in their nested stack's template: made and run as the parent's are.
  const options = { ...given, template: withNestedFunctions(given.template, given.outdir) };
  const log = options.log ?? (() => undefined);
  const work = mkdtempSync(join(tmpdir(), 'tms-rehearsal-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];
  try {
    const moto = await startMoto();
    stops.push(moto.stop);
    log(`moto_server on ${moto.endpoint}, IAM enforced`);
    const fixture = parseDirectoryFile(JSON.parse(readFileSync(DEMO_FIXTURE, 'utf8')));
    const graph = await startGraphEmulator(fixture, '127.0.0.1');
    stops.push(graph.stop);

    // Every AWS request goes through the gate, the deployer's too: moto names a queue's URL by the address it
    // was asked at, and the SDK sends a queue's calls to its URL's host.
    let stack: MadeStack | undefined;
    const gate = new IamGate(moto.endpoint, {
      region: REHEARSAL_REGION,
      id: ACCOUNT,
      secretArn: (name) =>
        [...(stack?.resources.values() ?? [])].find(
          (r) => r.type === 'AWS::SecretsManager::Secret' && r.ref.split(':')[6]?.startsWith(`${name}-`),
        )?.ref,
    });
    await gate.start('127.0.0.1');
    stops.push(() => gate.stop());
    const deployer = deployerClients(gate.url, moto.admin);
    stops.push(() => {
      for (const client of Object.values(deployer)) client.destroy();
    });
    stack = await makeStack(options.template, deployer, {
      stackName: REHEARSAL_STACK,
      account: ACCOUNT,
      deployerArn: moto.admin.arn,
    });
    const made = countMade(stack);
    log(
      `made in moto from the template: ${Object.entries(made)
        .map(([type, n]) => `${n} ${type}`)
        .join(', ')}`,
    );
    const settings = await setSecrets(options.template, stack, deployer.secrets);
    const loaded = await loadDirectory(options.template, stack, moto.endpoint, moto.admin, fixture);
    log(`secrets set; directory loaded (${loaded.items} items)`);

    const functions = await deployFunctions(options, stack, moto, gate, graph.url, join(work, 'bundles'));
    log(`${functions.size} functions loaded, each with its role's credentials`);

    // The samples' callers: users of the template's pool, signed in, their tokens with the trigger's claims.
    const pool = { id: output(options.template, stack, 'UserPoolId'), client: output(options.template, stack, 'UserPoolClientId') };
    const trigger = functions.get('PreTokenGeneration')!;
    const claimsOf = async (username: string) =>
      (await trigger.invoke(await preTokenGenerationEvent(deployer.cognito, pool.id, pool.client, username))) as TriggerResponse;
    const callers: Record<string, { moto: Tokens; withClaims: Tokens }> = {};
    for (const [name, spec] of Object.entries(SAMPLE_TOKENS)) {
      const attributes: Record<string, string> = { 'custom:client_id': String(spec.clientId) };
      if (spec.campaigns.length > 0) attributes['custom:campaigns'] = spec.campaigns.join(' ');
      const issued = await signIn(deployer.cognito, pool.id, pool.client, { username: name, attributes });
      callers[name] = { moto: issued, withClaims: await withTriggerClaims(issued, await claimsOf(name)) };
    }
    const tokens = Object.fromEntries(Object.entries(callers).map(([name, t]) => [name, t.withClaims.access]));

    const results: Check[] = [];
    const sample = readSampleEvent;
    for (const [name, { expect }] of Object.entries(HTTP_SAMPLES)) {
      const fn = functions.get(name);
      if (!fn) continue;
      const answer = await fn
        .invoke(await fillSampleEvent(sample(name), settings, tokens))
        .catch((e: Error) => ({ statusCode: `thrown: ${e.message}` }));
      results.push(check(name, String(expect), String(answer.statusCode)));
    }
    const sqs = (credentials: Credentials) => new SQSClient({ endpoint: gate.url, region: REHEARSAL_REGION, credentials });
    const deployerSqs = sqs(moto.admin);
    stops.push(() => deployerSqs.destroy());
    const kinesis = (credentials: Credentials) =>
      new KinesisClient({ endpoint: gate.url, region: REHEARSAL_REGION, credentials, requestHandler: new NodeHttpHandler() });
    for (const fn of functions.values()) {
      if (!(fn.name in OTHER_SAMPLES) || !Array.isArray((OTHER_SAMPLES[fn.name] as { Records?: unknown }).Records)) continue;
      const sampled = sample(fn.name) as KinesisStreamEvent;
      if (sampled.Records[0]?.eventSource === 'aws:kinesis') {
        // A stream's consumer (issue 54): its sample's records put on the stream and read with its role.
        const [deployer, role] = [kinesis(moto.admin), kinesis(fn.credentials)];
        const bodies = sampled.Records.map((record) => Buffer.from(record.kinesis.data, 'base64').toString());
        const outcome: { expected: string; got: string; read?: KinesisStreamEvent['Records'] } = await runStreamWorker(
          fn,
          options.template,
          stack,
          bodies,
          { deployer, role },
        )
          .catch((e: Error) => ({ expected: 'the batch run', got: `${e.name}: ${e.message}` }))
          .finally(() => [deployer, role].map((client) => client.destroy()));
        results.push(check(fn.name, outcome.expected, outcome.got));
        // Those records given up on and redriven: the notifications' worker reads them again with its role.
        const redrive = functions.get('ApplyMetaNotifications');
        if (redrive && outcome.read?.length) {
          const body = givenUpBody(outcome.read);
          const redriven = await runQueueWorker(
            redrive,
            options.template,
            stack,
            { bodies: [body] },
            { deployer: deployerSqs, role: sqs(redrive.credentials) },
          ).catch((e: Error) => ({ expected: 'the batch run', got: `${e.name}: ${e.message}` }));
          results.push(check(`${redrive.name} (a batch of ${fn.name} redriven)`, redriven.expected, redriven.got));
        }
        continue;
      }
      const role = sqs(fn.credentials);
      const bodies = (sample(fn.name) as SQSEvent).Records.map((record) => record.body);
      const outcome = await runQueueWorker(fn, options.template, stack, { bodies }, { deployer: deployerSqs, role })
        .catch((e: Error) => ({ expected: 'the batch run', got: `${e.name}: ${e.message}` }))
        .finally(() => role.destroy());
      results.push(check(fn.name, outcome.expected, outcome.got));
    }
    const paths = await journeys({
      functions,
      template: options.template,
      stack,
      emulator: graph.emulator,
      sample,
      fill: (event) => fillSampleEvent(event, settings, tokens),
      sqs: { deployer: deployerSqs, role: (fn) => sqs(fn.credentials) },
    });
    const pathChecks = paths.map((step) => check(step.name, step.expected, step.got));
    // The scheduled workers, run once each on their sample (EventBridge's scheduled event).
    for (const name of workers.filter((w) => 'everyMinutes' in w.trigger).map((w) => w.name)) {
      const scheduled = functions.get(name);
      if (scheduled)
        results.push(
          check(
            name,
            'ran',
            await scheduled.invoke(OTHER_SAMPLES[name]).then(
              () => 'ran',
              (e: Error) => `thrown: ${e.message}`,
            ),
          ),
        );
    }
    const acme = await claimsOf('acme');
    results.push(
      check(
        'PreTokenGeneration',
        JSON.stringify({ tms_client_id: 7, tms_permissions: [], tms_campaigns: ['31', '32', '33'] }),
        JSON.stringify(acme.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.claimsToAddOrOverride),
      ),
    );

    // Tokens at the listing bundle, verified by the service as API Gateway's JWT authorizer would.
    const cognito: Check[] = [];
    const listing = functions.get('ListClientMsgChannels');
    if (listing) {
      const status = async (token: string) =>
        String((await listing.invoke(await fillSampleEvent(sample('ListClientMsgChannels'), settings, { acme: token }))).statusCode);
      const other = await anotherPoolTokens(deployer.cognito, { username: 'acme', attributes: { 'custom:client_id': '7' } });
      const otherWithClaims = await withTriggerClaims(other, acme);
      cognito.push(
        check('id token of the pool, with the trigger’s claims', '200', await status(callers.acme.withClaims.id)),
        check('access token of the pool, with the trigger’s claims', '200', await status(callers.acme.withClaims.access)),
        check('access token of the pool as moto issues it (no trigger ran: no caller)', '401', await status(callers.acme.moto.access)),
        check('access token of another pool, with the same claims', '401', await status(otherWithClaims.access)),
        check('id token of another pool, with the same claims', '401', await status(otherWithClaims.id)),
      );
    }

    // The console's page as its deployed bundle serves it, with the settings the template gives its function.
    const consoleFunction = functions.get('GetConsole');
    const consolePage = consoleFunction
      ? await consoleFunction.invoke(sample('GetConsole')).then(
          (answer: { body?: string }) => answer.body ?? 'no body',
          (e: Error) => `thrown: ${e.message}`,
        )
      : undefined;
    const consoleSignIn = (
      await consoleSignInChecks(deployer.cognito, {
        apiUrl: output(options.template, stack, 'ApiUrl'),
        consoleUrl: output(options.template, stack, 'ConsoleUrl'),
        clientId: output(options.template, stack, 'ConsoleClientId'),
        signInDomain: output(options.template, stack, 'ConsoleSignInDomain'),
        poolId: pool.id,
        consolePage,
      })
    ).map((c) => check(c.name, c.expected, c.got));

    const mfa = (await poolMfaChecks(deployer.cognito, pool.id)).map((c) => check(c.name, c.expected, c.got));

    // A function's role trusts Lambda alone; another role (EventBridge Scheduler's) one other AWS service alone.
    const functionRoles = new Set(
      Object.values(options.template.Resources)
        .filter((r) => r.Type === 'AWS::Lambda::Function')
        .map((r) => r.Properties?.Role?.['Fn::GetAtt']?.[0]),
    );
    const trust = [...stack.roles.values()]
      .filter((role) =>
        functionRoles.has(role.logicalId)
          ? JSON.stringify(role.trust) !== JSON.stringify(LAMBDA_TRUST)
          : !trustsOneOtherService(role.trust),
      )
      .map((role) => `${role.logicalId}: ${JSON.stringify(role.trust)}`);
    const failed = new Set([...results.filter((r) => !r.passed).map((r) => r.name), ...gate.denials.map((d) => d.function)]);
    return {
      made,
      notMade: stack.notMade,
      functions: results,
      journeys: pathChecks,
      cognito,
      consoleSignIn,
      mfa,
      denials: gate.denials,
      calls: Object.fromEntries([...gate.calls].map(([name, actions]) => [name, [...actions].sort()])),
      trust,
      logs: Object.fromEntries(
        [...(process.env.REHEARSAL_LOGS ? functions.keys() : failed)].map((name) => [name, functions.get(name)?.logs ?? []]),
      ),
      passed:
        failed.size === 0 &&
        trust.length === 0 &&
        [...cognito, ...consoleSignIn, ...mfa, ...pathChecks].every((c) => c.passed) &&
        results.length > 0,
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** Each Node function of the template (or those asked for, and the trigger), with its role's credentials. */
async function deployFunctions(options: RehearsalOptions, stack: MadeStack, moto: Moto, gate: IamGate, graphUrl: string, into: string) {
  const sts = new STSClient({ endpoint: moto.endpoint, region: REHEARSAL_REGION, credentials: moto.admin });
  const functions = new Map<string, DeployedFunction>();
  try {
    for (const [logicalId, resource] of Object.entries(options.template.Resources)) {
      if (resource.Type !== 'AWS::Lambda::Function' || !String(resource.Properties?.Runtime).startsWith('nodejs')) continue;
      const name = functionName(logicalId);
      if (options.only && !options.only.includes(name) && name !== 'PreTokenGeneration') continue;
      const role = stack.roles.get(resource.Properties!.Role['Fn::GetAtt'][0])!;
      const assumed = await sts.send(new AssumeRoleCommand({ RoleArn: role.arn, RoleSessionName: name }));
      const credentials = {
        accessKeyId: assumed.Credentials!.AccessKeyId!,
        secretAccessKey: assumed.Credentials!.SecretAccessKey!,
        sessionToken: assumed.Credentials!.SessionToken!,
      };
      gate.grant(credentials.accessKeyId, { function: name, roleArn: role.arn, statements: role.statements });
      const variables = resolve(resource.Properties!.Environment?.Variables ?? {}, stack) as Record<string, string>;
      const environment = deployedEnvironment(variables, { moto: moto.endpoint, graph: graphUrl });
      const fn = new DeployedFunction(name, logicalId, stack.ref(logicalId)!, environment, credentials, gate.url);
      functions.set(name, await fn.load(join(options.outdir, resource.Metadata!['aws:asset:path']), into));
    }
  } finally {
    sts.destroy();
  }
  return functions;
}

function countMade(stack: MadeStack): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const resource of stack.resources.values()) counts[resource.type] = (counts[resource.type] ?? 0) + 1;
  return counts;
}
