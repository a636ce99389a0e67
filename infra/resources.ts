import { Duration, RemovalPolicy, SecretValue, type Stack, Validations } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Stream, StreamEncryption, StreamMode } from 'aws-cdk-lib/aws-kinesis';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#lib/adapters/dynamo/table.ts';
import { GRAPH_TOKEN_UNSET } from '#lib/adapters/graph/token.ts';
import { EVENT_RULES } from '#lib/manifest/events.ts';
import type { QueueKey, StreamKey } from '#lib/manifest/needs.ts';
import { type QueueDef, QUEUES, STREAMS } from '#lib/manifest/queues.ts';
import type { Monitoring } from './monitoring.ts';

/** A queue of the manifest (lib/manifest/queues.ts) and its dead-letter queue. */
export interface ServiceQueue {
  def: QueueDef;
  queue: Queue;
  deadLetterQueue: Queue;
}

/**
 * What the service keeps and the functions share: the table, the queues, the schedules of scheduled sends, the
 * secrets, and the event bus with its rules. Made in the stack's own scope (see monitoring.ts): these hold data.
 */
export class ServiceResources {
  readonly table: TableV2;
  /** The table and each index by name: no wildcard, no Scan, no stream. */
  readonly tableResources: string[];
  readonly queues: Record<QueueKey, ServiceQueue>;
  /** The streams of the manifest (issue 54: Meta's statuses), provisioned. */
  readonly streams: Record<StreamKey, Stream>;
  readonly scheduleGroup: ScheduleGroup;
  readonly schedulerRole: Role;
  readonly graphToken: Secret;
  readonly metaWebhook: Secret;
  readonly bus: EventBus;
  /** Events (and scheduled runs) EventBridge could not hand to their target. */
  readonly eventsDlq: Queue;

  /** `statusShards`: the statuses' stream's shards, the manifest's unless the deployment says (docs/operations.md). */
  constructor(scope: Stack, monitoring: Monitoring, statusShards?: number) {
    this.table = new TableV2(scope, 'Table', {
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
    this.tableResources = [this.table.tableArn, ...INDEXES.map((index) => `${this.table.tableArn}/index/${index.name}`)];

    // Queues are named by CloudFormation, so two stacks can share an account; functions learn their URLs.
    this.queues = Object.fromEntries(
      Object.entries(QUEUES).map(([key, def]) => {
        const deadLetterQueue = new Queue(scope, `${key}Dlq`, {
          retentionPeriod: Duration.days(14),
          // As its queue's: a worker may consume it (lib/manifest/workers.ts `deadLetters`).
          visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
        });
        const queue = new Queue(scope, `${key}Queue`, {
          visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
          deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
        });
        // Anything in a dead-letter queue was given up on: someone must look (and replay it).
        monitoring.alarm(
          `${key}DlqNotEmpty`,
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
          `Messages in the ${def.name} dead-letter queue`,
        );
        return [key, { def, queue, deadLetterQueue }];
      }),
    ) as Record<QueueKey, ServiceQueue>;

    // Meta's statuses (issue 54, docs/high-tier.md §3): provisioned shards, encrypted with Kinesis's own key. A
    // record the worker has not taken after 5 minutes means its shard is held up (a batch failing again and again).
    this.streams = Object.fromEntries(
      Object.entries(STREAMS).map(([key, def]) => {
        const stream = new Stream(scope, `${key}Stream`, {
          streamMode: StreamMode.PROVISIONED,
          shardCount: (key === 'metaStatuses' && statusShards) || def.shards,
          retentionPeriod: Duration.hours(def.retentionHours),
          encryption: StreamEncryption.MANAGED,
        });
        monitoring.alarm(
          `${key}StreamBehind`,
          stream.metricGetRecordsIteratorAgeMilliseconds({ period: Duration.minutes(1), statistic: 'Maximum' }),
          `Records of the ${def.name} stream waited more than 5 minutes to be read`,
          300_000,
        );
        return [key, stream];
      }),
    ) as Record<StreamKey, Stream>;

    // Scheduled sends (decisions §22): one-time schedules in this group put `{send_id}` on the release queue,
    // sent with a role only EventBridge Scheduler of this account may take; SendTemplate makes them.
    this.scheduleGroup = new ScheduleGroup(scope, 'SendSchedules');
    this.schedulerRole = new Role(scope, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': scope.account } } }),
      description: 'EventBridge Scheduler: puts a scheduled send on the release queue',
    });
    this.queues.sendRelease.queue.grantSendMessages(this.schedulerRole);

    // The Graph API access token: created holding a marker that functions recognise, so until it is set
    // (README, "Deploy") upstream routes answer 502 saying so. Functions read it through Powertools Parameters.
    this.graphToken = new Secret(scope, 'GraphApiToken', {
      description: 'Graph API access token of the service (a Meta system user token)',
      secretStringValue: SecretValue.unsafePlainText(GRAPH_TOKEN_UNSET),
    });
    Validations.of(this.graphToken).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'A Meta system user token: Meta issues and revokes it; no Lambda can rotate it. Set with put-secret-value (README).',
    });
    // Meta's webhooks (decisions §13): set app_secret to the Meta app's secret; the verify token is generated
    // here and given to Meta when the callback URL is registered.
    this.metaWebhook = new Secret(scope, 'MetaWebhookSecret', {
      description: 'Meta app secret (app_secret) and webhook verify token (verify_token)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ app_secret: 'set-the-meta-app-secret' }),
        generateStringKey: 'verify_token',
        excludePunctuation: true,
        passwordLength: 40,
      },
    });
    Validations.of(this.metaWebhook).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: "The Meta app's secret is issued by Meta (rotated in the app dashboard), and the verify token is registered there.",
    });

    // Service events: the bus, and the rules of lib/manifest/events.ts sending matching events to their queues.
    this.bus = new EventBus(scope, 'Events');
    // An event EventBridge cannot hand to its target (after its own retries for up to a day) is kept here.
    this.eventsDlq = new Queue(scope, 'EventTargetDlq', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.eventsDlq).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "It is a dead-letter queue: of the EventBridge rules' targets (cdk-nag sees only queues' redrive policies).",
    });
    monitoring.alarm(
      'EventTargetDlqNotEmpty',
      this.eventsDlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
      'Service events EventBridge could not hand to their target',
    );
    for (const rule of EVENT_RULES) {
      new Rule(scope, rule.name, {
        eventBus: this.bus,
        eventPattern: { source: rule.pattern.source, detailType: rule.pattern['detail-type'] },
        targets: [
          new SqsQueue(this.queues[rule.targetQueue].queue, {
            deadLetterQueue: this.eventsDlq,
            maxEventAge: Duration.hours(24),
            retryAttempts: 185,
          }),
        ],
      });
    }
  }
}
