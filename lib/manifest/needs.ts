import { QUEUES, STREAMS } from './queues.ts';

export type QueueKey = keyof typeof QUEUES;
export type StreamKey = keyof typeof STREAMS;

/** What a function may use: the stack grants exactly this, and a test fails when a bundle uses more. */
export interface Needs {
  /** Access to the service's table. */
  table: 'none' | 'read' | 'write';
  /** Queues the function sends jobs to. */
  queues?: readonly QueueKey[];
  /** Streams the function puts records on (issue 54: Meta's statuses). */
  streams?: readonly StreamKey[];
  /**
   * Streams whose records it reads again by their sequence numbers: a batch their consumer gave up on, named on a
   * dead-letter queue and redriven (issue 54).
   */
  rereads?: readonly StreamKey[];
  /**
   * Queues whose received messages it brings back early (ChangeMessageVisibility, by receipts another function
   * kept): Meta's resume wakes a paused template's dispatch jobs (decisions §25).
   */
  wakes?: readonly QueueKey[];
  /** Puts service events on the event bus. */
  bus?: boolean;
  /** Calls the Graph API (its URL, version, app id and the token secret). */
  upstream?: boolean;
  /** Reads the Meta app's webhook secrets (decisions §13). */
  metaApp?: boolean;
  /** Paces messages per sending number (MESSAGES_PER_SECOND, decisions §12). */
  pacing?: boolean;
  /** Makes one-time schedules of sends (decisions §22): the schedule group, its target queue and role. */
  schedules?: boolean;
  /**
   * Tells the console how to sign in (issue 45): the Cognito hosted UI's domain and the console's app client; and
   * how to launch Embedded Signup (issue 55): the Meta app, its login configuration and the Graph version.
   */
  console?: boolean;
  /** Issues statements (decisions §30): the provider's name and address printed on them. */
  statements?: boolean;
  /** Onboards by Embedded Signup (issue 55): who pays Meta, the provider's portfolio, where business tokens are kept. */
  onboarding?: boolean;
}

/**
 * What the settings of a function are made of: the CDK stack gives its resources (tokens resolved at deploy),
 * the local stack its parts' addresses and local secrets.
 */
export interface SettingSources {
  tableName: string;
  graphApiUrl: string;
  /** The token's secret in AWS, the token itself locally. */
  graphToken: { secretName: string } | { token: string };
  graphAppId?: string;
  /** GRAPH_API_VERSION where the deployment names one (`v23.0`); its default otherwise (lib/config.ts). */
  graphApiVersion?: string;
  /** The Meta app's webhook secret in AWS, its values locally. */
  metaApp: { secretName: string } | { appSecret: string; verifyToken: string };
  eventBusName: string;
  queueUrls: Record<QueueKey, string>;
  streamNames: Record<StreamKey, string>;
  /** MESSAGES_PER_SECOND for the dispatcher: caps every number when given; each goes at its level otherwise. */
  messagesPerSecond?: number;
  /** Where scheduled sends' one-time schedules go (decisions §22): their group, target queue and the role they send with. */
  schedules: { group: string; queueArn: string; roleArn: string };
  /** The console's Cognito sign-in, where the stack has one; absent, the console signs in with a token. */
  console?: { cognitoDomain: string; clientId: string };
  /** The Facebook Login for Business configuration the console's Embedded Signup names (with `graphAppId`); absent, the local stand-in. */
  embeddedSignupConfigId?: string;
  /** Who issues the statements, where the deployment says (each setting's fallback otherwise). */
  statementIssuer?: { name?: string; address?: string };
  /** The onboarding's settings where the deployment gives them (lib/config.ts: PROVIDER_PAYS_META and its fellows). */
  onboarding?: { providerPaysMeta?: boolean; providerBusinessId?: string; secretPrefix?: string };
}

/**
 * The settings a function with these needs reads, and nothing else: the one list both stacks set (the CDK stack
 * per function, the local stack once for every function in its process).
 */
export function settingsFor(needs: Needs, sources: SettingSources): Record<string, string> {
  const out: Record<string, string> = {};
  if (needs.table !== 'none') out.TABLE_NAME = sources.tableName;
  if (needs.upstream) {
    out.GRAPH_API_URL = sources.graphApiUrl;
    if ('secretName' in sources.graphToken) out.GRAPH_API_TOKEN_SECRET = sources.graphToken.secretName;
    else out.GRAPH_API_TOKEN = sources.graphToken.token;
    if (sources.graphAppId) out.GRAPH_APP_ID = sources.graphAppId;
    if (sources.graphApiVersion) out.GRAPH_API_VERSION = sources.graphApiVersion;
  }
  if (needs.metaApp) {
    if ('secretName' in sources.metaApp) out.META_WEBHOOK_SECRET = sources.metaApp.secretName;
    else Object.assign(out, { META_APP_SECRET: sources.metaApp.appSecret, META_VERIFY_TOKEN: sources.metaApp.verifyToken });
  }
  if (needs.bus) out.EVENT_BUS_NAME = sources.eventBusName;
  for (const key of [...(needs.queues ?? []), ...(needs.wakes ?? [])]) out[QUEUES[key].urlSetting] = sources.queueUrls[key];
  for (const key of [...(needs.streams ?? []), ...(needs.rereads ?? [])]) out[STREAMS[key].nameSetting] = sources.streamNames[key];
  if (needs.pacing && sources.messagesPerSecond !== undefined) out.MESSAGES_PER_SECOND = String(sources.messagesPerSecond);
  if (needs.schedules)
    Object.assign(out, {
      SCHEDULE_GROUP: sources.schedules.group,
      SCHEDULE_QUEUE_ARN: sources.schedules.queueArn,
      SCHEDULE_ROLE_ARN: sources.schedules.roleArn,
    });
  if (needs.console && sources.console)
    Object.assign(out, { CONSOLE_COGNITO_DOMAIN: sources.console.cognitoDomain, CONSOLE_CLIENT_ID: sources.console.clientId });
  if (needs.console && sources.embeddedSignupConfigId && sources.graphAppId)
    Object.assign(out, {
      EMBEDDED_SIGNUP_CONFIG_ID: sources.embeddedSignupConfigId,
      GRAPH_APP_ID: sources.graphAppId,
      ...(sources.graphApiVersion && { GRAPH_API_VERSION: sources.graphApiVersion }),
    });
  if (needs.statements) {
    if (sources.statementIssuer?.name) out.STATEMENT_PROVIDER_NAME = sources.statementIssuer.name;
    if (sources.statementIssuer?.address) out.STATEMENT_PROVIDER_ADDRESS = sources.statementIssuer.address;
  }
  if (needs.onboarding) Object.assign(out, onboardingSettingsOf(sources.onboarding));
  return out;
}

/** PROVIDER_PAYS_META, PROVIDER_BUSINESS_ID and ONBOARDING_SECRET_PREFIX, those given. */
function onboardingSettingsOf(onboarding: SettingSources['onboarding'] = {}): Record<string, string> {
  return {
    ...(onboarding.providerPaysMeta !== undefined && { PROVIDER_PAYS_META: String(onboarding.providerPaysMeta) }),
    ...(onboarding.providerBusinessId && { PROVIDER_BUSINESS_ID: onboarding.providerBusinessId }),
    ...(onboarding.secretPrefix && { ONBOARDING_SECRET_PREFIX: onboarding.secretPrefix }),
  };
}
