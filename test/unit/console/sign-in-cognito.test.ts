import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  type Browser,
  type CognitoSignIn,
  cognitoSignOut,
  cognitoToken,
  signInWithCognito,
  signOutUrl,
} from '../../../console/src/sign-in-cognito.ts';

const config: CognitoSignIn = {
  signIn: 'cognito',
  domain: 'https://tms-123456789012.auth.eu-west-1.amazoncognito.com',
  clientId: 'console-client',
  redirectUri: 'https://abc123.execute-api.eu-west-1.amazonaws.com/console/',
};

/** RFC 7636's S256: base64url(SHA-256(ASCII(verifier))), computed apart from the library the console uses. */
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Cognito's token answer: an ID token (the console leaves it), the access token, its lifetime and type. */
const TOKENS = { id_token: 'not.a-jwt.the-console-leaves', access_token: 'access', expires_in: 3600, token_type: 'Bearer' };

/** A browser in memory: its storage, where it went, what it fetched. */
function memoryBrowser(href: string, answer?: { status: number; body: unknown }) {
  const items = new Map<string, string>();
  const seen = { went: [] as string[], replaced: [] as string[], fetched: [] as { url: string; body: string }[] };
  const browser: Browser = {
    storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) },
    href,
    go: (url) => void seen.went.push(url),
    replace: (url) => void seen.replaced.push(url),
    fetch: async (url, init) => {
      seen.fetched.push({ url: String(url), body: String(init?.body) });
      return new Response(JSON.stringify(answer?.body ?? {}), {
        status: answer?.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    },
    now: () => 1_000_000,
  };
  return { browser, items, seen };
}

