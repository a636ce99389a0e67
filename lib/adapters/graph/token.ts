import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { graphTokenSettings } from '#lib/config.ts';
import { UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { logger } from '#lib/log/logger.ts';

/** What the stack puts in the token secret until the deployer sets the real token (README, "Deploy"). */
export const GRAPH_TOKEN_UNSET = 'SET-ME: the Graph API access token (a Meta system user token)';

/** The upstream credentials are missing: every call would fail, so none is made. */
export class UpstreamNotConfigured extends UpstreamUnavailable {}

let reported = false;
function notConfigured(message: string): never {
  // Once per process: each request still answers 502, but the log says it once, not at every call.
  if (!reported) logger.error('upstream credentials are not set', { problem: message });
  reported = true;
  throw new UpstreamNotConfigured(`The service is not configured to call the Graph API: ${message}`);
}

/**
 * The Graph API access token. In AWS it lives in Secrets Manager (GRAPH_API_TOKEN_SECRET names it) and is
 * read through Powertools Parameters, cached for five minutes so a rotation reaches every function soon.
 * Locally GRAPH_API_TOKEN holds it. Either way it stays in memory and never reaches a log. Unset, or still the
 * stack's marker: a 502 saying so (UpstreamNotConfigured).
 */
export async function graphApiToken(
  env: Record<string, string | undefined> = graphTokenSettings(),
  readSecret: (name: string) => Promise<string | undefined> = (name) => getSecret<string>(name, { maxAge: 300 }),
): Promise<string> {
  const direct = env.GRAPH_API_TOKEN;
  if (direct) return direct;
  const secretName = env.GRAPH_API_TOKEN_SECRET;
  if (!secretName) notConfigured('neither GRAPH_API_TOKEN nor GRAPH_API_TOKEN_SECRET is set');
  const token = (await readSecret(secretName))?.trim();
  if (!token || token === GRAPH_TOKEN_UNSET)
    notConfigured(`the secret ${secretName} holds no token yet (set it with aws secretsmanager put-secret-value)`);
  return token;
}
