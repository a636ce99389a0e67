import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEXES } from '#lib/adapters/dynamo/table.ts';
import { GRAPH_TOKEN_UNSET } from '#lib/adapters/graph/token.ts';
import { QUEUES, STREAMS } from '#lib/manifest/queues.ts';
import { ROUTE_NOT_FOUND, routes } from '#lib/manifest/routes.ts';
import { workers } from '#lib/manifest/workers.ts';
import { withNestedFunctions } from '../../infra/nested-templates.ts';
import { checkQuotas, QUOTAS, type QuotaTemplate } from '../../infra/quotas.ts';
import { TemplateMessagingStack, type ServiceStackProps } from '../../infra/stack.ts';

interface Synthesized {
  template: Template;
  /** The nested stack of alarms (docs/operations.md, "Quotas"), when the stack has one. */
  alarms?: Template;
  /** The workers' nested stack (their functions, roles, logs, event sources, schedules), when the stack has one. */
  workers?: Template;
  /** The stack with its workers' nested stack inlined (infra/nested-templates.ts): every function in one template. */
  whole: Template;
  report: { pluginReports: { conclusion: string; violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[] };
}

/**
 * Synthesises a stack as `npm run synth` does (cdk-nag's AwsSolutions checks on), bundling off: the service's
 * stack with these props, or another made by `make` (a stack the checks must fault).
 */
function synth(props: Partial<ServiceStackProps>, make?: (app: App) => Stack): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'tms-synth-'));
  // Asset metadata as `cdk synth` writes it: it names each nested stack's template file.
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-asset-metadata': true } });
  if (make) make(app);
  else new TemplateMessagingStack(app, 'Deployable', { jwtIssuer: 'https://issuer.example.com/', jwtAudience: 'tms', ...props });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
  } catch {
    /* a failed validation: the report says which */
  }
  const read = (file: string) => JSON.parse(readFileSync(join(outdir, file), 'utf8'));
  const nested = (name: string) =>
    readdirSync(outdir).find((file) => file.startsWith(`Deployable${name}`) && file.endsWith('.nested.template.json'));
  const [alarms, workers] = [nested('Monitoring'), nested('Workers')];
  const template = read('Deployable.template.json');
  return {
    template: Template.fromJSON(template),
    ...(alarms && { alarms: Template.fromJSON(read(alarms)) }),
    ...(workers && { workers: Template.fromJSON(read(workers)) }),
    whole: Template.fromJSON(withNestedFunctions(template, outdir)),
    report: JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')),
  };
}

let plain: Synthesized;
let cognito: Synthesized;
/** The plain stack's template with its workers inlined, which the stack's and the manifest's tests below read. */
let template: Template;
beforeAll(() => {
  // One synth per variant for the whole file: each costs seconds.
  plain = synth({ messagesPerSecond: 40, dispatchConcurrency: 250 });
  cognito = synth({ cognito: true });
  template = plain.whole;
});

const resources = (template: Template, type: string) => Object.entries(template.findResources(type)) as [string, any][];
const functionsOf = (template: Template) =>
  resources(template, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Runtime === 'nodejs22.x');
const named = (template: Template, name: string) => functionsOf(template).find(([id]) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id))!;
const refId = (value: any): string => value?.Ref ?? value?.['Fn::GetAtt']?.[0];
const declared = [...routes, ROUTE_NOT_FOUND, ...workers];

/** Every statement of the policies attached to a function's role. */
function statementsOf(template: Template, functionName: string) {
  const [, fn] = named(template, functionName);
  const role = refId(fn.Properties.Role);
  return resources(template, 'AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => refId(r) === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
}
const actionsOf = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => [s.Action].flat());

