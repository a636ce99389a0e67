import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_NOT_FOUND, routes } from '#lib/routes.ts';
import { QUEUES } from '#lib/queues.ts';
import { workers } from '#lib/workers.ts';
import { INDEXES } from '#lib/adapters/dynamo/table.ts';
import { TemplateMessagingStack } from '../../infra/stack.ts';

let template: Template;

beforeAll(() => {
  // Prepare: synthesise without bundling, which would cost seconds per function.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new TemplateMessagingStack(app, 'Test', {
    jwtIssuer: 'https://issuer.example.com/',
    jwtAudience: 'tms',
    messagesPerSecond: 40,
  });
  template = Template.fromStack(stack, { skipCyclicalDependenciesCheck: true });
});

const resourcesOf = (type: string) => Object.entries(template.findResources(type));

describe('the CDK stack', () => {
  it('makes one route per manifest entry plus the fallback', () => {
    const keys = resourcesOf('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
    for (const route of routes) expect(keys).toContain(`${route.method} ${route.path}`);
    expect(keys).toContain('ANY /{proxy+}');
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
    expect(resourcesOf('AWS::CloudWatch::Alarm').some(([id]) => id.startsWith('EventTargetDlqNotEmpty'))).toBe(true);
  });

  it('gives the Meta webhook secret to the two functions Meta calls only, and consumes their queue with a worker', () => {
    // Assess
    const functions = resourcesOf('AWS::Lambda::Function').filter(([, f]) => f.Properties.Runtime === 'nodejs22.x');
    const holding = functions
      .filter(([, f]) => 'META_WEBHOOK_SECRET' in (f.Properties.Environment?.Variables ?? {}))
      .map(([id]) => id.slice(0, -8));
    expect(holding.sort()).toEqual(['ReceiveMetaWebhook', 'VerifyMetaWebhook']);
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
      EventPattern: { source: ['template-messaging-service'], 'detail-type': ['template.created', 'template.status_changed'] },
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
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
    const [, dispatcher] = resourcesOf('AWS::Lambda::Function').find(([id]) => /^DispatchMessages[0-9A-F]{8}$/.test(id))!;
    expect(dispatcher.Properties.Timeout).toBe(300);
    // The pace set at deploy reaches the dispatcher only (its `pacing` need); unset, the dispatcher's default holds.
    expect(dispatcher.Properties.Environment.Variables.MESSAGES_PER_SECOND).toBe('40');
    const paced = resourcesOf('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment?.Variables?.MESSAGES_PER_SECOND);
    expect(paced).toHaveLength(1);
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 1800,
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 100 }),
    });
    // Assess: every dead-letter queue and every worker has an alarm
    const alarms = resourcesOf('AWS::CloudWatch::Alarm').map(([id]) => id);
    expect(alarms.filter((id) => id.includes('DlqNotEmpty'))).toHaveLength(Object.keys(QUEUES).length + 1);
    for (const worker of workers) expect(alarms.some((id) => id.startsWith(`${worker.name}Errors`))).toBe(true);
  });
});
