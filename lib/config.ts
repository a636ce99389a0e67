import * as v from 'valibot';

/**
 * Every setting the functions read, in one validated table: read from the environment and checked at first
 * use, so a missing or wrong setting fails naming itself rather than surfacing later as an odd runtime error.
 * An empty value counts as unset. This module imports nothing of the service (the ground floor): the manifest
 * (lib/manifest/needs.ts) says which function is given which setting. The logger's own LOG_LEVEL and
 * Powertools' POWERTOOLS_* are read by Powertools.
 */
const text = v.pipe(v.string(), v.minLength(1));
const url = v.pipe(v.string(), v.url());
/** A number within [min, max], given as text. */
const numberIn = (min: number, max: number, unit: string, whole = false) =>
  v.pipe(
    v.string(),
    v.transform(Number),
    v.number(`must be ${unit} in [${min}, ${max}]`),
    v.check((n) => n >= min && n <= max && (!whole || Number.isInteger(n)), `must be ${unit} in [${min}, ${max}]`),
  );

export const SETTINGS = {
  TABLE_NAME: { schema: text },
  JWT_ISSUER: { schema: text },
  JWT_AUDIENCE: { schema: text },
  JWKS_URL: { schema: url },
  GRAPH_API_URL: { schema: url },
  SYNC_QUEUE_URL: { schema: url },
  DISPATCH_QUEUE_URL: { schema: url },
  EVENT_BUS_NAME: { schema: text },
  WEBHOOK_QUEUE_URL: { schema: url },
  META_QUEUE_URL: { schema: url },
  RELEASE_QUEUE_URL: { schema: url },
  SCHEDULE_GROUP: { schema: text },
  SCHEDULE_QUEUE_ARN: { schema: text },
  SCHEDULE_ROLE_ARN: { schema: text },
  /** DynamoDB Local's address; absent in AWS. */
  DYNAMODB_ENDPOINT: { schema: url, fallback: undefined },
  /** The local stack's SQS server (the SDK reads it too); absent in AWS. */
  AWS_ENDPOINT_URL_SQS: { schema: url, fallback: undefined },
  /** The local stack's opt-in to `http://127.0.0.1:<port>/` webhook receivers (decisions §15); never set in AWS. */
  ALLOW_LOCAL_WEBHOOKS: {
    schema: v.pipe(
      v.picklist(['true', 'false']),
      v.transform((t) => t === 'true'),
    ),
    fallback: false,
  },
  /** Caps every sending number's pace when set (decisions §19); unset, each number goes at its level. */
  MESSAGES_PER_SECOND: {
    schema: v.pipe(
      numberIn(0, 1000, 'a number'),
      v.check((n) => n > 0, 'must be a number in (0, 1000]'),
    ),
    fallback: undefined,
  },
  /** The first webhook retry's delay, doubling per try (decisions §15). */
  WEBHOOK_RETRY_BASE_SECONDS: { schema: numberIn(0, 3600, 'a number of seconds'), fallback: 30 },
  /**
   * The Graph API version every call names (issue 55, decisions §34): the newest whose differences the emulator
   * speaks (docs/platform-2027.md §7); an older one Meta still serves works when set (v23.0 until 2027-10-08).
   */
  GRAPH_API_VERSION: {
    schema: v.pipe(v.string(), v.regex(/^v\d{1,3}\.\d{1,2}$/, 'must be a Graph API version such as v24.0')),
    fallback: 'v24.0',
  },
  /** How long one Graph API call may take (the tests shorten it). */
  GRAPH_API_TIMEOUT_MS: { schema: numberIn(1, 120_000, 'milliseconds'), fallback: 5_000 },
  /**
   * How long a message send waits for Graph's answer. Longer than other calls because a send without an answer
   * is never repeated: its recipient ends `outcome_unknown`. The dispatcher stops taking blocks this long and
   * 5 s before its time is up, so an answer this late still gets settled.
   */
  GRAPH_MESSAGE_TIMEOUT_MS: { schema: numberIn(1, 120_000, 'milliseconds'), fallback: 10_000 },
  /**
   * How long a dispatcher's claim outlives its invocation before another may call it lost: past its function's
   * timeout, a claim's holder is dead. Tests of crashes shorten it.
   */
  DISPATCH_LEASE_MARGIN_MS: { schema: numberIn(0, 600_000, 'milliseconds'), fallback: 30_000 },
  /**
   * How often a job of a paused send looks again whether its template still is (decisions §25): Meta's resume
   * wakes it sooner (issue 44), this is the fallback when a wake fails. 100 receives must outlast a 6-hour pause.
   */
  PAUSED_RECHECK_SECONDS: { schema: numberIn(1, 900, 'seconds'), fallback: 300 },
  /**
   * How many dispatcher invocations may run at once (decisions §23): the dispatch queue's event source
   * `MaximumConcurrency` when deployed (read at `cdk deploy`), the local stack's pollers. Sizing
   * (docs/dispatch-jobs.md): about 1.25 × the numbers that send at once, within what the account's Lambda
   * concurrency leaves the API and the other workers; SQS allows 2 to 1,000.
   */
  DISPATCH_CONCURRENCY: { schema: numberIn(2, 1000, 'a whole number of invocations', true), fallback: 100 },
  /** The Meta app's id, for resumable media uploads. */
  GRAPH_APP_ID: { schema: v.string(), fallback: '' },
  /** The Graph API token itself (local) or the secret holding it (AWS). */
  GRAPH_API_TOKEN: { schema: text, fallback: undefined },
  GRAPH_API_TOKEN_SECRET: { schema: text, fallback: undefined },
  /** The Meta app's webhook secrets (local) or the secret holding them (AWS). */
  META_APP_SECRET: { schema: text, fallback: undefined },
  META_VERIFY_TOKEN: { schema: text, fallback: undefined },
  META_WEBHOOK_SECRET: { schema: text, fallback: undefined },
  /** The token claims naming the client, permissions and campaigns (decisions §17); lib/auth/claim-names.ts checks them. */
  CLAIM_CLIENT_ID: { schema: text, fallback: undefined },
  CLAIM_PERMISSIONS: { schema: text, fallback: undefined },
  CLAIM_CAMPAIGNS: { schema: text, fallback: undefined },
  /**
   * The console's sign-in (issue 45): the Cognito hosted UI's base URL (`https://<prefix>.auth.<region>.amazoncognito.com`)
   * and the console's app client. Unset, the console signs in with a pasted token (the local stack).
   */
  CONSOLE_COGNITO_DOMAIN: { schema: url, fallback: undefined },
  CONSOLE_CLIENT_ID: { schema: text, fallback: undefined },
  /**
   * Embedded Signup in the console (issue 55): the Facebook Login for Business configuration the console's
   * `FB.login` names, with the Meta app GRAPH_APP_ID. Unset, the console uses the local stand-in for Meta's popup.
   */
  EMBEDDED_SIGNUP_CONFIG_ID: {
    schema: v.pipe(v.string(), v.regex(/^\d{1,32}$/, 'must be a configuration id (digits)')),
    fallback: undefined,
  },
  /**
   * Onboarding by Embedded Signup (issue 55): whether the provider pays Meta for its clients' WABAs (its credit line
   * is shared with each WABA onboarded), and its business portfolio, whose credit line that is.
   */
  PROVIDER_PAYS_META: {
    schema: v.pipe(
      v.picklist(['true', 'false']),
      v.transform((t) => t === 'true'),
    ),
    fallback: true,
  },
  PROVIDER_BUSINESS_ID: { schema: text, fallback: undefined },
  /** Where the onboarded business tokens are kept: a prefix of Secrets Manager names (AWS); unset, in memory (local). */
  ONBOARDING_SECRET_PREFIX: { schema: text, fallback: undefined },
  /** The local stack's folder for those tokens where it keeps its data (decisions §16); unset on AWS. */
  LOCAL_VAULT_DIR: { schema: text, fallback: undefined },
  /** Who issues the statements (decisions §30): the provider's name, printed on each. */
  STATEMENT_PROVIDER_NAME: { schema: text, fallback: 'Template Messaging Service' },
  /** The provider's postal address on each statement, one line; unset, the statement says it is not set. */
  STATEMENT_PROVIDER_ADDRESS: { schema: text, fallback: 'Address not configured (STATEMENT_PROVIDER_ADDRESS)' },
} satisfies Record<string, { schema: v.GenericSchema<string, unknown>; fallback?: unknown }>;

