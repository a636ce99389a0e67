import { createHash } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { readSampleEvent } from '../../local/sample-events.ts';
import { REFUSED_LINK } from '../../console/src/session.ts';
import { consoleStack, newTab } from '../support/browser.ts';

/**
 * Signing in through Cognito's hosted UI (issue 45) in Chromium: the console page as its function serves it with
 * CONSOLE_COGNITO_DOMAIN and CONSOLE_CLIENT_ID, on the API's origin; the hosted UI's two endpoints answered by the
 * test as Cognito answers them (no account, no network): `/oauth2/authorize` sends the browser back with a code,
 * `/oauth2/token` trades it, once the verifier matches the challenge, for an access token the local stack accepts.
 */
const stack = consoleStack();
const DOMAIN = 'https://tms-browser-test.auth.eu-west-1.amazoncognito.com';
const CLIENT_ID = 'console-client-of-the-test';
/** Where the browser gets the page: the API's origin, as the deployed `/console` is the API's. */
const CONSOLE_URL = `${stack.apiUrl}/console-with-cognito`;

let context: BrowserContext;
let page: Page;
let faults: string[];
let served: APIGatewayProxyStructuredResultV2;
const seen: { authorize?: URL; token?: URLSearchParams; tokenCalls: number } = { tokenCalls: 0 };
let accessToken: string;

beforeAll(async () => {
  // Prepare: the page as GetConsole serves it in a deployment with Cognito
  Object.assign(process.env, { CONSOLE_COGNITO_DOMAIN: DOMAIN, CONSOLE_CLIENT_ID: CLIENT_ID });
  const { handler } = await import('../../functions/http/get-console.ts');
  served = await handler(readSampleEvent('GetConsole'), {} as Context);
  accessToken = await mintToken({ clientId: 9, campaigns: [51], sub: 'console-cognito-user' });
  ({ context, page, faults } = await newTab());
  const headers = Object.fromEntries(Object.entries(served.headers ?? {}).map(([k, v]) => [k, String(v)]));
  await page.route(`${CONSOLE_URL}**`, (route) => route.fulfill({ status: 200, headers, body: served.body }));
  // The hosted UI: a signed-in user is sent back with a code and the state it was given
  await page.route(`${DOMAIN}/oauth2/authorize?**`, (route) => {
    seen.authorize = new URL(route.request().url());
    const back = `${seen.authorize.searchParams.get('redirect_uri')}?code=the-code&state=${seen.authorize.searchParams.get('state')}`;
    // A page that goes on at once, not a 302: a request a redirect makes never reaches the routes (Playwright).
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<!doctype html><meta http-equiv="refresh" content="0;url=${back}">`,
    });
  });
  // The token endpoint: the code is traded only with the verifier whose S256 is the challenge
  await page.route(`${DOMAIN}/oauth2/token`, (route) => {
    seen.tokenCalls++;
    seen.token = new URLSearchParams(route.request().postData() ?? '');
    const challenge = createHash('sha256')
      .update(seen.token.get('code_verifier') ?? '')
      .digest('base64url');
    const ok = challenge === seen.authorize?.searchParams.get('code_challenge') && seen.token.get('code') === 'the-code';
    return route.fulfill({
      status: ok ? 200 : 400,
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': stack.apiUrl },
      body: JSON.stringify(
        ok ? { id_token: 'id-token', access_token: accessToken, expires_in: 3600, token_type: 'Bearer' } : { error: 'invalid_grant' },
      ),
    });
  });
}, 60_000);
afterAll(async () => {
  await context?.close();
  delete process.env.CONSOLE_COGNITO_DOMAIN;
  delete process.env.CONSOLE_CLIENT_ID;
});

describe('signing in to the console through Cognito’s hosted UI (issue 45)', () => {
  it('goes to the hosted UI with a S256 challenge, comes back with a code, trades it with the verifier and shows the console', async () => {
    // Act
    await page.goto(CONSOLE_URL);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    // Assess: the authorization-code request of a public client with PKCE, back to the console's own address
    expect(served.body).toContain(`{"signIn":"cognito","domain":"${DOMAIN}","clientId":"${CLIENT_ID}"}`);
    expect(Object.fromEntries(seen.authorize!.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: CONSOLE_URL,
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(Object.fromEntries(seen.token!)).toMatchObject({
      grant_type: 'authorization_code',
      client_id: CLIENT_ID,
      redirect_uri: CONSOLE_URL,
    });
    expect(seen.tokenCalls).toBe(1);
    // Assess: signed in as the token's client, the code gone from the address, nothing refused by the page's policy
    expect(await page.locator('.top .client').textContent()).toMatch(/^Client 9/);
    expect(page.url()).not.toMatch(/code=|state=/);
    expect(await page.evaluate('sessionStorage.getItem("tms-console-token")')).toBe(accessToken);
    expect(faults).toEqual([]);
  });

  it('signs out through the hosted UI’s logout, forgetting the tokens: the next visit asks the hosted UI again', async () => {
    // Prepare: the hosted UI's logout sends the browser back, where it asks the hosted UI again
    let logout: URL | undefined;
    await page.route(`${DOMAIN}/logout?**`, (route) => {
      logout = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Signed out</title><p>Signed out</p>' });
    });
    // Act
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${DOMAIN}/logout?**`);
    // Act: the console again
    await page.goto(CONSOLE_URL);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    // Assess
    expect(Object.fromEntries(logout!.searchParams)).toEqual({ client_id: CLIENT_ID, logout_uri: CONSOLE_URL });
    expect(seen.tokenCalls).toBe(2);
  });

  it('refuses a token in its address (decisions §32): a link carrying someone’s token signs nobody in, and says so', async () => {
    // Prepare: a fresh tab, and a link carrying another user's token
    const attacker = await mintToken({ clientId: 5, campaigns: [], sub: 'someone-else' });
    const tab = await newTab();
    const headers = Object.fromEntries(Object.entries(served.headers ?? {}).map(([k, v]) => [k, String(v)]));
    await tab.page.route(`${CONSOLE_URL}**`, (route) => route.fulfill({ status: 200, headers, body: served.body }));
    let asked = 0;
    await tab.page.route(`${DOMAIN}/**`, (route) => {
      asked++;
      return route.abort();
    });
    // Act
    await tab.page.goto(`${CONSOLE_URL}#token=${attacker}`);
    await tab.page.getByText(REFUSED_LINK.slice(0, 40)).waitFor();
    // Assess: not kept, gone from the address, no sign-in as the link's user, nothing refused by the page's policy
    expect(await tab.page.evaluate('sessionStorage.getItem("tms-console-token")')).toBeNull();
    expect(tab.page.url()).not.toContain('token=');
    expect(await tab.page.locator('.top .client').count()).toBe(0);
    expect(asked).toBe(0);
    expect(tab.faults).toEqual([]);
    await tab.context.close();
  });
});