describe('the deployed stack, as an AWS team reads it before launch (issue 14)', () => {
  it('passes cdk-nag AwsSolutions with every finding acknowledged, with and without the Cognito user pool', () => {
    // Assess: no unacknowledged violation in either variant
    const violationsOf = ({ report }: Synthesized) =>
      report.pluginReports.flatMap((p) =>
        p.violations.map((v) => `${v.ruleName} at ${v.violatingConstructs.map((c) => c.constructPath).join(', ')}`),
      );
    expect(violationsOf(plain)).toEqual([]);
    expect(violationsOf(cognito)).toEqual([]);
    // A deploy with its account and region known (cdk deploy's env): findings name them literally
    expect(violationsOf(synth({ env: { account: '123456789012', region: 'eu-west-1' } }))).toEqual([]);
    // Assess: the same checks do report a queue nobody acknowledged (the plugin ran)
    const careless = synth({}, (app) => {
      const stack = new Stack(app, 'Deployable');
      new Queue(stack, 'Careless');
      return stack;
    });
    expect(violationsOf(careless)).toEqual(expect.arrayContaining([expect.stringMatching(/^AwsSolutions-SQS3 at Deployable\/Careless/)]));
  });

  // cfn-lint is Python, on this machine image but not an npm package: where it is missing, this says so and skips.
  const cfnLint = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!cfnLint)(
    'passes cfn-lint with no error and no warning but CDK’s own explicit DependsOn (W3005)',
    () => {
      // Prepare
      const dir = mkdtempSync(join(tmpdir(), 'tms-lint-'));
      writeFileSync(join(dir, 'template.json'), JSON.stringify(cognito.template.toJSON()));
      writeFileSync(join(dir, 'alarms.json'), JSON.stringify(cognito.alarms!.toJSON()));
      writeFileSync(join(dir, 'workers.json'), JSON.stringify(cognito.workers!.toJSON()));
      // Act: the stack and its nested stacks, of alarms and of workers
      const files = ['template.json', 'alarms.json', 'workers.json'].map((file) => join(dir, file));
      const run = spawnSync('cfn-lint', ['--format', 'parseable', ...files], { encoding: 'utf8' });
      // Assess: exit bit 2 means errors; the findings, W3005 aside
      const findings = run.stdout.split('\n').filter((line) => line.trim() && !line.includes(':W3005:'));
      expect(findings).toEqual([]);
      expect(run.status! & 2).toBe(0);
    },
    // About 20 s alone; a loaded machine (the stacks of other files) has taken 90.
    180_000,
  );

  it('gives each function only the table actions its needs name, on the table and its indexes by name', () => {
    for (const { name, needs } of declared) {
      // Prepare
      const statements = statementsOf(plain.whole, name);
      const dynamo = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('dynamodb:')));
      // Assess
      if (needs.table === 'none') {
        expect(dynamo, name).toEqual([]);
        continue;
      }
      const actions = actionsOf(dynamo).sort();
      expect(actions, name).toContain('dynamodb:Query');
      expect(actions.includes('dynamodb:PutItem'), name).toBe(needs.table === 'write');
      expect(
        actions.filter((a) => /Scan|Stream|\*|DescribeTable|DeleteTable/.test(a)),
        name,
      ).toEqual([]);
      const targets = JSON.stringify(dynamo.flatMap((s) => [s.Resource].flat()));
      expect(targets).not.toContain('/index/*');
      for (const index of INDEXES) expect(targets, `${name} ${index.name}`).toContain(`/index/${index.name}`);
    }
  });

  it('lets every role write its own log group only, and gives no function a managed policy', () => {
    for (const [id, role] of resources(plain.whole, 'AWS::IAM::Role')) {
      expect(role.Properties.ManagedPolicyArns, id).toBeUndefined();
    }
    for (const { name } of declared) {
      const [, fn] = named(plain.whole, name);
      const logs = statementsOf(plain.whole, name).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
      expect(
        logs.map((s) => refId(s.Resource)),
        name,
      ).toEqual([refId(fn.Properties.LoggingConfig.LogGroup)]);
    }
  });

  it('logs every function as JSON into a log group kept a month, traced by X-Ray; API requests as JSON lines', () => {
    for (const { name } of declared) {
      const [, fn] = named(plain.whole, name);
      expect(fn.Properties.LoggingConfig.LogFormat, name).toBe('JSON');
      expect(fn.Properties.TracingConfig, name).toEqual({ Mode: 'Active' });
      const group = plain.whole.findResources('AWS::Logs::LogGroup')[refId(fn.Properties.LoggingConfig.LogGroup)];
      expect(group.Properties.RetentionInDays, name).toBe(30);
      expect(fn.Properties.Environment.Variables.POWERTOOLS_METRICS_NAMESPACE, name).toBe('TemplateMessagingService');
      expect(fn.Properties.Environment.Variables, name).not.toHaveProperty('ALLOW_LOCAL_WEBHOOKS');
      expect(fn.Properties.Environment.Variables, name).not.toHaveProperty('WEBHOOK_RETRY_BASE_SECONDS');
    }
    const [[, stage]] = resources(plain.whole, 'AWS::ApiGatewayV2::Stage');
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', routeKey: '$context.routeKey' });
    expect(refId(stage.Properties.AccessLogSettings.DestinationArn)).toMatch(/^ApiAccessLogs/);
  });

  it('sizes every queue for its consumer (visibility at least 6x its timeout), each with a dead-letter queue, named by CloudFormation', () => {
    const queues = resources(plain.whole, 'AWS::SQS::Queue');
    for (const [id, queue] of queues) expect(queue.Properties.QueueName, id).toBeUndefined();
    for (const worker of workers) {
      if (!('queue' in worker.trigger)) continue;
      const def = QUEUES[worker.trigger.queue];
      // Assess: the function's timeout and its queue's visibility
      const [, fn] = named(plain.whole, worker.name);
      expect(fn.Properties.Timeout, worker.name).toBe(worker.timeoutSeconds);
      expect(def.visibilityTimeoutSeconds, worker.name).toBeGreaterThanOrEqual(6 * worker.timeoutSeconds);
      const [, queue] = queues.find(([queueId]) =>
        queueId.startsWith(`${worker.trigger && 'queue' in worker.trigger ? worker.trigger.queue : ''}Queue`),
      )!;
      expect(queue.Properties.VisibilityTimeout, worker.name).toBe(def.visibilityTimeoutSeconds);
      expect(queue.Properties.RedrivePolicy.maxReceiveCount, worker.name).toBe(def.maxReceiveCount);
    }
    for (const [id, bus] of resources(plain.whole, 'AWS::Events::EventBus')) expect(bus.Properties.Name, id).toMatch(/^Deployable/);
  });

  it('lets a function bring back another queue’s messages only where its needs say it wakes them (issue 44)', () => {
    const queueIds = resources(plain.whole, 'AWS::SQS::Queue').map(([id]) => id);
    const queueOf = (name: string) => queueIds.find((id) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id));
    for (const fn of declared) {
      // Prepare: the queues whose messages its role may bring back, and those it consumes or wakes
      const changing = statementsOf(plain.whole, fn.name).filter((s) => actionsOf([s]).includes('sqs:ChangeMessageVisibility'));
      const targets = new Set(changing.flatMap((s) => [s.Resource].flat()).map(refId));
      const trigger = workers.find((w) => w.name === fn.name)?.trigger;
      const consumed = trigger && 'queue' in trigger ? [queueOf(`${trigger.queue}${trigger.deadLetters ? 'Dlq' : 'Queue'}`)] : [];
      const woken = (fn.needs.wakes ?? []).map((key) => queueOf(`${key}Queue`));
      // Assess
      expect([...targets].sort(), fn.name).toEqual([...new Set([...consumed, ...woken])].sort());
    }
    expect(workers.find((w) => w.name === 'ApplyMetaNotifications')?.needs).toMatchObject({ wakes: ['dispatch'] });
  });

  it('caps the workers that call the rate-limited Graph API, and gives every EventBridge target a dead-letter queue', () => {
    const mappings = resources(plain.whole, 'AWS::Lambda::EventSourceMapping');
    for (const worker of workers.filter((w) => w.needs.upstream && 'queue' in w.trigger)) {
      const [, fn] = named(plain.whole, worker.name);
      const mapping = mappings.find(([id]) => id.startsWith(worker.name))![1];
      expect(refId(mapping.Properties.FunctionName)).toBe(named(plain.whole, worker.name)[0]);
      // The dispatcher paces each number itself: its cap is the deployment's (decisions §23); the others ≤ 10.
      const cap = worker.name === 'DispatchMessages' ? 250 : 10;
      expect(mapping.Properties.ScalingConfig?.MaximumConcurrency, worker.name).toBeLessThanOrEqual(cap);
      expect(fn).toBeDefined();
    }
    for (const [id, rule] of resources(plain.whole, 'AWS::Events::Rule')) {
      for (const target of rule.Properties.Targets) expect(refId(target.DeadLetterConfig?.Arn), id).toMatch(/^EventTargetDlq/);
    }
  });

  it('alarms on every dead-letter queue, every function’s errors and throttles, the API’s 5xx rate and the failure metrics, all to one topic', () => {
    // The alarms are in a nested stack of their own, none in the stack itself or the workers' nested stack
    expect(resources(plain.template, 'AWS::CloudWatch::Alarm')).toEqual([]);
    expect(resources(plain.workers!, 'AWS::CloudWatch::Alarm')).toEqual([]);
    const alarms = resources(plain.alarms!, 'AWS::CloudWatch::Alarm');
    const ids = alarms.map(([id]) => id);
    for (const key of Object.keys(QUEUES))
      expect(
        ids.some((id) => id.startsWith(`${key}DlqNotEmpty`)),
        key,
      ).toBe(true);
    expect(ids.some((id) => id.startsWith('EventTargetDlqNotEmpty'))).toBe(true);
    for (const { name } of declared) {
      expect(
        ids.some((id) => id.startsWith(`${name}Errors`)),
        name,
      ).toBe(true);
      expect(
        ids.some((id) => id.startsWith(`${name}Throttles`)),
        name,
      ).toBe(true);
    }
    for (const name of ['Api5xxRate', 'SyncRunsFailed', 'WebhookDeliveriesFailed'])
      expect(
        ids.some((id) => id.startsWith(name)),
        name,
      ).toBe(true);
    const cognitoAlarms = resources(cognito.alarms!, 'AWS::CloudWatch::Alarm').map(([id]) => id);
    for (const suffix of ['Errors', 'Throttles'])
      expect(
        cognitoAlarms.some((id) => id.startsWith(`PreTokenGeneration${suffix}`)),
        suffix,
      ).toBe(true);
    // Every alarm's action is the one parameter the stack fills with its topic
    const [[topicId]] = resources(plain.template, 'AWS::SNS::Topic');
    const actions = new Set(alarms.map(([, alarm]) => JSON.stringify(alarm.Properties.AlarmActions)));
    expect(actions.size).toBe(1);
    const [parameter] = JSON.parse([...actions][0]).map(refId);
    const [, nested] = resources(plain.template, 'AWS::CloudFormation::Stack').find(([id]) => id.startsWith('Monitoring'))!;
    expect(nested.Properties.Parameters[parameter]).toEqual({ Ref: topicId });
    expect(plain.template.findOutputs('AlarmTopicArn')).not.toEqual({});
  });

  it('leaves the Graph token secret holding a marker until it is set, and names it in an output', () => {
    const [, token] = resources(plain.template, 'AWS::SecretsManager::Secret').find(([id]) => id.startsWith('GraphApiToken'))!;
    expect(token.Properties.SecretString).toBe(GRAPH_TOKEN_UNSET);
    expect(Object.keys(plain.template.findOutputs('*'))).toEqual(
      expect.arrayContaining(['ApiUrl', 'ApiDocsUrl', 'GraphApiTokenSecretName', 'MetaWebhookSecretName', 'JwtIssuer']),
    );
  });

  it('with cognito: a user pool as the issuer, its V2 trigger and every function reading the tms_ claims', () => {
    // Assess: the trigger and the pool
    const [triggerId, trigger] = named(cognito.template, 'IdentityPreTokenGeneration');
    expect(trigger.Properties.Environment.Variables).toMatchObject({
      CLAIM_CLIENT_ID: 'tms_client_id',
      CLAIM_PERMISSIONS: 'tms_permissions',
    });
    const [[, pool]] = resources(cognito.template, 'AWS::Cognito::UserPool');
    expect(pool.Properties.LambdaConfig.PreTokenGenerationConfig).toEqual({
      LambdaArn: { 'Fn::GetAtt': [triggerId, 'Arn'] },
      LambdaVersion: 'V2_0',
    });
    expect(pool.Properties.AdminCreateUserConfig.AllowAdminCreateUserOnly).toBe(true);
    // Assess: a user cannot rewrite its own tenancy, through either app client (the API's, the console's)
    const clients = resources(cognito.template, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(2);
    for (const [id, client] of clients)
      expect(
        client.Properties.WriteAttributes.filter((a: string) => a.startsWith('custom:')),
        id,
      ).toEqual([]);
    // Assess: API Gateway trusts the pool, functions read the same claims
    const [[, authorizer]] = resources(cognito.template, 'AWS::ApiGatewayV2::Authorizer');
    expect(JSON.stringify(authorizer.Properties.JwtConfiguration.Issuer)).toContain('cognito-idp');
    for (const { name } of routes) {
      expect(named(cognito.template, name)[1].Properties.Environment.Variables.CLAIM_CLIENT_ID, name).toBe('tms_client_id');
    }
  });

  it('with cognito: a second factor required of every user, BSP_CN operators too, by an authenticator app only (decisions §32)', () => {
    // Assess: one pool (the API's authorizer trusts one issuer), its MFA on, TOTP and never SMS
    const pools = resources(cognito.template, 'AWS::Cognito::UserPool');
    expect(pools).toHaveLength(1);
    expect(pools[0][1].Properties).toMatchObject({ MfaConfiguration: 'ON', EnabledMfas: ['SOFTWARE_TOKEN_MFA'] });
    expect(pools[0][1].Properties.SmsConfiguration).toBeUndefined();
  });

  it('with cognito: the console signs in on the hosted UI, code grant with PKCE, back to the API’s /console only (issue 45)', () => {
    // Prepare
    const [[apiId]] = resources(cognito.template, 'AWS::ApiGatewayV2::Api');
    const [[clientId, client]] = resources(cognito.template, 'AWS::Cognito::UserPoolClient').filter(([id]) => id.includes('Console'));
    const [[domainId, domain]] = resources(cognito.template, 'AWS::Cognito::UserPoolDomain');
    const consoleUrl = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }, '/console']] };
    // Assess: a public client of the authorization-code grant, coming back to the console's address and nowhere else
    expect(client.Properties).toMatchObject({
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      GenerateSecret: false,
      SupportedIdentityProviders: ['COGNITO'],
      CallbackURLs: [consoleUrl],
      LogoutURLs: [consoleUrl],
    });
    expect(domain.Properties.Domain).toEqual({ 'Fn::Join': ['', ['deployable-', { Ref: 'AWS::AccountId' }]] });
    // Assess: the API accepts the console's access tokens beside the API client's
    const [[, authorizer]] = resources(cognito.template, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizer.Properties.JwtConfiguration.Audience).toContainEqual({ Ref: clientId });
    expect(authorizer.Properties.JwtConfiguration.Audience).toHaveLength(2);
    // Assess: the stack says where the console is and how it signs in
    expect(cognito.template.findOutputs('ConsoleUrl').ConsoleUrl.Value).toEqual(consoleUrl);
    expect(JSON.stringify(cognito.template.findOutputs('ConsoleSignInDomain').ConsoleSignInDomain.Value)).toContain(domainId);
    // Assess: the console's function is told the hosted UI's address and the client, and no other function is
    const [, page] = named(cognito.template, 'GetConsole');
    expect(page.Properties.Environment.Variables.CONSOLE_CLIENT_ID).toEqual({ Ref: clientId });
    expect(JSON.stringify(page.Properties.Environment.Variables.CONSOLE_COGNITO_DOMAIN)).toContain(domainId);
    for (const { name } of routes.filter((r) => r.name !== 'GetConsole'))
      expect(named(cognito.template, name)[1].Properties.Environment.Variables.CONSOLE_CLIENT_ID, name).toBeUndefined();
    // Assess: a stack with an issuer of its own has no pool, so no console client: its console signs in with a token
    expect(named(plain.template, 'GetConsole')[1].Properties.Environment.Variables.CONSOLE_CLIENT_ID).toBeUndefined();
    expect(resources(plain.template, 'AWS::Cognito::UserPoolClient')).toEqual([]);
    expect(resources(plain.template, 'AWS::Cognito::UserPoolDomain')).toEqual([]);
  });
});