type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;
/** What a setting reads as: its schema's output, or its fallback when it has one and is unset. */
export type SettingValue<K extends SettingName> =
  | v.InferOutput<Settings[K]['schema']>
  | (Settings[K] extends { fallback: infer F } ? F : never);
/** Settings every function of a kind must have: each is text (a name, a URL). */
type RequiredName = { [K in SettingName]: Settings[K] extends { fallback: unknown } ? never : K }[SettingName];
export type Config<K extends RequiredName> = { [P in K]: string };

export class ConfigurationError extends Error {}

/** One setting as its table row reads it; a wrong value throws naming the setting. */
function read<K extends SettingName>(name: K): { value?: SettingValue<K>; problem?: string } {
  const row: { schema: v.GenericSchema<string, unknown>; fallback?: unknown } = SETTINGS[name];
  const raw = process.env[name];
  if (raw === undefined || raw === '') {
    if ('fallback' in row) return { value: row.fallback as SettingValue<K> };
    return { problem: `${name} is not set` };
  }
  const result = v.safeParse(row.schema, raw);
  if (!result.success) return { problem: `${name} is invalid: ${result.issues[0].message}` };
  return { value: result.output as SettingValue<K> };
}

/** What is wrong with a value given for a setting elsewhere than the environment (a CDK context value), if anything. */
export function settingProblem(name: SettingName, raw: string): string | undefined {
  const row: { schema: v.GenericSchema<string, unknown> } = SETTINGS[name];
  const result = v.safeParse(row.schema, raw);
  return result.success ? undefined : `${name} is invalid: ${result.issues[0].message}`;
}

