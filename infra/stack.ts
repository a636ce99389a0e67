import { CfnOutput, Duration, NestedStack, RemovalPolicy, SecretValue, Stack, Token, Validations, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, type CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#lib/adapters/dynamo/table.ts';
import type { ClaimNames } from '#lib/auth/claim-names.ts';
import { EVENT_RULES } from '#lib/manifest/events.ts';
import { GRAPH_TOKEN_UNSET } from '#lib/adapters/graph/token.ts';
import { QUEUES } from '#lib/manifest/queues.ts';
import { GetApiDocs } from '#lib/manifest/routes/docs.ts';
import type { Needs } from '#lib/manifest/needs.ts';
import { ReceiveMetaWebhook } from '#lib/manifest/routes/meta.ts';
import { ROUTE_NOT_FOUND, routes } from '#lib/manifest/routes.ts';
import { type SettingSources, settingsFor } from '#lib/manifest/needs.ts';
import { DispatchMessages, workers } from '#lib/manifest/workers.ts';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#lib/log/service.ts';
import { deployedFunctions } from './function-bundles.ts';
import { prebuildBundles, ServiceFunction } from './service-function.ts';
import { Identity, PRE_TOKEN_GENERATION_ENTRY } from './identity.ts';

export interface ServiceStackProps extends StackProps {
  /** The token issuer API Gateway trusts; ignored with `cognito` (the user pool is the issuer). */
  jwtIssuer?: string;
  /** The audience (or Cognito app client id) API Gateway requires; ignored with `cognito`. */
  jwtAudience?: string;
  /** Where the issuer publishes its keys; defaults to the OIDC well-known location under the issuer. */
  jwksUrl?: string;
  /** Create a Cognito user pool as the issuer (decisions §17). */
  cognito?: boolean;
  /** The claims that carry a caller's client id, permissions and campaigns (decisions §17). */
  claims?: Partial<ClaimNames>;
  /** The upstream; the real Graph API unless a sandbox points elsewhere. */
  graphApiUrl?: string;
  /** The Meta app id used for resumable uploads of header media; without it, uploads answer 502 saying so. */
  graphAppId?: string;
  /** Messages per second per sending number (decisions §12); the dispatcher's default when not given. */
  messagesPerSecond?: number;
  /**
   * Dispatcher invocations at once (decisions §23; sizing in docs/dispatch-jobs.md): its event source's maximum
   * concurrency, 2 to 1,000. DISPATCH_CONCURRENCY's default (lib/config.ts) when not given.
   */
  dispatchConcurrency?: number;
  /** Where alarms are mailed; without it the topic is there to subscribe to by hand. */
  alarmEmail?: string;
}

/** DynamoDB actions per level of need: what the stores issue (transactions are authorised per item action). */
const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
    'dynamodb:ConditionCheckItem',
  ],
} as const;

export class TemplateMessagingStack extends Stack {
  /**
   * Every alarm, in a nested stack of its own: two a function would take this template past CloudFormation's
   * 500 resources within 20 more routes (docs/operations.md, "Quotas"); here the stack counts one.
   */
  readonly monitoring: NestedStack;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    this.monitoring = new NestedStack(this, 'Monitoring', { description: 'Template Messaging Service: alarms' });

