import type { CognitoConfig } from './config.ts';

/**
 * Signing in through the stack's Cognito hosted UI: authorization code with PKCE (the `console-pages` part of
 * issue 45 fills this in). Resolves with an access token once signed in; otherwise sends the browser to the hosted
 * UI and never resolves.
 */
export async function cognitoToken(config: CognitoConfig): Promise<string> {
  throw new Error(`Signing in through Cognito (${config.domain}) is not built yet`);
}

/** Signs out of the hosted UI too, so the next visit asks again. */
export function cognitoSignOut(_config: CognitoConfig): void {}
