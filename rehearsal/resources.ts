import { randomBytes } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  CreateUserPoolDomainCommand,
  SetUserPoolMfaConfigCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CreateTableCommand, DynamoDBClient, UpdateContinuousBackupsCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateEventBusCommand, EventBridgeClient, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { CreateSecretCommand, GetRandomPasswordCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CreateStreamCommand, DescribeStreamSummaryCommand, KinesisClient } from '@aws-sdk/client-kinesis';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type Made, pseudoParameters, resolve, UnresolvedReference } from './intrinsics.ts';
import { type Credentials, REHEARSAL_REGION } from './moto.ts';
import { type PolicyStatement, policyForMoto } from './policies.ts';

/**
 * A resource's properties as the template writes them: their shape is its type's (each maker reads its own),
 * so they are read without a declared type.
 */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation's properties, a shape per resource type
export type Properties = Record<string, any>;

/** What of a synthesized template the rehearsal reads. */
export interface TemplateResource {
  Type: string;
  Properties?: Properties;
  Metadata?: Record<string, string>;
}
export interface Template {
  Resources: Record<string, TemplateResource>;
  Outputs?: Record<string, unknown>;
}

/** A resource as made in moto: its `Ref` and attributes, as CloudFormation would give them. */
interface MadeResource {
  type: string;
  ref: string;
  attributes: Record<string, string>;
}

/** A role made from the template: its statements as the template grants them (Refs resolved). */
export interface MadeRole {
  logicalId: string;
  arn: string;
  name: string;
  /** The template's trust policy, as written (moto's copy trusts the deployer instead: see `makeRole`). */
  trust: unknown;
  statements: PolicyStatement[];
}

export interface MadeStack extends Made {
  account: string;
  resources: Map<string, MadeResource>;
  roles: Map<string, MadeRole>;
  /** Types the rehearsal does not make (moto lacks them, or only AWS's runtime uses them), with their counts. */
  notMade: Record<string, number>;
}

const suffix = (length: number) =>
  randomBytes(length)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, length);
/** A physical name as CloudFormation makes one: stack, logical id and a random tail, within the service's limit. */
const physicalName = (stack: string, logicalId: string, max: number) => {
  const tail = suffix(12);
  return `${`${stack}-${logicalId}`.slice(0, max - tail.length - 1)}-${tail}`;
};

/** The AWS clients of the deployer (moto's administrator). */
export function deployerClients(endpoint: string, credentials: Credentials) {
  const config = { endpoint, region: REHEARSAL_REGION, credentials };
  return {
    dynamodb: new DynamoDBClient(config),
    sqs: new SQSClient(config),
    sns: new SNSClient(config),
    secrets: new SecretsManagerClient(config),
    events: new EventBridgeClient(config),
    iam: new IAMClient(config),
    cognito: new CognitoIdentityProviderClient(config),
    // HTTP/1.1, as the functions' own (lib/adapters/kinesis/status-stream.ts): the SDK's Kinesis default is HTTP/2.
    kinesis: new KinesisClient({ ...config, requestHandler: new NodeHttpHandler() }),
  };
}
type Clients = ReturnType<typeof deployerClients>;

/**
 * Makes in moto, from the template's own definitions, what the functions use: the table, the queues, the statuses'
 * stream, the bus and its rules, the secrets, the topic, the user pool with its clients and hosted-UI domain, and each role with its
 * policies (the API is named only). A resource
 * waits for those it refers to (a queue for its dead-letter queue, a policy for its role), as CloudFormation
 * orders them. Functions and log groups are named (their ARNs appear in rules and policies), not made: moto runs
 * no Lambda without Docker; the rehearsal runs each bundle itself.
 */
