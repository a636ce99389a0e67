import * as v from 'valibot';

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

/** Messages per second per sending number (decisions §12): MESSAGES_PER_SECOND, 80 when unset. */
export function messagesPerSecond(): number {
  const raw = process.env.MESSAGES_PER_SECOND;
  if (raw === undefined || raw === '') return 80;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1000)
    throw new ConfigurationError('Configuration error: MESSAGES_PER_SECOND must be a number in (0, 1000]');
  return value;
}

/** The local stack's opt-in to `http://127.0.0.1:<port>/` webhook receivers (decisions §15); never set in AWS. */
export const allowLocalWebhooks = () => process.env.ALLOW_LOCAL_WEBHOOKS === 'true';

/** The first webhook retry's delay in seconds, doubling per try (decisions §15): WEBHOOK_RETRY_BASE_SECONDS, 30 when unset. */
export function webhookRetryBaseSeconds(): number {
  const raw = process.env.WEBHOOK_RETRY_BASE_SECONDS;
  if (raw === undefined || raw === '') return 30;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 3600)
    throw new ConfigurationError('Configuration error: WEBHOOK_RETRY_BASE_SECONDS must be a number of seconds in [0, 3600]');
  return value;
}
