import { CfnOutput, type NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { ClaimNames } from '#lib/auth/claim-names.ts';
import { settingProblem } from '#lib/config.ts';
import type { SettingSources } from '#lib/manifest/needs.ts';
import { GetConsole } from '#lib/manifest/routes/console.ts';
import { GetApiDocs } from '#lib/manifest/routes/docs.ts';
import { ReceiveMetaWebhook } from '#lib/manifest/routes/meta.ts';
import { ServiceApi } from './api.ts';
import { deployedFunctions } from './function-bundles.ts';
import { NeedsGrants } from './grants.ts';
import { Identity, PRE_TOKEN_GENERATION_ENTRY } from './identity.ts';
import { Monitoring } from './monitoring.ts';
import { ServiceResources } from './resources.ts';
import { prebuildBundles } from './service-function.ts';
import { writeConsole } from '../console/build.ts';
import { ServiceWorkers } from './workers.ts';

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
  /** The Graph API version the functions call (`v23.0`): GRAPH_API_VERSION's default (lib/config.ts) when not given. */
  graphApiVersion?: string;
  /** Messages per second per sending number (decisions §12); the dispatcher's default when not given. */
  messagesPerSecond?: number;
  /**
   * Dispatcher invocations at once (decisions §23; sizing in docs/dispatch-jobs.md): its event source's maximum
   * concurrency, 2 to 1,000. DISPATCH_CONCURRENCY's default (lib/config.ts) when not given.
   */
  dispatchConcurrency?: number;
  /** Where alarms are mailed; without it the topic is there to subscribe to by hand. */
  alarmEmail?: string;
  /** The provider's name and address on every statement (decisions §30); the settings' fallbacks when not given. */
  statementIssuer?: { name?: string; address?: string };
  /**
   * Onboarding by Embedded Signup (issue 55): whether the provider pays Meta (its credit line shared with each WABA
   * onboarded; PROVIDER_PAYS_META's default when not given) and its business portfolio, whose credit line that is.
   */
  onboarding?: { providerPaysMeta?: boolean; providerBusinessId?: string };
  /** The console's hosted-UI domain prefix with `cognito` (infra/identity.ts); the stack's name and account by default. */
  consoleDomainPrefix?: string;
  /**
   * The Facebook Login for Business configuration the console's Embedded Signup launches (issue 55), with
   * `graphAppId`; without both, the console has no Embedded Signup and its policy allows no Facebook origin.
   */
  embeddedSignupConfigId?: string;
}

/**
 * The service's stack, read as its table of contents: the monitoring (alarms in a nested stack), the resources
 * that hold data, the identity, what each function is given, the API, the workers (a nested stack of their own),
 * and the outputs. Every other part makes its resources in this stack's scope, so deployed stacks keep their
 * logical ids (the workers hold no data: moving them replaced their functions, docs/operations.md "Quotas").
 */
export class TemplateMessagingStack extends Stack {
  /** The alarms' nested stack (infra/app.ts checks its quotas too). */
  readonly monitoring: NestedStack;
  /** The workers' nested stack: their functions, roles, logs, event sources and schedules. */
  readonly workers: NestedStack;

  /** Every nested stack, by what it holds: each keeps the quotas on its own (infra/app.ts checks them all). */
  nestedStacks(): Record<'alarms' | 'workers', NestedStack> {
    return { alarms: this.monitoring, workers: this.workers };
  }

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    // A wrong version fails the synth, not the functions' first Graph call.
    const versionProblem = props.graphApiVersion === undefined ? undefined : settingProblem('GRAPH_API_VERSION', props.graphApiVersion);
    if (versionProblem) throw new Error(`graphApiVersion: ${versionProblem}`);
    const monitoring = new Monitoring(this, props.alarmEmail);
    this.monitoring = monitoring.stack;
    const resources = new ServiceResources(this, monitoring);

    // Every bundle in one esbuild run, when this synth bundles at all (tests of the template skip it).
    if (this.bundlingRequired) {
      // The console's files, which its files function serves from beside its bundle (lib/manifest/routes/console.ts).
      writeConsole();
      prebuildBundles([...deployedFunctions().map((f) => f.entry), ...(props.cognito ? [PRE_TOKEN_GENERATION_ENTRY] : [])]);
    }
    const identity = new Identity(this, 'Identity', props);
    if (identity.trigger) monitoring.functionAlarms(identity.trigger);
    const api = new ServiceApi(this, monitoring);
    // The console signs in through the pool's hosted UI and comes back to its own page (issue 45): Cognito sends
    // the code only to an address it lists exactly, the page's (console/src/config.ts consoleAddress).
    const consoleSignIn = identity.addConsoleClient(`${api.api.apiEndpoint}${GetConsole.path}`);

    /** What the functions' settings are made of: this stack's resources. */
    const sources: SettingSources = {
      tableName: resources.table.tableName,
      graphApiUrl: props.graphApiUrl ?? 'https://graph.facebook.com',
      graphToken: { secretName: resources.graphToken.secretName },
      graphAppId: props.graphAppId,
      graphApiVersion: props.graphApiVersion,
      metaApp: { secretName: resources.metaWebhook.secretName },
      eventBusName: resources.bus.eventBusName,
      queueUrls: Object.fromEntries(
        Object.entries(resources.queues).map(([key, { queue }]) => [key, queue.queueUrl]),
      ) as SettingSources['queueUrls'],
      messagesPerSecond: props.messagesPerSecond,
      schedules: {
        group: resources.scheduleGroup.scheduleGroupName,
        queueArn: resources.queues.sendRelease.queue.queueArn,
        roleArn: resources.schedulerRole.roleArn,
      },
      console: consoleSignIn,
      embeddedSignupConfigId: props.embeddedSignupConfigId,
      statementIssuer: props.statementIssuer,
      // The business tokens onboarded are kept in Secrets Manager, one secret each under the stack's prefix.
      onboarding: { ...props.onboarding, secretPrefix: `${this.stackName}/onboarding/` },
    };
    const grants = new NeedsGrants(resources, sources, monitoring);
    api.addRoutes(this, identity, grants);
    this.workers = new ServiceWorkers(this, resources, grants, props.dispatchConcurrency).stack;
    monitoring.serviceAlarms();

    new CfnOutput(this, 'ApiUrl', { value: api.api.apiEndpoint });
    new CfnOutput(this, 'ApiDocsUrl', { value: `${api.api.apiEndpoint}${GetApiDocs.path}` });
    new CfnOutput(this, 'TableName', { value: resources.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn });
    new CfnOutput(this, 'GraphApiTokenSecretName', { value: resources.graphToken.secretName });
    new CfnOutput(this, 'MetaWebhookUrl', { value: `${api.api.apiEndpoint}${ReceiveMetaWebhook.path}` });
    new CfnOutput(this, 'MetaWebhookSecretName', { value: resources.metaWebhook.secretName });
  }
}
