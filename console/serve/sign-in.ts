import { consoleSignInSettings } from '#lib/config.ts';

/**
 * How the console signs in (issue 45), as `GET /console/config.json` answers it: a pasted or printed token (the
 * local stack), or the stack's Cognito hosted UI (authorization code with PKCE) with the console's app client.
 * The callback is the console's own address, which the browser knows.
 */
export type ConsoleSignIn = { signIn: 'token' } | { signIn: 'cognito'; domain: string; clientId: string };

export function consoleSignIn(): ConsoleSignIn {
  const { CONSOLE_COGNITO_DOMAIN: domain, CONSOLE_CLIENT_ID: clientId } = consoleSignInSettings();
  if (domain && clientId) return { signIn: 'cognito', domain: domain.replace(/\/+$/, ''), clientId };
  return { signIn: 'token' };
}
