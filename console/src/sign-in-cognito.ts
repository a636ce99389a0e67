import * as oauth from 'oauth4webapi';

/**
 * Signing in to the console on a deployment (issue 45): the stack's Cognito hosted UI, the authorization-code
 * grant with PKCE (RFC 7636, S256) and `state`, each step through oauth4webapi (issue 52). The console is a
 * public client: it holds no secret, so it proves that the code is its own with a verifier only this tab knows,
 * kept in sessionStorage across the hosted UI's round trip with the `state` that ties the answer to the request.
 * The tokens stay in sessionStorage: one tab, gone when it closes. The bearer the console sends is the access
 * token (the API accepts the console's app client as an audience; the pool's trigger puts the caller's claims in it).
 *
 * `signInWithCognito` takes what of the browser it uses as an argument, so it is unit-tested without one;
 * `cognitoToken` wires it to the page's.
 */

/** `GET /console/config.json` in a deployment with Cognito. */
export interface CognitoSignIn {
  signIn: 'cognito';
  /** The hosted UI's base URL, `https://<prefix>.auth.<region>.amazoncognito.com`. */
  domain: string;
  clientId: string;
  /** The console's own address, the app client's callback and sign-out URL. */
  redirectUri: string;
}

export interface SignedIn {
  accessToken: string;
  /** Milliseconds since the epoch; a minute early, so no request leaves with a token about to lapse. */
  expiresAt: number;
}

/** What of the browser this module uses: given by the page, or by a test. */
export interface Browser {
  /** The tab's sessionStorage. */
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };
  /** The page's address now. */
  href: string;
  /** Leaves the page for another address. */
  go(url: string): void;
  /** Replaces the address without a reload (the code and state leave the address bar and the history). */
  replace(url: string): void;
  fetch: typeof fetch;
  now(): number;
}

/** The scopes the console asks for; the API reads the caller's claims from the access token, not from scopes. */
export const SCOPES = 'openid email profile';
const PENDING_KEY = 'tms.console.pkce';
const TOKENS_KEY = 'tms.console.tokens';
const EARLY_MS = 60_000;

export class SignInError extends Error {}

/** The hosted UI's endpoints as an OAuth authorization server (Cognito publishes them under its domain). */
const hostedUi = (config: CognitoSignIn): oauth.AuthorizationServer => ({
  issuer: config.domain,
  authorization_endpoint: new URL('/oauth2/authorize', config.domain).href,
  token_endpoint: new URL('/oauth2/token', config.domain).href,
});

const publicClient = (config: CognitoSignIn): oauth.Client => ({ client_id: config.clientId });

/** The hosted UI's sign-out address (Cognito's own, not OAuth's): it ends the Cognito session and comes back. */
export function signOutUrl(config: CognitoSignIn): string {
  const url = new URL('/logout', config.domain);
  url.search = new URLSearchParams({ client_id: config.clientId, logout_uri: config.redirectUri }).toString();
  return url.href;
}

/** The stored tokens while they hold, else nothing. */
export function storedSignIn(browser: Pick<Browser, 'storage' | 'now'>): SignedIn | undefined {
  const raw = browser.storage.getItem(TOKENS_KEY);
  if (!raw) return undefined;
  const tokens = JSON.parse(raw) as SignedIn;
  return tokens.expiresAt > browser.now() ? tokens : undefined;
}

/** Sends the user to the hosted UI with a S256 challenge and a state, keeping the verifier and state for the way back. */
export async function beginSignIn(config: CognitoSignIn, browser: Browser): Promise<void> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  browser.storage.setItem(PENDING_KEY, JSON.stringify({ verifier, state }));
  const url = new URL(hostedUi(config).authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    scope: SCOPES,
    state,
    code_challenge_method: 'S256',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
  }).toString();
  browser.go(url.href);
}

/**
 * The hosted UI's answer, checked by oauth4webapi against the state this tab sent, traded at the token endpoint
 * with the verifier. Cognito's ID token is left out: the console neither keeps nor sends it, and its issuer is
 * the pool's, which the page is not given.
 */