    // Every alarm goes to one topic (an output): subscribe a mail address, a chat hook or an incident tool.
    const alarms = new Topic(this, 'Alarms', { displayName: 'Template Messaging Service alarms', enforceSSL: true });
    Validations.of(alarms).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'CloudWatch alarms publish here; a topic encrypted with the AWS managed key refuses them. Alarm texts carry no data.',
    });
    if (props.alarmEmail) alarms.addSubscription(new EmailSubscription(props.alarmEmail));
    const alarm = (id: string, metric: IMetric, description: string, threshold = 0) =>
      new Alarm(this.monitoring, id, {
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }).addAlarmAction(new SnsAction(alarms));

    const table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partition, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sort, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: INDEXES.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partition, type: AttributeType.STRING },
        sortKey: { name: index.sort, type: AttributeType.STRING },
        projectionType: typeof index.projection === 'string' ? ProjectionType[index.projection] : ProjectionType.INCLUDE,
        ...(typeof index.projection !== 'string' && { nonKeyAttributes: index.projection.include }),
      })),
    });
    // The table and each index by name: no wildcard, no Scan, no stream.
    const tableResources = [table.tableArn, ...INDEXES.map((index) => `${table.tableArn}/index/${index.name}`)];

    // Queues are named by CloudFormation, so two stacks can share an account; functions learn their URLs.
    const queues = Object.fromEntries(
      Object.entries(QUEUES).map(([key, def]) => {
        const deadLetterQueue = new Queue(this, `${key}Dlq`, {
          retentionPeriod: Duration.days(14),
          // As its queue's: a worker may consume it (lib/manifest/workers.ts `deadLetters`).
          visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
        });
        const queue = new Queue(this, `${key}Queue`, {
          visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
          deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
        });
        // Anything in a dead-letter queue was given up on: someone must look (and replay it).
        alarm(
          `${key}DlqNotEmpty`,
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
          `Messages in the ${def.name} dead-letter queue`,
        );
        return [key, { def, queue, deadLetterQueue }];
      }),
    );

    // Scheduled sends (decisions §22): one-time schedules in this group put `{send_id}` on the release queue,
    // sent with a role only EventBridge Scheduler of this account may take; SendTemplate makes them.
    const scheduleGroup = new ScheduleGroup(this, 'SendSchedules');
    const schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
      description: 'EventBridge Scheduler: puts a scheduled send on the release queue',
    });
    queues.sendRelease.queue.grantSendMessages(schedulerRole);

    // The Graph API access token: created holding a marker that functions recognise, so until it is set
    // (README, "Deploy") upstream routes answer 502 saying so. Functions read it through Powertools Parameters.
    const graphToken = new Secret(this, 'GraphApiToken', {
      description: 'Graph API access token of the service (a Meta system user token)',
      secretStringValue: SecretValue.unsafePlainText(GRAPH_TOKEN_UNSET),
    });
    Validations.of(graphToken).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'A Meta system user token: Meta issues and revokes it; no Lambda can rotate it. Set with put-secret-value (README).',
    });
    // Meta's webhooks (decisions §13): set app_secret to the Meta app's secret; the verify token is generated
    // here and given to Meta when the callback URL is registered.
    const metaWebhook = new Secret(this, 'MetaWebhookSecret', {
      description: 'Meta app secret (app_secret) and webhook verify token (verify_token)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ app_secret: 'set-the-meta-app-secret' }),
        generateStringKey: 'verify_token',
        excludePunctuation: true,
        passwordLength: 40,
      },
    });
    Validations.of(metaWebhook).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: "The Meta app's secret is issued by Meta (rotated in the app dashboard), and the verify token is registered there.",
    });

    // Service events: the bus, and the rules of lib/manifest/events.ts sending matching events to their queues.
    const bus = new EventBus(this, 'Events');
    // An event EventBridge cannot hand to its target (after its own retries for up to a day) is kept here.
    const eventsDlq = new Queue(this, 'EventTargetDlq', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(eventsDlq).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "It is a dead-letter queue: of the EventBridge rules' targets (cdk-nag sees only queues' redrive policies).",
    });
    alarm(
      'EventTargetDlqNotEmpty',
      eventsDlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
      'Service events EventBridge could not hand to their target',
    );
    for (const rule of EVENT_RULES) {
      new Rule(this, rule.name, {
        eventBus: bus,
        eventPattern: { source: rule.pattern.source, detailType: rule.pattern['detail-type'] },
        targets: [
          new SqsQueue(queues[rule.targetQueue].queue, { deadLetterQueue: eventsDlq, maxEventAge: Duration.hours(24), retryAttempts: 185 }),
        ],
      });
    }

    // Every bundle in one esbuild run, when this synth bundles at all (tests of the template skip it).
    if (this.bundlingRequired) {
      prebuildBundles([...deployedFunctions().map((f) => f.entry), ...(props.cognito ? [PRE_TOKEN_GENERATION_ENTRY] : [])]);
    }
    const identity = new Identity(this, 'Identity', props);

    /** A function that fails or is throttled shows here before its callers or messages give up. */
    const alarmOn = (fn: ServiceFunction) => {
      const id = fn.node.id;
      alarm(`${id}Errors`, fn.metricErrors({ period: Duration.minutes(5) }), `${id} failed in the last 5 minutes`);
      alarm(`${id}Throttles`, fn.metricThrottles({ period: Duration.minutes(5) }), `${id} was throttled in the last 5 minutes`);
    };
    if (identity.trigger) alarmOn(identity.trigger);

    /** What the functions' settings are made of: this stack's resources. */
    const sources: SettingSources = {
      tableName: table.tableName,
      graphApiUrl: props.graphApiUrl ?? 'https://graph.facebook.com',
      graphToken: { secretName: graphToken.secretName },
      graphAppId: props.graphAppId,
      metaApp: { secretName: metaWebhook.secretName },
      eventBusName: bus.eventBusName,
      queueUrls: Object.fromEntries(Object.entries(queues).map(([key, { queue }]) => [key, queue.queueUrl])) as SettingSources['queueUrls'],
      messagesPerSecond: props.messagesPerSecond,
      schedules: { group: scheduleGroup.scheduleGroupName, queueArn: queues.sendRelease.queue.queueArn, roleArn: schedulerRole.roleArn },
    };
    /** Grants and settings from a function's declared needs (lib/manifest/routes/): nothing more. */
    const grantNeeds = (fn: ServiceFunction, needs: Needs) => {
      for (const [name, value] of Object.entries(settingsFor(needs, sources))) fn.addEnvironment(name, value);
      if (needs.table !== 'none') {
        fn.addToRolePolicy(new PolicyStatement({ actions: [...TABLE_ACTIONS[needs.table]], resources: tableResources }));
      }
      if (needs.upstream) graphToken.grantRead(fn);
      if (needs.metaApp) metaWebhook.grantRead(fn);
      if (needs.bus) bus.grantPutEventsTo(fn);
      for (const key of needs.queues ?? []) queues[key].queue.grantSendMessages(fn);
      if (needs.schedules) {
        scheduleGroup.grantWriteSchedules(fn);
        // The finding names the region and account as cdk-nag prints them: literal when the stack's env gives them.
        const [region, account] = [this.region, this.account].map((v, i) =>
          Token.isUnresolved(v) ? ['<AWS::Region>', '<AWS::AccountId>'][i] : v,
        );
        Validations.of(fn.role!).acknowledge({
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:${region}:${account}:schedule/${Stack.of(this).resolve(scheduleGroup.scheduleGroupName)}/*]`,
          reason: 'A schedule per send (send-<send id>), named when the send is accepted: only the service’s own group.',
        });
        schedulerRole.grantPassRole(fn.grantPrincipal);
      }
      alarmOn(fn);
    };

    const authorizer = new HttpJwtAuthorizer('JwtAuthorizer', identity.issuer, {
      jwtAudience: [identity.audience],
      identitySource: ['$request.header.Authorization'],
    });
    const api = new HttpApi(this, 'Api', {
      description: 'Template Messaging Service',
      corsPreflight: {
        allowHeaders: ['authorization', 'content-type'],
        allowMethods: [CorsHttpMethod.ANY],
        allowOrigins: ['*'],
        maxAge: Duration.hours(1),
      },
    });
    // Rate limiting is API Gateway's throttling (decisions §7); every request is logged as one JSON line.
    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: 100, throttlingBurstLimit: 200 };
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH });
    stage.accessLogSettings = { destinationArn: accessLogs.logGroupArn, format: JSON.stringify(ACCESS_LOG_FORMAT) };
    const serverErrorRate = new MathExpression({
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: {
        errors: api.metricServerError({ period: Duration.minutes(5) }),
        requests: api.metricCount({ period: Duration.minutes(5) }),
      },
      period: Duration.minutes(5),
      label: '5xx %',
    });
    alarm('Api5xxRate', serverErrorRate, 'More than 1% of API requests answered 5xx in 5 minutes', 1);

    for (const route of routes) {
      const fn = new ServiceFunction(this, route.name, {
        entry: route.entry,
        environment: { ...identity.environment },
        ...(route.files && { copyFiles: route.files }),
      });
      grantNeeds(fn, route.needs ?? []);
      const [created] = api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.name}Integration`, fn),
        authorizer: route.auth ? authorizer : undefined,
      });
      if (!route.auth) Validations.of(created).acknowledge({ id: 'AwsSolutions-APIG4', reason: route.publicBecause ?? 'public' });
    }

    // Anything else: 404, or 405 for a known path with another method, in the contract's error shape.
    const fallback = new ServiceFunction(this, ROUTE_NOT_FOUND.name, { entry: ROUTE_NOT_FOUND.entry, memorySize: 256 });
    grantNeeds(fallback, ROUTE_NOT_FOUND.needs);
    const [fallbackRoute] = api.addRoutes({
      path: '/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('RouteNotFoundIntegration', fallback),
    });
    Validations.of(fallbackRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'Answers 404/405 for paths no route has; reads nothing.',
    });

    // Workers: queue consumers report partial batch failures; scheduled ones run on an EventBridge schedule.
    for (const worker of workers) {
      const fn = new ServiceFunction(this, worker.name, { entry: worker.entry, timeout: Duration.seconds(worker.timeoutSeconds) });
      grantNeeds(fn, worker.needs);
      if ('queue' in worker.trigger) {
        const { def, queue: mainQueue, deadLetterQueue } = queues[worker.trigger.queue];
        const queue = worker.trigger.deadLetters ? deadLetterQueue : mainQueue;
        queue.grantConsumeMessages(fn);
        fn.addEnvironment(def.urlSetting, queue.queueUrl);
        fn.addEventSource(
          new SqsEventSource(queue, {
            batchSize: worker.trigger.batchSize,
            ...(worker.trigger.batchWindowSeconds && { maxBatchingWindow: Duration.seconds(worker.trigger.batchWindowSeconds) }),
            reportBatchItemFailures: true,
            ...(worker.trigger.maxConcurrency && {
              maxConcurrency: (worker.name === DispatchMessages.name && props.dispatchConcurrency) || worker.trigger.maxConcurrency,
            }),
          }),
        );
      } else {
        new Rule(this, `${worker.name}Schedule`, {
          schedule: Schedule.rate(Duration.minutes(worker.trigger.everyMinutes)),
          // A run EventBridge could not start is kept; the next minute's run does the same work anyway.
          targets: [new LambdaFunction(fn, { deadLetterQueue: eventsDlq, retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
        });
      }
    }

    // The service's own failure counts (lib/log/metrics.ts), beside the functions' errors.
    const serviceMetric = (metricName: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE_NAME },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });
    alarm('SyncRunsFailed', serviceMetric('SyncRunsFailed'), 'A sync from Meta failed in the last 5 minutes');
    alarm('WebhookDeliveriesFailed', serviceMetric('WebhookDeliveriesFailed'), 'A webhook delivery gave up after its last retry');
    alarm(
      'CostGaps',
      serviceMetric('CostGaps'),
      'A WABA’s day cost differs from Meta’s pricing_analytics by more than 1 % (decisions §24)',
    );

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    new CfnOutput(this, 'ApiDocsUrl', { value: `${api.apiEndpoint}${GetApiDocs.path}` });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topicArn });
    new CfnOutput(this, 'GraphApiTokenSecretName', { value: graphToken.secretName });
    new CfnOutput(this, 'MetaWebhookUrl', { value: `${api.apiEndpoint}${ReceiveMetaWebhook.path}` });
    new CfnOutput(this, 'MetaWebhookSecretName', { value: metaWebhook.secretName });
  }
}

/** One JSON line per API request: who, what, how it ended, and the id the function logs as `request_id`. */
const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
  sub: '$context.authorizer.claims.sub',
  userAgent: '$context.identity.userAgent',
};
