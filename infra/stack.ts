import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, type CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EVENT_RULES } from '#lib/events.ts';
import { dlqName, QUEUES } from '#lib/queues.ts';
import { workers } from '#lib/workers.ts';
import { ROUTE_NOT_FOUND, routes, type Needs } from '#lib/routes.ts';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#lib/adapters/dynamo/table.ts';
import { ServiceFunction } from './http-function.ts';

export interface ServiceStackProps extends StackProps {
  jwtIssuer: string;
  jwtAudience: string;
  /** Where the issuer publishes its keys; defaults to the OIDC well-known location under the issuer. */
  jwksUrl?: string;
  /** The upstream; the real Graph API unless a sandbox points elsewhere. */
  graphApiUrl?: string;
  /** The Meta app id used for resumable uploads of header media. */
  graphAppId?: string;
  /** Messages per second per sending number (decisions §12); 80 when not given. */
  messagesPerSecond?: number;
}

export class TemplateMessagingStack extends Stack {
  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);

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

    const queues = Object.fromEntries(
      Object.entries(QUEUES).map(([key, def]) => {
        const deadLetterQueue = new Queue(this, `${key}Dlq`, {
          queueName: dlqName(def),
          retentionPeriod: Duration.days(14),
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
        });
        const queue = new Queue(this, `${key}Queue`, {
          queueName: def.name,
          visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
          deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
        });
        // Anything in a dead-letter queue was given up on: someone must look (and replay it).
        new Alarm(this, `${key}DlqNotEmpty`, {
          metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
          threshold: 0,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: `Messages in ${dlqName(def)}`,
        });
        return [key, { def, queue }];
      }),
    );

    // The Graph API access token: set its value out of band (console or CLI); functions read it through
    // Powertools Parameters and never log it.
    const graphToken = new Secret(this, 'GraphApiToken', { description: 'Graph API access token of the service' });
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

    // Service events: the bus, and the rules of lib/events.ts sending matching events to their queues.
    const bus = new EventBus(this, 'Events', { eventBusName: 'template-messaging-events' });
    // An event EventBridge cannot put on its target queue (after its own retries for up to a day) is kept here.
    const eventsDlq = new Queue(this, 'EventTargetDlq', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    new Alarm(this, 'EventTargetDlqNotEmpty', {
      metric: eventsDlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: 'Service events EventBridge could not put on their queue',
    });
    for (const rule of EVENT_RULES) {
      new Rule(this, rule.name, {
        eventBus: bus,
        eventPattern: { source: rule.pattern.source, detailType: rule.pattern['detail-type'] },
        targets: [
          new SqsQueue(queues[rule.targetQueue].queue, { deadLetterQueue: eventsDlq, maxEventAge: Duration.hours(24), retryAttempts: 185 }),
        ],
      });
    }

    /** Grants and settings from a function's declared needs (lib/routes.ts): nothing more. */
    const grantNeeds = (fn: ServiceFunction, needs: Needs) => {
      if (needs.table !== 'none') {
        fn.addEnvironment('TABLE_NAME', table.tableName);
        if (needs.table === 'read') table.grantReadData(fn);
        else table.grantReadWriteData(fn);
      }
      if (needs.upstream) {
        graphToken.grantRead(fn);
        fn.addEnvironment('GRAPH_API_TOKEN_SECRET', graphToken.secretName);
        fn.addEnvironment('GRAPH_API_URL', props.graphApiUrl ?? 'https://graph.facebook.com');
        fn.addEnvironment('GRAPH_APP_ID', props.graphAppId ?? 'set-graph-app-id');
      }
      if (needs.metaApp) {
        metaWebhook.grantRead(fn);
        fn.addEnvironment('META_WEBHOOK_SECRET', metaWebhook.secretName);
      }
      if (needs.bus) {
        bus.grantPutEventsTo(fn);
        fn.addEnvironment('EVENT_BUS_NAME', bus.eventBusName);
      }
      for (const key of needs.queues ?? []) {
        const { def, queue } = queues[key];
        queue.grantSendMessages(fn);
        fn.addEnvironment(def.urlSetting, queue.queueUrl);
      }
    };

    const authorizer = new HttpJwtAuthorizer('JwtAuthorizer', props.jwtIssuer, {
      jwtAudience: [props.jwtAudience],
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
    // Rate limiting is API Gateway's throttling (decisions §7).
    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: 100, throttlingBurstLimit: 200 };

    const authEnvironment = {
      JWT_ISSUER: props.jwtIssuer,
      JWT_AUDIENCE: props.jwtAudience,
      JWKS_URL:
        props.jwksUrl ?? new URL('.well-known/jwks.json', props.jwtIssuer.endsWith('/') ? props.jwtIssuer : `${props.jwtIssuer}/`).href,
    };

    for (const route of routes) {
      const environment: Record<string, string> = { ...authEnvironment };
      const fn = new ServiceFunction(this, route.name, { entry: route.entry, environment });
      grantNeeds(fn, route.needs ?? []);
      api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.name}Integration`, fn),
        authorizer: route.auth ? authorizer : undefined,
      });
    }

    // Anything else: 404, or 405 for a known path with another method, in the contract's error shape.
    const fallback = new ServiceFunction(this, ROUTE_NOT_FOUND.name, { entry: ROUTE_NOT_FOUND.entry, memorySize: 256 });
    grantNeeds(fallback, ROUTE_NOT_FOUND.needs);
    api.addRoutes({
      path: '/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('RouteNotFoundIntegration', fallback),
    });

    // Workers: queue consumers report partial batch failures; scheduled ones run on an EventBridge schedule.
    for (const worker of workers) {
      // The sync worker may page through many WABAs: it gets the lease's 15 minutes, the queue's visibility timeout.
      const timeout =
        'queue' in worker.trigger
          ? Duration.seconds(Math.min(QUEUES[worker.trigger.queue].visibilityTimeoutSeconds, 900))
          : Duration.seconds(50);
      const fn = new ServiceFunction(this, worker.name, { entry: worker.entry, timeout });
      grantNeeds(fn, worker.needs);
      // A worker that keeps failing shows as errors before its messages reach a dead-letter queue.
      new Alarm(this, `${worker.name}Errors`, {
        metric: fn.metricErrors({ period: Duration.minutes(5) }),
        threshold: 5,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `${worker.name} failed more than 5 times in 5 minutes`,
      });
      if ('queue' in worker.trigger) {
        const { def, queue } = queues[worker.trigger.queue];
        queue.grantConsumeMessages(fn);
        if (worker.trigger.queue === 'dispatch') fn.addEnvironment('MESSAGES_PER_SECOND', String(props.messagesPerSecond ?? 80));
        fn.addEnvironment(def.urlSetting, queue.queueUrl);
        fn.addEventSource(
          new SqsEventSource(queues[worker.trigger.queue].queue, {
            batchSize: worker.trigger.batchSize,
            reportBatchItemFailures: true,
            ...(worker.trigger.maxConcurrency && { maxConcurrency: worker.trigger.maxConcurrency }),
          }),
        );
      } else {
        new Rule(this, `${worker.name}Schedule`, {
          schedule: Schedule.rate(Duration.minutes(worker.trigger.everyMinutes)),
          targets: [new LambdaFunction(fn)],
        });
      }
    }

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'MetaWebhookUrl', { value: `${api.apiEndpoint}/v1/meta/webhooks` });
    new CfnOutput(this, 'MetaWebhookSecretName', { value: metaWebhook.secretName });
  }
}
