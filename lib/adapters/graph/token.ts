import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/**
 * The Graph API access token. In AWS it lives in Secrets Manager (GRAPH_API_TOKEN_SECRET names it) and is
 * read through Powertools Parameters, cached for five minutes so a rotation reaches every function soon.
 * Locally GRAPH_API_TOKEN holds it. Either way it stays in memory and never reaches a log.
 */
export async function graphApiToken(): Promise<string> {
  const direct = process.env.GRAPH_API_TOKEN;
  if (direct) return direct;
  const secretName = process.env.GRAPH_API_TOKEN_SECRET;
  if (!secretName) throw new Error('Configuration error: GRAPH_API_TOKEN or GRAPH_API_TOKEN_SECRET must be set');
  const value = await getSecret<string>(secretName, { maxAge: 300 });
  if (!value) throw new Error('Configuration error: the Graph API token secret is empty');
  return value;
}
