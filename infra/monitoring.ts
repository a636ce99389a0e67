import { Duration, NestedStack, type Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#lib/log/service.ts';
import type { ServiceFunction } from './service-function.ts';

/**
 * Every alarm, in a nested stack of its own (two a function would take the template past CloudFormation's 500
 * resources within 20 more routes, docs/operations.md "Quotas"), and the one topic they go to (an output:
 * subscribe a mail address, a chat hook or an incident tool).
 *
 * Like every part of infra/, it makes its resources in the stack's own scope, so their logical ids stay those
 * deployed stacks already have (a table moved into a construct of its own would be a new, empty table).
 */
export class Monitoring {
  readonly stack: NestedStack;
  readonly topic: Topic;

  constructor(scope: Stack, alarmEmail?: string) {
    this.stack = new NestedStack(scope, 'Monitoring', { description: 'Template Messaging Service: alarms' });
    this.topic = new Topic(scope, 'Alarms', { displayName: 'Template Messaging Service alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'CloudWatch alarms publish here; a topic encrypted with the AWS managed key refuses them. Alarm texts carry no data.',
    });
    if (alarmEmail) this.topic.addSubscription(new EmailSubscription(alarmEmail));
  }

  /** An alarm when the metric goes above the threshold (0: at all) in one period. */
  alarm(id: string, metric: IMetric, description: string, threshold = 0) {
    new Alarm(this.stack, id, {
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    }).addAlarmAction(new SnsAction(this.topic));
  }

  /** A function that fails or is throttled shows here before its callers or messages give up. */
  functionAlarms(fn: ServiceFunction) {
    const id = fn.node.id;
    this.alarm(`${id}Errors`, fn.metricErrors({ period: Duration.minutes(5) }), `${id} failed in the last 5 minutes`);
    this.alarm(`${id}Throttles`, fn.metricThrottles({ period: Duration.minutes(5) }), `${id} was throttled in the last 5 minutes`);
  }

  /** The service's own failure counts (lib/log/metrics.ts), beside the functions' errors. */
  serviceAlarms() {
    const serviceMetric = (metricName: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE_NAME },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });
    this.alarm('SyncRunsFailed', serviceMetric('SyncRunsFailed'), 'A sync from Meta failed in the last 5 minutes');
    this.alarm('WebhookDeliveriesFailed', serviceMetric('WebhookDeliveriesFailed'), 'A webhook delivery gave up after its last retry');
    this.alarm(
      'CostGaps',
      serviceMetric('CostGaps'),
      'A WABA’s day cost differs from Meta’s pricing_analytics by more than 1 % (decisions §24)',
    );
    this.alarm(
      'StatementClosesFailed',
      serviceMetric('StatementClosesFailed'),
      'The close job could not close a client’s month (decisions §30): it reads open until a run closes it (docs/operations.md)',
    );
  }
}
