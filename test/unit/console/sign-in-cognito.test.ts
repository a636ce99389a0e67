import { describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  type Browser,
  base64url,
  type CognitoSignIn,
  callbackOf,
  challengeOf,
  cognitoSignOut,
  cognitoToken,
  newVerifier,
  SignInError,
  signedInFrom,
  signInWithCognito,
  signOutUrl,
  tokenRequest,
} from '../../../console/src/sign-in-cognito.ts';

const config: CognitoSignIn = {
  signIn: 'cognito',
  domain: 'https://tms-123456789012.auth.eu-west-1.amazoncognito.com',
  clientId: 'console-client',
  redirectUri: 'https://abc123.execute-api.eu-west-1.amazonaws.com/console/',
};

/** RFC 7636, appendix B: the verifier's 32 octets, the verifier, and its S256 challenge. */
const RFC7636 = {
  octets: [
    116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132,
    141, 121,
  ],
  verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
};

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
      return new Response(JSON.stringify(answer?.body ?? {}), { status: answer?.status ?? 200 });
    },
    now: () => 1_000_000,
    random: (n) => Uint8Array.from({ length: n }, (_, i) => RFC7636.octets[i % 32]),
  };
  return { browser, items, seen };
}

describe('the console’s Cognito sign-in: authorization code with PKCE (issue 45)', () => {
  it('makes RFC 7636’s verifier from its octets and its S256 challenge from the verifier (appendix B)', async () => {
    // Act
    const verifier = newVerifier(() => Uint8Array.from(RFC7636.octets));
    const challenge = await challengeOf(RFC7636.verifier);
    // Assess
    expect(verifier).toBe(RFC7636.verifier);
    expect(challenge).toBe(RFC7636.challenge);
    expect(base64url(new Uint8Array([251, 255, 191]))).toBe('-_-_');
  });

  it('sends the user to the hosted UI’s authorize endpoint with the code grant, S256 challenge, state and the console’s address', () => {
    // Act
    const url = new URL(authorizeUrl(config, { state: 'st', challenge: RFC7636.challenge }));
    // Assess
    expect(`${url.origin}${url.pathname}`).toBe(`${config.domain}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'console-client',
      redirect_uri: config.redirectUri,
      scope: 'openid email profile',
      state: 'st',
      code_challenge_method: 'S256',
      code_challenge: RFC7636.challenge,
    });
  });

  it('trades the code at the token endpoint with the verifier, and keeps the tokens a minute short of their lifetime', () => {
    // Act
    const request = tokenRequest(config, 'the-code', RFC7636.verifier);
    const tokens = signedInFrom({ id_token: 'id', access_token: 'access', expires_in: 3600, token_type: 'Bearer' }, 1_000);
    // Assess
    expect(request.url).toBe(`${config.domain}/oauth2/token`);
    expect(request.init.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(String(request.init.body)))).toEqual({
      grant_type: 'authorization_code',
      client_id: 'console-client',
      code: 'the-code',
      redirect_uri: config.redirectUri,
      code_verifier: RFC7636.verifier,
    });
    expect(tokens).toEqual({ idToken: 'id', accessToken: 'access', expiresAt: 1_000 + 3_540_000 });
    expect(() => signedInFrom({ error: 'invalid_grant' }, 0)).toThrow(SignInError);
  });

  it('reads the hosted UI’s answer from the address: a code and state, an error in words, or nothing', () => {
    expect(callbackOf(`${config.redirectUri}?code=c&state=s`)).toEqual({ code: 'c', state: 's' });
    expect(callbackOf(`${config.redirectUri}?error=access_denied&error_description=User+is+disabled`)).toEqual({
      error: 'User is disabled',
    });
    expect(callbackOf(config.redirectUri)).toBeUndefined();
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
    expect(authorize.searchParams.get('code_challenge')).toBe(await challengeOf(pending.verifier));
    expect(authorize.searchParams.get('state')).toBe(pending.state);

    // Prepare: the way back, in the same tab
    const back = memoryBrowser(`${config.redirectUri}?code=the-code&state=${pending.state}`, {
      status: 200,
      body: { id_token: 'id', access_token: 'access', expires_in: 3600 },
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
    await expect(signInWithCognito(config, refused.browser)).rejects.toThrow(/refused the code \(400\)/);
  });

  it('gives the shell the access token, with the console’s own address (no query, no fragment) as the callback', async () => {
    // Prepare: the shell's settings carry no callback: the page's address is it
    const { signIn: _, redirectUri, ...shell } = config;
    const back = memoryBrowser(`${redirectUri}?code=c&state=ours#/sends`, {
      status: 200,
      body: { id_token: 'i', access_token: 'a', expires_in: 60 },
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