const resourcesOf = (type: string) => Object.entries(template.findResources(type));

describe('the deployment’s quotas (issue 24), checked at every synth', () => {
  it('keeps both variants within CloudFormation’s, Lambda’s and IAM’s limits, with room for what comes next', () => {
    for (const variant of [plain, cognito]) {
      // Act
      const quotas = checkQuotas(variant.template.toJSON() as QuotaTemplate);
      // Assess
      expect(quotas.problems).toEqual([]);
      expect(quotas.resources).toBeLessThanOrEqual(QUOTAS.resources);
      expect(quotas.largestEnvironment.bytes).toBeLessThan(QUOTAS.environmentBytes);
      expect(quotas.largestPolicy.characters).toBeLessThan(QUOTAS.inlinePolicyCharacters);
      // Over 51,200 bytes: deployable only through S3, as `cdk deploy` uploads it
      expect(quotas.templateBytes).toBeGreaterThan(QUOTAS.inlineTemplateBytes);
      expect(quotas.templateBytes).toBeLessThan(QUOTAS.templateBytes);
      expect(checkQuotas(variant.alarms!.toJSON() as QuotaTemplate).problems).toEqual([]);
      expect(checkQuotas(variant.workers!.toJSON() as QuotaTemplate).problems).toEqual([]);
    }
  });

  it('takes 7 resources a route: 5 more routes stay within the budget, 16 more within CloudFormation’s 500', () => {
    // Prepare: what one route adds: function, role, policy, log group, integration, its permission, route
    const route = routes.find((r) => r.name === 'ListTemplates')!;
    const own = Object.entries(plain.template.toJSON().Resources as Record<string, { Type: string; Properties: unknown }>).filter(
      ([id, r]) =>
        id.includes(route.name) ||
        (r.Type === 'AWS::ApiGatewayV2::Route' && JSON.stringify(r.Properties).includes(`${route.name}Integration`)),
    );
    // Assess
    expect(own.map(([, r]) => r.Type).sort()).toEqual([
      'AWS::ApiGatewayV2::Integration',
      'AWS::ApiGatewayV2::Route',
      'AWS::IAM::Policy',
      'AWS::IAM::Role',
      'AWS::Lambda::Function',
      'AWS::Lambda::Permission',
      'AWS::Logs::LogGroup',
    ]);
    for (const variant of [plain, cognito]) {
      const resources = checkQuotas(variant.template.toJSON() as QuotaTemplate).resources;
      // 12 and 23 since the workers moved to a nested stack of their own (59 resources); 2 and 13 before, after
      // issues 34 to 36, decisions §26 and §27, issue 45 and issue 51's jobs; 9 and 20 since issue 55's three
      // onboarding routes; 7 and 18 since issue 56's two frequency cap routes, 5 and 16 since its two performance
      // routes; docs/operations.md, "Quotas".
      expect(resources + 5 * own.length).toBeLessThanOrEqual(QUOTAS.resources);
      expect(resources + 16 * own.length).toBeLessThanOrEqual(500);
    }
  });
});