describe('the console’s Cognito sign-in: authorization code with PKCE (issue 45)', () => {
  it('sends the user to the hosted UI’s authorize endpoint with the code grant, a S256 challenge, a state and the console’s address', async () => {
    // Prepare: a first visit
    const first = memoryBrowser(config.redirectUri);
    // Act
    const signedIn = await signInWithCognito(config, first.browser);
    // Assess: the challenge is RFC 7636's S256 of the verifier this tab keeps, with the state it keeps
    const url = new URL(first.seen.went[0]);
    const pending = JSON.parse(first.items.get('tms.console.pkce')!);
    expect(signedIn).toBeUndefined();
    expect(`${url.origin}${url.pathname}`).toBe(`${config.domain}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'console-client',
      redirect_uri: config.redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      code_challenge_method: 'S256',
      code_challenge: s256(pending.verifier),
    });
    expect(pending.verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(pending.state.length).toBeGreaterThanOrEqual(22);
  });

  it('makes a new verifier and state for every sign-in', async () => {
    // Prepare
    const [one, two] = [memoryBrowser(config.redirectUri), memoryBrowser(config.redirectUri)];
    // Act
    await signInWithCognito(config, one.browser);
    await signInWithCognito(config, two.browser);
    // Assess
    const [a, b] = [one, two].map((tab) => JSON.parse(tab.items.get('tms.console.pkce')!));
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.state).not.toBe(b.state);
  });

  it('trades the code at the token endpoint with the verifier, leaves the ID token, keeps the access token a minute short', async () => {
    // Prepare: the way back, in the tab that sent the user
    const back = memoryBrowser(`${config.redirectUri}?code=the-code&state=ours`, { status: 200, body: TOKENS });
    back.items.set('tms.console.pkce', JSON.stringify({ verifier: 'the-verifier', state: 'ours' }));
    // Act
    const signedIn = await signInWithCognito(config, back.browser);
    // Assess
    expect(back.seen.fetched[0].url).toBe(`${config.domain}/oauth2/token`);
    expect(Object.fromEntries(new URLSearchParams(back.seen.fetched[0].body))).toEqual({
      grant_type: 'authorization_code',
      client_id: 'console-client',
      code: 'the-code',
      redirect_uri: config.redirectUri,
      code_verifier: 'the-verifier',
    });
    expect(signedIn).toEqual({ accessToken: 'access', expiresAt: 1_000_000 + 3_540_000 });
    expect(JSON.parse(back.items.get('tms.console.tokens')!)).toEqual(signedIn);
  });

  it('refuses, in words, an error from the hosted UI and a token answer without tokens', async () => {
    // Prepare
    const denied = memoryBrowser(`${config.redirectUri}?error=access_denied&error_description=User+is+disabled&state=ours`);
    const empty = memoryBrowser(`${config.redirectUri}?code=c&state=ours`, { status: 200, body: { token_type: 'Bearer' } });
    empty.items.set('tms.console.pkce', JSON.stringify({ verifier: 'v', state: 'ours' }));
    // Act, Assess
    await expect(signInWithCognito(config, denied.browser)).rejects.toThrow('Sign-in was refused: User is disabled');
    expect(denied.seen.fetched).toEqual([]);
    await expect(signInWithCognito(config, empty.browser)).rejects.toThrow(/answered without tokens/);
    expect(empty.items.has('tms.console.tokens')).toBe(false);
    expect(new URL(signOutUrl(config)).searchParams.get('logout_uri')).toBe(config.redirectUri);
  });

  it('goes to the hosted UI, then on the way back trades the code once, cleans the address and keeps the tokens in the tab', async () => {
    // Prepare: a first visit
    const first = memoryBrowser(config.redirectUri);
    // Act
    expect(await signInWithCognito(config, first.browser)).toBeUndefined();
    // Assess: off to the hosted UI with the challenge of the kept verifier
    const authorize = new URL(first.seen.went[0]);
    const pending = JSON.parse(first.items.get('tms.console.pkce')!);
    expect(authorize.searchParams.get('code_challenge')).toBe(s256(pending.verifier));
    expect(authorize.searchParams.get('state')).toBe(pending.state);

    // Prepare: the way back, in the same tab
    const back = memoryBrowser(`${config.redirectUri}?code=the-code&state=${pending.state}`, {
      status: 200,
      body: TOKENS,
    });
    back.items.set('tms.console.pkce', JSON.stringify(pending));
    // Act
    const signedIn = await signInWithCognito(config, back.browser);
    // Assess
    expect(signedIn?.accessToken).toBe('access');
    expect(new URLSearchParams(back.seen.fetched[0].body).get('code_verifier')).toBe(pending.verifier);
    expect(back.seen.replaced).toEqual([config.redirectUri]);
    expect(back.items.has('tms.console.pkce')).toBe(false);
    // Assess: the next load uses the kept tokens, no second trade
    back.browser.href = config.redirectUri;
    expect(await signInWithCognito(config, back.browser)).toEqual(signedIn);
    expect(back.seen.fetched).toHaveLength(1);
  });

  it('refuses an answer whose state this tab did not send, and a refused code, in words', async () => {
    // Prepare
    const forged = memoryBrowser(`${config.redirectUri}?code=c&state=not-ours`);
    forged.items.set('tms.console.pkce', JSON.stringify({ verifier: 'v', state: 'ours' }));
    const refused = memoryBrowser(`${config.redirectUri}?code=c&state=ours`, { status: 400, body: { error: 'invalid_grant' } });
    refused.items.set('tms.console.pkce', JSON.stringify({ verifier: 'v', state: 'ours' }));
    // Act, Assess
    await expect(signInWithCognito(config, forged.browser)).rejects.toThrow(/not started from this tab/);
    expect(forged.seen.fetched).toEqual([]);
    expect(forged.items.has('tms.console.pkce')).toBe(false);
    await expect(signInWithCognito(config, refused.browser)).rejects.toThrow(/refused the code \(400\)/);
  });

  it('gives the shell the access token, with the console’s own address (no query, no fragment) as the callback', async () => {
    // Prepare: the shell's settings carry no callback: the page's address is it
    const { signIn: _, redirectUri, ...shell } = config;
    const back = memoryBrowser(`${redirectUri}?code=c&state=ours#/sends`, {
      status: 200,
      body: { ...TOKENS, access_token: 'a', expires_in: 60 },
    });
    back.items.set('tms.console.pkce', JSON.stringify({ verifier: 'v', state: 'ours' }));
    // Act
    const token = await cognitoToken({ signIn: 'cognito', ...shell }, back.browser);
    cognitoSignOut({ signIn: 'cognito', ...shell }, back.browser);
    // Assess
    expect(token).toBe('a');
    expect(new URLSearchParams(back.seen.fetched[0].body).get('redirect_uri')).toBe(redirectUri);
    expect(back.seen.replaced).toEqual([`${redirectUri}#/sends`]);
    expect(new URL(back.seen.went[0]).searchParams.get('logout_uri')).toBe(redirectUri);
    expect(back.items.has('tms.console.tokens')).toBe(false);
  });
});
