import * as v from 'valibot';
import { QUEUES } from '#lib/queues.ts';
import type { Needs, QueueKey } from '#lib/routes.ts';

/**
 * Configuration is read from the environment once per cold start and validated, so a missing setting fails
 * the first invocation with a message naming it rather than surfacing later as an odd runtime error.
 * Each function asks only for the settings it needs.
 */
const settings = {
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  JWT_ISSUER: v.pipe(v.string(), v.minLength(1)),
  JWT_AUDIENCE: v.pipe(v.string(), v.minLength(1)),
  JWKS_URL: v.pipe(v.string(), v.url()),
  GRAPH_API_URL: v.pipe(v.string(), v.url()),
  SYNC_QUEUE_URL: v.pipe(v.string(), v.url()),
  DISPATCH_QUEUE_URL: v.pipe(v.string(), v.url()),
  EVENT_BUS_NAME: v.pipe(v.string(), v.minLength(1)),
  WEBHOOK_QUEUE_URL: v.pipe(v.string(), v.url()),
  META_QUEUE_URL: v.pipe(v.string(), v.url()),
  RELEASE_QUEUE_URL: v.pipe(v.string(), v.url()),
  SCHEDULE_GROUP: v.pipe(v.string(), v.minLength(1)),
  SCHEDULE_QUEUE_ARN: v.pipe(v.string(), v.minLength(1)),
  SCHEDULE_ROLE_ARN: v.pipe(v.string(), v.minLength(1)),
} as const;

export type SettingName = keyof typeof settings;
export type Config<K extends SettingName> = { [P in K]: string };

const cache = new Map<string, string>();

export class ConfigurationError extends Error {}

export function loadConfig<K extends SettingName>(...names: K[]): Config<K> {
  const out = {} as Config<K>;
  const problems: string[] = [];
  for (const name of names) {
    const cached = cache.get(name);
    if (cached !== undefined) {
      out[name] = cached;
      continue;
    }
    const raw = process.env[name];
    const result = v.safeParse(settings[name], raw);
    if (!result.success) {
      problems.push(raw === undefined ? `${name} is not set` : `${name} is invalid: ${result.issues[0].message}`);
      continue;
    }
    cache.set(name, result.output);
    out[name] = result.output;
  }
  if (problems.length > 0) throw new ConfigurationError(`Configuration error: ${problems.join('; ')}`);
  return out;
}

/** Optional endpoint override for DynamoDB (DynamoDB Local); absent in AWS. */
export const dynamoEndpoint = () => process.env.DYNAMODB_ENDPOINT || undefined;

/** The SQS endpoint the SDK takes from AWS_ENDPOINT_URL_SQS (the local stack's server); absent in AWS. */
export const sqsEndpoint = () => process.env.AWS_ENDPOINT_URL_SQS || undefined;

/**
 * MESSAGES_PER_SECOND (decisions §19): when set, caps every sending number's pace; unset, each number goes at
 * its throughput level as the upstream reports it.
 */
export function messagesPerSecondCap(): number | undefined {
  const raw = process.env.MESSAGES_PER_SECOND;
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1000)
    throw new ConfigurationError('Configuration error: MESSAGES_PER_SECOND must be a number in (0, 1000]');
  return value;
}

/** The local stack's opt-in to `http://127.0.0.1:<port>/` webhook receivers (decisions §15); never set in AWS. */
export const allowLocalWebhooks = () => process.env.ALLOW_LOCAL_WEBHOOKS === 'true';

/** A number setting within [min, max], `fallback` when unset; anything else fails naming the setting. */
function numberSetting(name: string, fallback: number, range: { min: number; max: number; unit: string }): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < range.min || value > range.max)
    throw new ConfigurationError(`Configuration error: ${name} must be ${range.unit} in [${range.min}, ${range.max}]`);
  return value;
}

/** The first webhook retry's delay in seconds, doubling per try (decisions §15): WEBHOOK_RETRY_BASE_SECONDS, 30 when unset. */
export const webhookRetryBaseSeconds = () =>
  numberSetting('WEBHOOK_RETRY_BASE_SECONDS', 30, { min: 0, max: 3600, unit: 'a number of seconds' });

/** How long one Graph API call may take: GRAPH_API_TIMEOUT_MS, 5 s when unset (the tests shorten it). */
export const graphApiTimeoutMs = () => Number(process.env.GRAPH_API_TIMEOUT_MS || 5_000);

/**
 * How long a message send waits for Graph's answer: GRAPH_MESSAGE_TIMEOUT_MS, 10 s when unset. Longer than
 * other calls because a send without an answer is never repeated: its recipient ends `outcome_unknown`. The
 * dispatcher stops taking blocks this long and 5 s before its time is up, so an answer this late still gets settled.
 */