describe('the workers’ nested stack (docs/operations.md, "Quotas")', () => {
  it('holds every worker with its role, policy, log group and trigger, none of them in the stack itself', () => {
    const queueWorkers = workers.filter((w) => 'queue' in w.trigger || 'stream' in w.trigger);
    const isWorker = (id: string) => workers.some((w) => new RegExp(`^${w.name}[0-9A-F]{8}$`).test(id));
    for (const variant of [plain, cognito]) {
      // Prepare
      const nested = variant.workers!;
      // Assess: each worker's function, role, policy and log group there, its event source or schedule beside it
      expect(
        functionsOf(nested)
          .map(([id]) => id.slice(0, -8))
          .sort(),
      ).toEqual(workers.map((w) => w.name).sort());
      for (const type of ['AWS::IAM::Role', 'AWS::IAM::Policy', 'AWS::Logs::LogGroup'])
        expect(resources(nested, type), type).toHaveLength(workers.length);
      expect(resources(nested, 'AWS::Lambda::EventSourceMapping')).toHaveLength(queueWorkers.length);
      expect(resources(nested, 'AWS::Events::Rule')).toHaveLength(workers.length - queueWorkers.length);
      // Assess: none in the stack itself, which keeps the routes' functions and everything that holds data
      expect(functionsOf(variant.template).filter(([id]) => isWorker(id))).toEqual([]);
      expect(resources(variant.template, 'AWS::Lambda::EventSourceMapping')).toEqual([]);
      for (const type of ['AWS::DynamoDB::GlobalTable', 'AWS::SQS::Queue', 'AWS::Events::EventBus', 'AWS::SecretsManager::Secret'])
        expect(resources(nested, type), type).toEqual([]);
    }
  });
});

