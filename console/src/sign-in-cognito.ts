/**
 * Signing in to the console on a deployment (issue 45): the stack's Cognito hosted UI, the authorization-code
 * grant with PKCE (RFC 7636, S256). The console is a public client: it holds no secret, so it proves that the
 * code is its own with a verifier only this tab knows, kept in sessionStorage across the hosted UI's round trip
 * with a `state` that ties the answer to the request. The tokens stay in sessionStorage: one tab, gone when it
 * closes. The bearer the console sends is the access token (the API accepts the console's app client as an
 * audience; the pool's trigger puts the caller's claims in it).
 *
 * The pure parts (verifier, challenge, URLs, the token answer) take what they need as arguments, so they are
 * unit-tested without a browser; `signInWithCognito` wires them to a browser, `cognitoToken` to the page's.
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
  idToken: string;
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
  random(bytes: number): Uint8Array;
}

/** The scopes the console asks for; the API reads the caller's claims from the access token, not from scopes. */
export const SCOPES = 'openid email profile';
const PENDING_KEY = 'tms.console.pkce';
const TOKENS_KEY = 'tms.console.tokens';
const EARLY_MS = 60_000;

export class SignInError extends Error {}

/** Base64url without padding (RFC 7636 appendix A). */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A code verifier: 32 random octets as base64url, 43 characters of RFC 7636's unreserved set. */
export const newVerifier = (random: Browser['random']) => base64url(random(32));

/** The S256 code challenge of a verifier: base64url(SHA-256(ASCII(verifier))). */
export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The hosted UI's authorize address for this request. */
export function authorizeUrl(config: CognitoSignIn, request: { state: string; challenge: string }): string {
  const url = new URL('/oauth2/authorize', config.domain);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    scope: SCOPES,
    state: request.state,
    code_challenge_method: 'S256',
    code_challenge: request.challenge,
  }).toString();
  return url.href;
}

/** The token endpoint's request that trades a code for tokens, with the verifier that proves it ours. */
export function tokenRequest(config: CognitoSignIn, code: string, verifier: string): { url: string; init: RequestInit } {
  return {
    url: new URL('/oauth2/token', config.domain).href,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: config.clientId,
        code,
        redirect_uri: config.redirectUri,
        code_verifier: verifier,
      }).toString(),
    },
  };
}

/** The token endpoint's answer, as the console keeps it. */
export function signedInFrom(answer: unknown, now: number): SignedIn {
  const a = answer as { id_token?: unknown; access_token?: unknown; expires_in?: unknown };
  if (typeof a?.access_token !== 'string' || typeof a.id_token !== 'string' || typeof a.expires_in !== 'number')
    throw new SignInError('The sign-in service answered without tokens.');
  return { idToken: a.id_token, accessToken: a.access_token, expiresAt: now + a.expires_in * 1000 - EARLY_MS };
}

/** The hosted UI's sign-out address: it ends the Cognito session and comes back to the console. */
export function signOutUrl(config: CognitoSignIn): string {
  const url = new URL('/logout', config.domain);
  url.search = new URLSearchParams({ client_id: config.clientId, logout_uri: config.redirectUri }).toString();
  return url.href;
}

/** What the hosted UI answered in the address: a code with its state, an error, or nothing (a first visit). */
export function callbackOf(href: string): { code: string; state: string } | { error: string } | undefined {
  const query = new URL(href).searchParams;
  const error = query.get('error');
  if (error) return { error: query.get('error_description') ?? error };
  const code = query.get('code');
  const state = query.get('state');
  return code && state ? { code, state } : undefined;
}

/** The stored tokens while they hold, else nothing. */
export function storedSignIn(browser: Pick<Browser, 'storage' | 'now'>): SignedIn | undefined {
  const raw = browser.storage.getItem(TOKENS_KEY);
  if (!raw) return undefined;
  const tokens = JSON.parse(raw) as SignedIn;
  return tokens.expiresAt > browser.now() ? tokens : undefined;
}

/** Sends the user to the hosted UI, keeping the verifier and state for its way back. */
export async function beginSignIn(config: CognitoSignIn, browser: Browser): Promise<void> {
  const verifier = newVerifier(browser.random);
  const state = base64url(browser.random(16));
  browser.storage.setItem(PENDING_KEY, JSON.stringify({ verifier, state }));
  browser.go(authorizeUrl(config, { state, challenge: await challengeOf(verifier) }));
}

/**
 * The console's sign-in: the stored tokens while they hold; on the hosted UI's way back, its code traded for
 * tokens (its state must be the one this tab sent); otherwise off to the hosted UI (undefined: the page leaves).
 * A refusal throws in words.
 */
export async function signInWithCognito(config: CognitoSignIn, browser: Browser): Promise<SignedIn | undefined> {
  const stored = storedSignIn(browser);
  if (stored) return stored;
  const callback = callbackOf(browser.href);
  if (callback && 'error' in callback) throw new SignInError(`Sign-in was refused: ${callback.error}`);
  if (!callback) {
    await beginSignIn(config, browser);
    return undefined;
  }
  const pending = JSON.parse(browser.storage.getItem(PENDING_KEY) ?? 'null') as { verifier: string; state: string } | null;
  browser.storage.removeItem(PENDING_KEY);
  const clean = new URL(browser.href);
  for (const key of ['code', 'state']) clean.searchParams.delete(key);
  browser.replace(clean.href);
  if (!pending || pending.state !== callback.state)
    throw new SignInError('This sign-in answer was not started from this tab; sign in again.');
  const request = tokenRequest(config, callback.code, pending.verifier);
  const answer = await browser.fetch(request.url, request.init);
  if (!answer.ok) throw new SignInError(`The sign-in service refused the code (${answer.status}); sign in again.`);
  const tokens = signedInFrom(await answer.json(), browser.now());
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
    random: (bytes) => crypto.getRandomValues(new Uint8Array(bytes)),
  };
}