export async function makeStack(
  template: Template,
  clients: Clients,
  options: { stackName: string; account: string; deployerArn: string },
): Promise<MadeStack> {
  const pseudo = pseudoParameters(REHEARSAL_REGION, options.account, options.stackName);
  const resources = new Map<string, MadeResource>();
  const stack: MadeStack = {
    account: options.account,
    resources,
    roles: new Map(),
    notMade: {},
    ref: (id) => pseudo[id] ?? resources.get(id)?.ref,
    attribute: (id, name) => resources.get(id)?.attributes[name],
  };
  const arn = (service: string, rest: string) => `arn:aws:${service}:${REHEARSAL_REGION}:${options.account}:${rest}`;
  const makers: Record<string, (id: string, p: Properties) => Promise<MadeResource>> = {
    'AWS::SNS::Topic': async (id, p) => {
      const name = p.TopicName ?? physicalName(options.stackName, id, 256);
      const made = await clients.sns.send(
        new CreateTopicCommand({ Name: name, Attributes: { ...(p.DisplayName && { DisplayName: p.DisplayName }) } }),
      );
      return { type: 'AWS::SNS::Topic', ref: made.TopicArn!, attributes: { TopicArn: made.TopicArn!, TopicName: name } };
    },
    'AWS::DynamoDB::GlobalTable': (id, p) => makeTable(clients.dynamodb, id, p, options.stackName),
    // Meta's statuses' stream (issue 54), at its shards.
    'AWS::Kinesis::Stream': async (id, p) => {
      const name = p.Name ?? physicalName(options.stackName, id, 128);
      await clients.kinesis.send(new CreateStreamCommand({ StreamName: name, ShardCount: p.ShardCount }));
      const made = await clients.kinesis.send(new DescribeStreamSummaryCommand({ StreamName: name }));
      return { type: 'AWS::Kinesis::Stream', ref: name, attributes: { Arn: made.StreamDescriptionSummary!.StreamARN! } };
    },
    'AWS::SQS::Queue': async (id, p) => {
      const name = p.QueueName ?? physicalName(options.stackName, id, 80);
      const attributes: Record<string, string> = {};
      for (const key of [
        'VisibilityTimeout',
        'MessageRetentionPeriod',
        'DelaySeconds',
        'SqsManagedSseEnabled',
        'ReceiveMessageWaitTimeSeconds',
      ])
        if (p[key] !== undefined) attributes[key] = String(p[key]);
      if (p.RedrivePolicy) attributes.RedrivePolicy = JSON.stringify(p.RedrivePolicy);
      const made = await clients.sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
      const described = await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: made.QueueUrl, AttributeNames: ['QueueArn'] }));
      const queueArn = described.Attributes!.QueueArn!;
      return { type: 'AWS::SQS::Queue', ref: made.QueueUrl!, attributes: { Arn: queueArn, QueueName: name, QueueUrl: made.QueueUrl! } };
    },
    'AWS::SecretsManager::Secret': async (id, p) => {
      // CloudFormation names a secret `<logical id>-<10 characters>`: the functions' settings cut the name out of the ARN so.
      const name = p.Name ?? `${id}-${suffix(10)}`;
      let secret = p.SecretString as string | undefined;
      if (p.GenerateSecretString) {
        const g = p.GenerateSecretString;
        const password = await clients.secrets.send(
          new GetRandomPasswordCommand({
            PasswordLength: g.PasswordLength,
            ExcludePunctuation: g.ExcludePunctuation,
            ExcludeCharacters: g.ExcludeCharacters,
          }),
        );
        secret = g.SecretStringTemplate
          ? JSON.stringify({ ...JSON.parse(g.SecretStringTemplate), [g.GenerateStringKey]: password.RandomPassword })
          : password.RandomPassword;
      }
      const made = await clients.secrets.send(new CreateSecretCommand({ Name: name, Description: p.Description, SecretString: secret }));
      return { type: 'AWS::SecretsManager::Secret', ref: made.ARN!, attributes: { Id: made.ARN! } };
    },
    'AWS::Events::EventBus': async (id, p) => {
      const name = p.Name ?? physicalName(options.stackName, id, 256);
      const made = await clients.events.send(new CreateEventBusCommand({ Name: name }));
      return { type: 'AWS::Events::EventBus', ref: name, attributes: { Arn: made.EventBusArn!, Name: name } };
    },
    'AWS::Events::Rule': async (id, p) => {
      const name = p.Name ?? physicalName(options.stackName, id, 64);
      const made = await clients.events.send(
        new PutRuleCommand({
          Name: name,
          EventBusName: p.EventBusName,
          ...(p.EventPattern && { EventPattern: JSON.stringify(p.EventPattern) }),
          ScheduleExpression: p.ScheduleExpression,
          State: p.State,
        }),
      );
      const failed = await clients.events.send(new PutTargetsCommand({ Rule: name, EventBusName: p.EventBusName, Targets: p.Targets }));
      if (failed.FailedEntryCount) throw new Error(`${id}: targets refused: ${JSON.stringify(failed.FailedEntries)}`);
      return { type: 'AWS::Events::Rule', ref: p.EventBusName ? `${p.EventBusName}|${name}` : name, attributes: { Arn: made.RuleArn! } };
    },
    'AWS::IAM::Role': async (id, p) => {
      const name = p.RoleName ?? physicalName(options.stackName, id, 64);
      // moto cannot evaluate a service principal (lambda.amazonaws.com) as a caller: the deployer stands in for
      // Lambda and assumes the role; the template's own trust policy is kept and checked beside it.
      const trust = {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { AWS: options.deployerArn }, Action: 'sts:AssumeRole' }],
      };
      const made = await clients.iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: JSON.stringify(trust) }));
      stack.roles.set(id, { logicalId: id, arn: made.Role!.Arn!, name, trust: p.AssumeRolePolicyDocument, statements: [] });
      return { type: 'AWS::IAM::Role', ref: name, attributes: { Arn: made.Role!.Arn!, RoleId: made.Role!.RoleId! } };
    },
    'AWS::IAM::Policy': async (id, p) => {
      const statements = [p.PolicyDocument.Statement].flat() as PolicyStatement[];
      for (const roleName of p.Roles as string[]) {
        const role = [...stack.roles.values()].find((r) => r.name === roleName);
        if (!role) throw new UnresolvedReference(`${id}: role ${roleName} not made`);
        role.statements.push(...statements);
        await clients.iam.send(
          new PutRolePolicyCommand({
            RoleName: roleName,
            PolicyName: p.PolicyName,
            PolicyDocument: JSON.stringify(policyForMoto(statements)),
          }),
        );
      }
      return { type: 'AWS::IAM::Policy', ref: id, attributes: {} };
    },
    'AWS::Cognito::UserPool': async (id, p) => {
      const made = await clients.cognito.send(
        new CreateUserPoolCommand({ ...(p as object), PoolName: p.UserPoolName ?? physicalName(options.stackName, id, 128) } as never),
      );
      const pool = made.UserPool!;
      // CloudFormation sets the pool's second factors after creating it (CreateUserPool takes no EnabledMfas).
      const enabled = (p.EnabledMfas ?? []) as string[];
      if (enabled.length > 0)
        await clients.cognito.send(
          new SetUserPoolMfaConfigCommand({
            UserPoolId: pool.Id!,
            MfaConfiguration: p.MfaConfiguration,
            SoftwareTokenMfaConfiguration: { Enabled: enabled.includes('SOFTWARE_TOKEN_MFA') },
          }),
        );
      return {
        type: 'AWS::Cognito::UserPool',
        ref: pool.Id!,
        attributes: {
          Arn: pool.Arn!,
          ProviderName: `cognito-idp.${REHEARSAL_REGION}.amazonaws.com/${pool.Id}`,
          ProviderURL: `https://cognito-idp.${REHEARSAL_REGION}.amazonaws.com/${pool.Id}`,
          UserPoolId: pool.Id!,
        },
      };
    },
    'AWS::Cognito::UserPoolClient': async (id, p) => {
      const made = await clients.cognito.send(
        new CreateUserPoolClientCommand({ ...(p as object), ClientName: p.ClientName ?? id } as never),
      );
      return {
        type: 'AWS::Cognito::UserPoolClient',
        ref: made.UserPoolClient!.ClientId!,
        attributes: { ClientId: made.UserPoolClient!.ClientId! },
      };
    },
    // The console's hosted-UI domain (issue 45): moto keeps it, so the rehearsal can ask for it back.
    'AWS::Cognito::UserPoolDomain': async (_id, p) => {
      await clients.cognito.send(new CreateUserPoolDomainCommand({ Domain: p.Domain, UserPoolId: p.UserPoolId }));
      return { type: 'AWS::Cognito::UserPoolDomain', ref: p.Domain, attributes: {} };
    },
    // Named only, as API Gateway would: its address is the console client's callback URL (issue 45).
    'AWS::ApiGatewayV2::Api': async () => {
      const apiId = suffix(10).toLowerCase();
      return {
        type: 'AWS::ApiGatewayV2::Api',
        ref: apiId,
        attributes: { ApiId: apiId, ApiEndpoint: `https://${apiId}.execute-api.${REHEARSAL_REGION}.amazonaws.com` },
      };
    },
    // Named only: the ARNs rules and policies refer to.
    'AWS::Lambda::Function': async (id, p) => {
      const name = p.FunctionName ?? physicalName(options.stackName, id, 64);
      return { type: 'AWS::Lambda::Function', ref: name, attributes: { Arn: arn('lambda', `function:${name}`) } };
    },
    'AWS::Logs::LogGroup': async (id, p) => {
      const name = p.LogGroupName ?? physicalName(options.stackName, id, 512);
      return { type: 'AWS::Logs::LogGroup', ref: name, attributes: { Arn: arn('logs', `log-group:${name}:*`) } };
    },
    // Named only, as log groups: no function's sample makes a schedule (the send's is a dry run).
    'AWS::Scheduler::ScheduleGroup': async (id, p) => {
      const name = p.Name ?? physicalName(options.stackName, id, 64);
      return { type: 'AWS::Scheduler::ScheduleGroup', ref: name, attributes: { Arn: arn('scheduler', `schedule-group/${name}`) } };
    },
  };

  for (const resource of Object.values(template.Resources))
    if (!(resource.Type in makers)) stack.notMade[resource.Type] = (stack.notMade[resource.Type] ?? 0) + 1;
  let waiting = Object.entries(template.Resources).filter(([, resource]) => resource.Type in makers);
  while (waiting.length > 0) {
    const blocked: typeof waiting = [];
    const reasons: string[] = [];
    for (const [id, resource] of waiting) {
      let properties: Properties;
      try {
        properties = resolve(resource.Properties ?? {}, stack) as Properties;
      } catch (error) {
        if (!(error instanceof UnresolvedReference)) throw error;
        blocked.push([id, resource]);
        reasons.push(`${id}: ${error.message}`);
        continue;
      }
      try {
        resources.set(id, await makers[resource.Type](id, properties));
      } catch (error) {
        if (error instanceof UnresolvedReference) {
          blocked.push([id, resource]);
          reasons.push(error.message);
        } else throw new Error(`${resource.Type} ${id}: ${(error as Error).message}`);
      }
    }
    if (blocked.length === waiting.length) throw new Error(`the template refers to what it does not make: ${reasons.join('; ')}`);
    waiting = blocked;
  }
  return stack;
}