describe('the CDK stack', () => {
  it('makes one route per manifest entry plus the fallback, and a function URL for the routes served at one', () => {
    const keys = resourcesOf('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
    const atUrl = routes.filter((route) => route.functionUrl);
    for (const route of routes.filter((r) => !r.functionUrl)) expect(keys).toContain(`${route.method} ${route.path}`);
    for (const route of atUrl) expect(keys).not.toContain(`${route.method} ${route.path}`);
    expect(keys).toContain('ANY /{proxy+}');
    // Meta's intake (issue 54): the function's URL, public, the signature checked by the function
    expect(atUrl.map((route) => route.name)).toEqual(['ReceiveMetaWebhook']);
    const urls = resourcesOf('AWS::Lambda::Url');
    expect(urls).toHaveLength(1);
    expect(urls[0][1].Properties).toMatchObject({
      AuthType: 'NONE',
      TargetFunctionArn: { 'Fn::GetAtt': [named(template, 'ReceiveMetaWebhook')[0], 'Arn'] },
    });
    expect(Object.keys(plain.template.toJSON().Outputs)).toContain('MetaWebhookUrl');
    // Its 300,000 invocations a second send Lambda's own lines only from WARN; every other function keeps INFO's
    const levels = resourcesOf('AWS::Lambda::Function').map(([id, fn]) => [id, fn.Properties.LoggingConfig]);
    const intake = named(template, 'ReceiveMetaWebhook')[0];
    expect(Object.fromEntries(levels)[intake]).toEqual({ LogFormat: 'JSON', LogGroup: expect.anything(), SystemLogLevel: 'WARN' });
    expect(levels.filter(([id, config]) => id !== intake && config?.SystemLogLevel !== undefined)).toEqual([]);
  });

  it('puts Meta’s statuses on a provisioned, encrypted stream read by one worker in batches of 10,000 over 10 s (issue 54)', () => {
    const [[, stream]] = resourcesOf('AWS::Kinesis::Stream');
    expect(stream.Properties).toMatchObject({
      ShardCount: STREAMS.metaStatuses.shards,
      RetentionPeriodHours: 24,
      StreamModeDetails: { StreamMode: 'PROVISIONED' },
    });
    expect(stream.Properties.StreamEncryption).toMatchObject({ EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' });
    const mappings = resourcesOf('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties.EventSourceArn).includes('Stream'),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0][1].Properties).toMatchObject({
      BatchSize: 10_000,
      MaximumBatchingWindowInSeconds: 10,
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      StartingPosition: 'TRIM_HORIZON',
    });
    // The intake puts, the worker reads; the notifications worker reads again a batch the worker gave up on,
    // redriven (it puts nothing); no other function touches the stream
    const named = functionsOf(template).filter(([, f]) =>
      JSON.stringify(f.Properties.Environment?.Variables ?? {}).includes('STATUS_STREAM_NAME'),
    );
    expect(named.map(([id]) => id.slice(0, -8)).sort()).toEqual(['ApplyMetaNotifications', 'ReceiveMetaWebhook']);
    const kinesisOf = (name: string) => actionsOf(statementsOf(template, name)).filter((a) => a.startsWith('kinesis:'));
    expect(kinesisOf('ReceiveMetaWebhook')).toEqual(expect.arrayContaining(['kinesis:PutRecords']));
    expect(kinesisOf('ApplyMetaNotifications')).toEqual(expect.arrayContaining(['kinesis:GetShardIterator', 'kinesis:GetRecords']));
    expect(kinesisOf('ApplyMetaNotifications').filter((a) => a.startsWith('kinesis:Put'))).toEqual([]);
  });

  it('puts every authenticated route behind the JWT authorizer with the given issuer and audience', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      JwtConfiguration: { Issuer: 'https://issuer.example.com/', Audience: ['tms'] },
      IdentitySource: ['$request.header.Authorization'],
    });
    const byKey = new Map(resourcesOf('AWS::ApiGatewayV2::Route').map(([, r]) => [r.Properties.RouteKey, r.Properties]));
    for (const route of routes) {
      expect(byKey.get(`${route.method} ${route.path}`)?.AuthorizationType ?? 'NONE').toBe(route.auth ? 'JWT' : 'NONE');
    }
  });

  it('runs every function on Node 22 arm64, with the table only where its route or worker needs it', () => {
    const functions = resourcesOf('AWS::Lambda::Function').filter(([, f]) => f.Properties.Runtime === 'nodejs22.x');
    const declared = [...routes, ROUTE_NOT_FOUND, ...workers];
    expect(functions.length).toBe(declared.length);
    for (const { name, needs } of declared) {
      const [, fn] = functions.find(([id]) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id))!;
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(Object.keys(fn.Properties.Environment.Variables).includes('TABLE_NAME'), name).toBe(needs.table !== 'none');
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, name).toBeUndefined();
    }
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ JWKS_URL: 'https://issuer.example.com/.well-known/jwks.json' }) },
    });
  });

  it('never lets a deployed function call local webhook receivers, and keeps what EventBridge cannot deliver', () => {
    // Assess: ALLOW_LOCAL_WEBHOOKS is the local stack's alone (decisions §15)
    const functions = resourcesOf('AWS::Lambda::Function');
    expect(functions.filter(([, f]) => 'ALLOW_LOCAL_WEBHOOKS' in (f.Properties.Environment?.Variables ?? {}))).toEqual([]);
    const [, rule] = resourcesOf('AWS::Events::Rule').find(([id]) => id.startsWith('TemplateEventsToWebhookQueue'))!;
    expect(rule.Properties.Targets[0].DeadLetterConfig.Arn).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^EventTargetDlq/), 'Arn'] });
    expect(resources(plain.alarms!, 'AWS::CloudWatch::Alarm').some(([id]) => id.startsWith('EventTargetDlqNotEmpty'))).toBe(true);
  });

  it('gives the Meta webhook secret to the two functions Meta calls and the two that exchange a code, and consumes their queue with a worker', () => {
    // Assess
    const functions = resourcesOf('AWS::Lambda::Function').filter(([, f]) => f.Properties.Runtime === 'nodejs22.x');
    const holding = functions
      .filter(([, f]) => 'META_WEBHOOK_SECRET' in (f.Properties.Environment?.Variables ?? {}))
      .map(([id]) => id.slice(0, -8));
    // The app secret is also Embedded Signup's `client_secret` when a code is exchanged (issue 55).
    expect(holding.sort()).toEqual(['ReceiveMetaWebhook', 'ResumeOnboarding', 'StartOnboarding', 'VerifyMetaWebhook']);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ GenerateStringKey: 'verify_token' }),
    });
    template.hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: QUEUES.metaNotifications.visibilityTimeoutSeconds });
    const [, worker] = functions.find(([id]) => /^ApplyMetaNotifications[0-9A-F]{8}$/.test(id))!;
    expect(worker.Properties.Environment.Variables).toHaveProperty('META_QUEUE_URL');
    expect(worker.Properties.Environment.Variables).toHaveProperty('EVENT_BUS_NAME');
  });

  it('creates the single table on demand with PITR, TTL and the GSIs', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
      GlobalSecondaryIndexes: INDEXES.map((i) => Match.objectLike({ IndexName: i.name })),
    });
  });

  it('grants GET functions read-only access to the table', () => {
    const policies = resourcesOf('AWS::IAM::Policy');
    const getRoute = routes.find((r) => r.method === 'GET' && r.auth)!;
    const policy = policies.find(([id]) => id.startsWith(getRoute.name));
    const actions = JSON.stringify(policy?.[1].Properties.PolicyDocument.Statement);
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).not.toContain('dynamodb:PutItem');
    const putRoute = routes.find((r) => r.method === 'PUT')!;
    const writer = JSON.stringify(policies.find(([id]) => id.startsWith(putRoute.name))?.[1].Properties.PolicyDocument.Statement);
    expect(writer).toContain('dynamodb:PutItem');
  });

  it('routes service events to the webhook queue and consumes it with partial batch failures', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['template-messaging-service'],
        'detail-type': [
          'template.created',
          'template.status_changed',
          'template.category_changing',
          'template.category_changed',
          'send.paused',
          'send.resumed',
          'send.completed',
        ],
      },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'] });
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
  });

  it('lets only the functions that publish put events on the bus', () => {
    const policies = resourcesOf('AWS::IAM::Policy');
    const publishers = policies
      .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('events:PutEvents'))
      .map(([id]) => id);
    expect(publishers.some((id) => id.startsWith('CreateTemplate'))).toBe(true);
    expect(publishers.some((id) => id.startsWith('ListTemplates'))).toBe(false);
  });

  it('throttles the default stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
    });
  });

  it('gives every queue an encrypted dead-letter queue', () => {
    const queues = resourcesOf('AWS::SQS::Queue');
    const withRedrive = queues.filter(([, q]) => q.Properties.RedrivePolicy);
    expect(withRedrive.length).toBeGreaterThan(0);
    for (const [, q] of queues) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
  });
});