export const graphMessageTimeoutMs = () => Number(process.env.GRAPH_MESSAGE_TIMEOUT_MS || 10_000);

/**
 * How long a dispatcher's claim outlives its invocation before another may call it lost (DISPATCH_LEASE_MARGIN_MS,
 * 30 s when unset): past its function's timeout, a claim's holder is dead. Tests of crashes shorten it.
 */
export const dispatchLeaseMarginMs = () =>
  numberSetting('DISPATCH_LEASE_MARGIN_MS', 30_000, { min: 0, max: 600_000, unit: 'milliseconds' });

/**
 * How often a job of a paused send looks again whether its template still is (PAUSED_RECHECK_SECONDS, decisions
 * §25; 300 s when unset): a resume is seen within it. Tests shorten it; 100 receives must outlast a 6-hour pause.
 */
export const pausedRecheckMs = () => numberSetting('PAUSED_RECHECK_SECONDS', 300, { min: 1, max: 900, unit: 'seconds' }) * 1000;

/**
 * How many dispatcher invocations may run at once (DISPATCH_CONCURRENCY, decisions §23): the dispatch queue's
 * event source `MaximumConcurrency` when deployed (read at `cdk deploy`), the local stack's pollers. 100 when
 * unset. Sizing (docs/dispatch-jobs.md): about 1.25 × the numbers that send at once, within what the account's
 * Lambda concurrency leaves the API and the other workers; SQS allows 2 to 1,000.
 */
export function dispatchConcurrency(): number {
  const value = numberSetting('DISPATCH_CONCURRENCY', 100, { min: 2, max: 1000, unit: 'a whole number of invocations' });
  if (!Number.isInteger(value))
    throw new ConfigurationError('Configuration error: DISPATCH_CONCURRENCY must be a whole number of invocations');
  return value;
}

/** The Meta app's id (GRAPH_APP_ID), for resumable media uploads; empty when not given. */
export const graphAppId = () => process.env.GRAPH_APP_ID ?? '';

/** Where the Graph API token is: GRAPH_API_TOKEN (local) or the secret GRAPH_API_TOKEN_SECRET names (AWS). */
export const graphTokenSettings = () => ({
  GRAPH_API_TOKEN: process.env.GRAPH_API_TOKEN,
  GRAPH_API_TOKEN_SECRET: process.env.GRAPH_API_TOKEN_SECRET,
});

/** Where the Meta app's webhook secrets are: META_APP_SECRET and META_VERIFY_TOKEN (local), or META_WEBHOOK_SECRET. */
export const metaWebhookSettings = () => ({
  META_APP_SECRET: process.env.META_APP_SECRET,
  META_VERIFY_TOKEN: process.env.META_VERIFY_TOKEN,
  META_WEBHOOK_SECRET: process.env.META_WEBHOOK_SECRET,
});

/** The settings naming the token claims (decisions §17); lib/auth/claim-names.ts checks them. */
export const claimNameSettings = () => ({
  CLAIM_CLIENT_ID: process.env.CLAIM_CLIENT_ID,
  CLAIM_PERMISSIONS: process.env.CLAIM_PERMISSIONS,
  CLAIM_CAMPAIGNS: process.env.CLAIM_CAMPAIGNS,
});

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
  /** The Meta app's webhook secret in AWS, its values locally. */
  metaApp: { secretName: string } | { appSecret: string; verifyToken: string };
  eventBusName: string;
  queueUrls: Record<QueueKey, string>;
  /** MESSAGES_PER_SECOND for the dispatcher: caps every number when given; each goes at its level otherwise. */
  messagesPerSecond?: number;
  /** Where scheduled sends' one-time schedules go (decisions §22): their group, target queue and the role they send with. */
  schedules: { group: string; queueArn: string; roleArn: string };
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
  }
  if (needs.metaApp) {
    if ('secretName' in sources.metaApp) out.META_WEBHOOK_SECRET = sources.metaApp.secretName;
    else Object.assign(out, { META_APP_SECRET: sources.metaApp.appSecret, META_VERIFY_TOKEN: sources.metaApp.verifyToken });
  }
  if (needs.bus) out.EVENT_BUS_NAME = sources.eventBusName;
  for (const key of needs.queues ?? []) out[QUEUES[key].urlSetting] = sources.queueUrls[key];
  if (needs.pacing && sources.messagesPerSecond !== undefined) out.MESSAGES_PER_SECOND = String(sources.messagesPerSecond);
  if (needs.schedules)
    Object.assign(out, {
      SCHEDULE_GROUP: sources.schedules.group,
      SCHEDULE_QUEUE_ARN: sources.schedules.queueArn,
      SCHEDULE_ROLE_ARN: sources.schedules.roleArn,
    });
  return out;
}