/** The table as the template defines it: keys, every index, billing, deletion protection, point-in-time recovery, TTL. */
async function makeTable(client: DynamoDBClient, id: string, p: Properties, stackName: string): Promise<MadeResource> {
  const name = p.TableName ?? physicalName(stackName, id, 255);
  const replica = (p.Replicas ?? []).find((r: { Region: string }) => r.Region === REHEARSAL_REGION) ?? {};
  const made = await client.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: p.AttributeDefinitions,
      KeySchema: p.KeySchema,
      BillingMode: p.BillingMode,
      GlobalSecondaryIndexes: p.GlobalSecondaryIndexes,
      LocalSecondaryIndexes: p.LocalSecondaryIndexes,
      StreamSpecification: p.StreamSpecification,
      DeletionProtectionEnabled: replica.DeletionProtectionEnabled,
    }),
  );
  if (p.TimeToLiveSpecification)
    await client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: p.TimeToLiveSpecification }));
  if (replica.PointInTimeRecoverySpecification)
    await client.send(
      new UpdateContinuousBackupsCommand({ TableName: name, PointInTimeRecoverySpecification: replica.PointInTimeRecoverySpecification }),
    );
  const tableArn = made.TableDescription!.TableArn!;
  return {
    type: 'AWS::DynamoDB::GlobalTable',
    ref: name,
    attributes: { Arn: tableArn, ...(made.TableDescription!.LatestStreamArn && { StreamArn: made.TableDescription!.LatestStreamArn }) },
  };
}