describe('the route manifest', () => {
  it('never names two variables differently at the same level of one path (API Gateway refuses that)', () => {
    const seen = new Map<string, string>();
    for (const route of routes) {
      const segments = route.path.split('/');
      segments.forEach((segment, i) => {
        if (!segment.startsWith('{')) return;
        const prefix = segments.slice(0, i).join('/');
        const earlier = seen.get(prefix);
        expect(earlier === undefined || earlier === segment, `${route.path}: ${segment} vs ${earlier} after ${prefix}`).toBe(true);
        seen.set(prefix, segment);
      });
    }
  });

  it("deploys the dispatcher on the dispatch queue with a concurrency cap, the queue's timeout, the pace, and alarms", () => {
    // Assess: the event source mapping caps concurrent dispatchers and reports partial failures
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: 4,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 250 },
    });
    const [, dispatcher] = resourcesOf('AWS::Lambda::Function').find(([id]) => /^DispatchMessages[0-9A-F]{8}$/.test(id))!;
    // 50 s, so a job whose invocation died is taken up within its queue's 5 minutes of visibility (issue 23).
    expect(dispatcher.Properties.Timeout).toBe(50);
    // The pace set at deploy reaches the dispatcher only (its `pacing` need); unset, the dispatcher's default holds.
    expect(dispatcher.Properties.Environment.Variables.MESSAGES_PER_SECOND).toBe('40');
    const paced = resourcesOf('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment?.Variables?.MESSAGES_PER_SECOND);
    expect(paced).toHaveLength(1);
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 300,
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 100 }),
    });
    // Assess: every dead-letter queue and every worker has an alarm
    const alarms = resources(plain.alarms!, 'AWS::CloudWatch::Alarm').map(([id]) => id);
    expect(alarms.filter((id) => id.includes('DlqNotEmpty'))).toHaveLength(Object.keys(QUEUES).length + 1);
    for (const worker of workers) expect(alarms.some((id) => id.startsWith(`${worker.name}Errors`))).toBe(true);
  });
});
