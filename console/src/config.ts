/**
 * How the console signs in, as the page carries it (console/serve/sign-in.ts, console/serve/page.ts), and how it
 * launches Embedded Signup where the deployment configures it (console/serve/embedded-signup.ts).
 */
export type ConsoleConfig = ({ signIn: 'token' } | CognitoConfig) & { embeddedSignup?: EmbeddedSignupConfig };

/** Meta's app, its Facebook Login for Business configuration and the Graph version `FB.init` names (issue 55). */
export interface EmbeddedSignupConfig {
  appId: string;
  configId: string;
  graphVersion: string;
}

export interface CognitoConfig {
  signIn: 'cognito';
  /** The hosted UI's base URL, `https://<prefix>.auth.<region>.amazoncognito.com`. */
  domain: string;
  /** The console's app client (public: no secret, PKCE). */
  clientId: string;
}

/** The console's own address without query or fragment: the callback Cognito sends the browser back to. */
export const consoleAddress = () => `${location.origin}${location.pathname}`;

/** The sign-in settings the page was served with. */
export function pageConfig(): ConsoleConfig {
  const element = document.getElementById('console-config');
  return element?.textContent ? (JSON.parse(element.textContent) as ConsoleConfig) : { signIn: 'token' };
}