/** One setting, read now (a test may change it between invocations). */
export function setting<K extends SettingName>(name: K): SettingValue<K> {
  const { value, problem } = read(name);
  if (problem) throw new ConfigurationError(`Configuration error: ${problem}`);
  return value as SettingValue<K>;
}

/** A setting's default: what it reads as when it is unset (its row's fallback). */
export function settingDefault<K extends SettingName>(name: K): SettingValue<K> {
  const row: { schema: unknown; fallback?: unknown } = SETTINGS[name];
  if (!('fallback' in row)) throw new ConfigurationError(`Configuration error: ${name} has no default`);
  return row.fallback as SettingValue<K>;
}

const cache = new Map<string, string>();

/** The required settings a function runs on, read once per cold start; every problem named in one error. */
export function loadConfig<K extends RequiredName>(...names: K[]): Config<K> {
  const out = {} as Config<K>;
  const problems: string[] = [];
  for (const name of names) {
    const cached = cache.get(name);
    if (cached !== undefined) {
      out[name] = cached;
      continue;
    }
    const { value, problem } = read(name);
    if (problem) {
      problems.push(problem);
      continue;
    }
    cache.set(name, value as string);
    out[name] = value as string;
  }
  if (problems.length > 0) throw new ConfigurationError(`Configuration error: ${problems.join('; ')}`);
  return out;
}

export const dynamoEndpoint = () => setting('DYNAMODB_ENDPOINT');
export const sqsEndpoint = () => setting('AWS_ENDPOINT_URL_SQS');
export const messagesPerSecondCap = () => setting('MESSAGES_PER_SECOND');
export const allowLocalWebhooks = () => setting('ALLOW_LOCAL_WEBHOOKS');
export const webhookRetryBaseSeconds = () => setting('WEBHOOK_RETRY_BASE_SECONDS');
export const graphApiVersion = () => setting('GRAPH_API_VERSION');
export const graphApiTimeoutMs = () => setting('GRAPH_API_TIMEOUT_MS');
export const graphMessageTimeoutMs = () => setting('GRAPH_MESSAGE_TIMEOUT_MS');
export const dispatchConcurrency = () => setting('DISPATCH_CONCURRENCY');
export const graphAppId = () => setting('GRAPH_APP_ID');

/** Where the Graph API token is: GRAPH_API_TOKEN (local) or the secret GRAPH_API_TOKEN_SECRET names (AWS). */
export const graphTokenSettings = () => ({
  GRAPH_API_TOKEN: setting('GRAPH_API_TOKEN'),
  GRAPH_API_TOKEN_SECRET: setting('GRAPH_API_TOKEN_SECRET'),
});

/** Where the Meta app's webhook secrets are: META_APP_SECRET and META_VERIFY_TOKEN (local), or META_WEBHOOK_SECRET. */
export const metaWebhookSettings = () => ({
  META_APP_SECRET: setting('META_APP_SECRET'),
  META_VERIFY_TOKEN: setting('META_VERIFY_TOKEN'),
  META_WEBHOOK_SECRET: setting('META_WEBHOOK_SECRET'),
});

/** The settings naming the token claims (decisions §17). */
export const claimNameSettings = () => ({
  CLAIM_CLIENT_ID: setting('CLAIM_CLIENT_ID'),
  CLAIM_PERMISSIONS: setting('CLAIM_PERMISSIONS'),
  CLAIM_CAMPAIGNS: setting('CLAIM_CAMPAIGNS'),
});

/** Onboarding by Embedded Signup (issue 55): who pays Meta, the provider's portfolio, where tokens are kept. */
export const onboardingSettings = () => ({
  providerPaysMeta: setting('PROVIDER_PAYS_META'),
  providerBusinessId: setting('PROVIDER_BUSINESS_ID'),
  secretPrefix: setting('ONBOARDING_SECRET_PREFIX'),
  /** The local stack's vault folder, set where it keeps its data (local/stack.ts). */
  localVaultDir: setting('LOCAL_VAULT_DIR'),
});

/** Who issues the statements: the provider's name and address (decisions §30). */
export const statementIssuerSettings = () => ({
  name: setting('STATEMENT_PROVIDER_NAME'),
  address: setting('STATEMENT_PROVIDER_ADDRESS'),
});

/** How the console signs in (issue 45): through Cognito's hosted UI when both settings are given, else by token. */
export const consoleSignInSettings = () => ({
  CONSOLE_COGNITO_DOMAIN: setting('CONSOLE_COGNITO_DOMAIN'),
  CONSOLE_CLIENT_ID: setting('CONSOLE_CLIENT_ID'),
});

/**
 * Embedded Signup in the console (issue 55): the Meta app, its Facebook Login for Business configuration and the
 * Graph version the JavaScript SDK is initialised with; all three, or none (the local stand-in).
 */
export const embeddedSignupSettings = () => ({
  appId: setting('GRAPH_APP_ID'),
  configId: setting('EMBEDDED_SIGNUP_CONFIG_ID'),
  graphVersion: setting('GRAPH_API_VERSION'),
});
