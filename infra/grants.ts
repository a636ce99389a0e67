import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type Needs, type SettingSources, settingsFor } from '#lib/manifest/needs.ts';
import type { Monitoring } from './monitoring.ts';
import type { ServiceResources } from './resources.ts';
import type { ServiceFunction } from './service-function.ts';

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

/**
 * A function's grants and settings from its declared needs (lib/manifest/), nothing more, and its alarms: what
 * every route's and worker's function is given.
 */
export class NeedsGrants {
  constructor(
    private readonly resources: ServiceResources,
    private readonly sources: SettingSources,
    private readonly monitoring: Monitoring,
  ) {}

  grant(fn: ServiceFunction, needs: Needs) {
    const { resources } = this;
    for (const [name, value] of Object.entries(settingsFor(needs, this.sources))) fn.addEnvironment(name, value);
    if (needs.table !== 'none') {
      fn.addToRolePolicy(new PolicyStatement({ actions: [...TABLE_ACTIONS[needs.table]], resources: resources.tableResources }));
    }
    if (needs.upstream) resources.graphToken.grantRead(fn);
    if (needs.metaApp) resources.metaWebhook.grantRead(fn);
    if (needs.bus) resources.bus.grantPutEventsTo(fn);
    for (const key of needs.queues ?? []) resources.queues[key].queue.grantSendMessages(fn);
    for (const key of needs.streams ?? []) resources.streams[key].grantWrite(fn);
    for (const key of needs.rereads ?? []) resources.streams[key].grantRead(fn);
    for (const key of needs.wakes ?? []) resources.queues[key].queue.grant(fn, 'sqs:ChangeMessageVisibility');
    if (needs.schedules) {
      resources.scheduleGroup.grantWriteSchedules(fn);
      // The finding names the region and account as cdk-nag prints them: literal when the stack's env gives them.
      const stack = Stack.of(fn);
      const [region, account] = [stack.region, stack.account].map((v, i) =>
        Token.isUnresolved(v) ? ['<AWS::Region>', '<AWS::AccountId>'][i] : v,
      );
      Validations.of(fn.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:${region}:${account}:schedule/${stack.resolve(resources.scheduleGroup.scheduleGroupName)}/*]`,
        reason: 'A schedule per send (send-<send id>), named when the send is accepted: only the service’s own group.',
      });
      resources.schedulerRole.grantPassRole(fn.grantPrincipal);
    }
    if (needs.onboarding) this.grantOnboardingSecrets(fn);
    this.monitoring.functionAlarms(fn);
  }

  /** The onboarded business tokens (issue 55): create, replace and read the secrets under the stack's prefix, no others. */
  private grantOnboardingSecrets(fn: ServiceFunction) {
    const stack = Stack.of(fn);
    const prefix = this.sources.onboarding?.secretPrefix ?? `${stack.stackName}/onboarding/`;
    const arn = stack.formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${prefix}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue', 'secretsmanager:GetSecretValue'],
        resources: [arn],
      }),
    );
    const [region, account] = [stack.region, stack.account].map((v, i) =>
      Token.isUnresolved(v) ? ['<AWS::Region>', '<AWS::AccountId>'][i] : v,
    );
    Validations.of(fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:${region}:${account}:secret:${stack.resolve(prefix)}*]`,
      reason: 'A secret per onboarding (onboarding/<code hash>), named when the onboarding starts: only the stack’s own prefix.',
    });
  }
}