async function tradeCode(config: CognitoSignIn, browser: Browser, answer: URL, pending: Pending): Promise<SignedIn> {
  const [server, client] = [hostedUi(config), publicClient(config)];
  let callback: URLSearchParams;
  try {
    callback = oauth.validateAuthResponse(server, client, answer, pending.state);
  } catch {
    throw new SignInError('This sign-in answer was not started from this tab; sign in again.');
  }
  const response = await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), callback, config.redirectUri, pending.verifier, {
    [oauth.customFetch]: browser.fetch,
  });
  if (!response.ok) throw new SignInError(`The sign-in service refused the code (${response.status}); sign in again.`);
  const tokens = await oauth
    .processAuthorizationCodeResponse(server, client, await withoutIdToken(response))
    .catch(() => Promise.reject(new SignInError('The sign-in service answered without tokens.')));
  if (typeof tokens.expires_in !== 'number') throw new SignInError('The sign-in service answered without a lifetime.');
  return { accessToken: tokens.access_token, expiresAt: browser.now() + tokens.expires_in * 1000 - EARLY_MS };
}

/** The token endpoint's answer without the ID token (see `tradeCode`). */
async function withoutIdToken(response: Response): Promise<Response> {
  const body: unknown = await response.json().catch(() => undefined);
  const rest = typeof body === 'object' && body ? { ...body, id_token: undefined } : body;
  return new Response(JSON.stringify(rest ?? null), { status: response.status, headers: response.headers });
}

type Pending = { verifier: string; state: string };

/**
 * The console's sign-in: the stored tokens while they hold; on the hosted UI's way back, its code traded for
 * tokens (its state must be the one this tab sent); otherwise off to the hosted UI (undefined: the page leaves).
 * A refusal throws in words.
 */
export async function signInWithCognito(config: CognitoSignIn, browser: Browser): Promise<SignedIn | undefined> {
  const stored = storedSignIn(browser);
  if (stored) return stored;
  const answer = new URL(browser.href);
  const error = answer.searchParams.get('error');
  if (error) throw new SignInError(`Sign-in was refused: ${answer.searchParams.get('error_description') ?? error}`);
  if (!answer.searchParams.has('code')) {
    await beginSignIn(config, browser);
    return undefined;
  }
  const pending = JSON.parse(browser.storage.getItem(PENDING_KEY) ?? 'null') as Pending | null;
  browser.storage.removeItem(PENDING_KEY);
  const clean = new URL(answer);
  for (const key of ['code', 'state']) clean.searchParams.delete(key);
  browser.replace(clean.href);
  if (!pending) throw new SignInError('This sign-in answer was not started from this tab; sign in again.');
  const tokens = await tradeCode(config, browser, answer, pending);
  browser.storage.setItem(TOKENS_KEY, JSON.stringify(tokens));
  return tokens;
}

/** Forgets the tokens and leaves through the hosted UI's sign-out. */
export function signOut(config: CognitoSignIn, browser: Pick<Browser, 'storage' | 'go'>): void {
  browser.storage.removeItem(TOKENS_KEY);
  browser.go(signOutUrl(config));
}

/** The shell's Cognito settings (`GET /console/config.json`): the callback is the console's own address. */
type ShellConfig = Omit<CognitoSignIn, 'redirectUri'> & { redirectUri?: string };

const withAddress = (config: ShellConfig, browser: Browser): CognitoSignIn => {
  const here = new URL(browser.href);
  return { ...config, redirectUri: config.redirectUri ?? `${here.origin}${here.pathname}` };
};

/**
 * The shell's way in (console/src/session.ts): the access token once signed in; otherwise the browser goes to
 * the hosted UI and this never resolves.
 */
export async function cognitoToken(config: ShellConfig, browser: Browser = pageBrowser()): Promise<string> {
  const signedIn = await signInWithCognito(withAddress(config, browser), browser);
  if (signedIn) return signedIn.accessToken;
  return new Promise<string>(() => undefined);
}

/** Signs out of the hosted UI too, so the next visit asks again. */
export function cognitoSignOut(config: ShellConfig, browser: Browser = pageBrowser()): void {
  signOut(withAddress(config, browser), browser);
}

/** The page's own browser. */
export function pageBrowser(): Browser {
  const page = globalThis as unknown as {
    sessionStorage: Browser['storage'];
    location: { href: string; assign(url: string): void };
    history: { replaceState(data: unknown, unused: string, url: string): void };
  };
  return {
    storage: page.sessionStorage,
    get href() {
      return page.location.href;
    },
    go: (url) => page.location.assign(url),
    replace: (url) => page.history.replaceState(null, '', url),
    fetch: (...args) => fetch(...args),
    now: () => Date.now(),
  };
}
