import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { readSampleEvent } from '../../local/sample-events.ts';
import { call, emulator } from '../support/api.ts';
import { consoleStack, newTab, seriousViolations } from '../support/browser.ts';

/**
 * The deployed console launches Meta's Embedded Signup (issue 55): the page as GetConsole serves it with GRAPH_APP_ID
 * and EMBEDDED_SIGNUP_CONFIG_ID, on the API's origin. Facebook's SDK is the test's own, served at its address as the
 * SDK behaves (docs/platform-2027.md §1.1–1.2): `FB.init`, then `FB.login` opens Meta's dialog in a frame of
 * www.facebook.com, whose page posts the flow's `WA_EMBEDDED_SIGNUP` message to the console; the login callback then
 * gives the code. The code and IDs are the emulator's popup's, so the onboarding goes through the stack.
 */
const stack = consoleStack();
const CLIENT = 10;
const APP_ID = '1029384756';
const CONFIG_ID = '5647382910';
const CONSOLE_URL = `${stack.apiUrl}/console-with-facebook`;
const DIALOG = 'https://www.facebook.com/v24.0/dialog/oauth';

/** What the popup gave (the emulator's), and which FINISH event the flow posts for it. */
let flow: { code: string; waba_id: string; phone_number_id: string; business_id: string; event: string };

/**
 * The SDK as Facebook's behaves: it calls `fbAsyncInit` once loaded; `login` opens the dialog, and calls back with
 * the code the dialog's window hands it (the SDK's own channel with facebook.com) after the session message. Just
 * before the callback, a message from the console's own window poses as the flow with other IDs: the console must
 * take the flow's from facebook.com only.
 */
const fakeSdk = () => `(() => {
  const seen = (window.__fb = { inits: [], logins: [] });
  window.FB = {
    init: (options) => seen.inits.push(options),
    login: (callback, options) => {
      seen.logins.push(options);
      const frame = document.createElement('iframe');
      frame.title = 'Facebook';
      frame.hidden = true;
      frame.src = ${JSON.stringify(DIALOG)} + '?config_id=' + options.config_id;
      const answered = (event) => {
        if (event.origin !== 'https://www.facebook.com' || event.data?.channel !== 'fake-sdk') return;
        window.removeEventListener('message', answered);
        frame.remove();
        window.postMessage(JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { waba_id: '1', phone_number_id: '2' } }), '*');
        setTimeout(() => callback({ status: 'connected', authResponse: { code: event.data.code } }), 50);
      };
      window.addEventListener('message', answered);
      document.body.append(frame);
    },
  };
  setTimeout(() => window.fbAsyncInit && window.fbAsyncInit(), 0);
})();`;

/** Meta's dialog after the client went through it: its page posts the FINISH event to the console (its opener). */
const dialogPage = () => {
  const data = { waba_id: flow.waba_id, phone_number_id: flow.phone_number_id, business_id: flow.business_id };
  const message = JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: flow.event, data, version: 3 });
  const login = JSON.stringify({ channel: 'fake-sdk', code: flow.code });
  return `<!doctype html><title>Embedded Signup</title><script>parent.postMessage(${JSON.stringify(message)}, '*'); parent.postMessage(${login}, '*');</script>`;
};

let context: BrowserContext;
let page: Page;
let faults: string[];
let served: APIGatewayProxyStructuredResultV2;
let sdkLoads = 0;

beforeAll(async () => {
  // Prepare: the page as GetConsole serves it in a deployment with Embedded Signup configured
  Object.assign(process.env, { GRAPH_APP_ID: APP_ID, EMBEDDED_SIGNUP_CONFIG_ID: CONFIG_ID });
  const { handler } = await import('../../functions/http/get-console.ts');
  served = await handler(readSampleEvent('GetConsole'), {} as Context);
  ({ context, page, faults } = await newTab());
  const headers = Object.fromEntries(Object.entries(served.headers ?? {}).map(([k, v]) => [k, String(v)]));
  await page.route(`${CONSOLE_URL}**`, (route) => route.fulfill({ status: 200, headers, body: served.body }));
  await page.route('https://connect.facebook.net/**', (route: Route) => {
    sdkLoads++;
    // Loaded with crossorigin="anonymous", as Meta's snippet does: it needs CORS, as Facebook's CDN answers.
    return route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' },
      body: fakeSdk(),
    });
  });
  await page.route(`${DIALOG}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: dialogPage() }));
  const admin = await mintToken({ clientId: CLIENT, campaigns: [], role: 'admin', sub: 'console-embedded-signup' });
  await page.goto(`${CONSOLE_URL}#token=${admin}`);
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  await page.evaluate('location.hash = "#/onboarding"');
  await page.locator('main h1').waitFor();
}, 60_000);

afterAll(async () => {
  await context?.close();
  delete process.env.GRAPH_APP_ID;
  delete process.env.EMBEDDED_SIGNUP_CONFIG_ID;
});

const popup = async (extra: Record<string, unknown>, event: string) => {
  flow = { ...(await emulator('POST', 'embedded-signup', { currency: 'USD', ...extra })), event };
};
const directoryHas = async (wabaId: string) =>
  (
    await call('GET', `/v1/client-msg-channels?client_id=${CLIENT}&size=100&fields=wa_id,waba_id,is_on_biz_app`, { token: stack.bspToken })
  ).body.data.filter((c: { waba_id: string }) => c.waba_id === wabaId);

describe('the console launches Meta’s Embedded Signup where it is configured (issue 55)', () => {
  it('serves the app and configuration, and allows Facebook’s SDK and frames in its policy', () => {
    // Assess
    expect(served.body).toContain(`"embeddedSignup":{"appId":"${APP_ID}","configId":"${CONFIG_ID}","graphVersion":"v24.0"}`);
    const policy = String(served.headers?.['Content-Security-Policy'] ?? '');
    expect(policy).toMatch(/script-src 'sha256-[^']+' https:\/\/connect\.facebook\.net;/);
    expect(policy).toContain('frame-src https://www.facebook.com https://staticxx.facebook.com');
    expect(policy).not.toContain('require-trusted-types-for');
    expect(served.headers).toMatchObject({
      'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
      'Cross-Origin-Embedder-Policy': 'unsafe-none',
    });
  });

  it('loads the SDK, calls FB.login with the configuration for a code, takes the flow’s IDs from facebook.com and onboards', async () => {
    // Prepare
    await popup({ display_phone_number: '+1 555 010 6911' }, 'FINISH');
    // Act
    await page.getByLabel('Two-step verification PIN (6 digits)').fill('123456');
    await page.getByRole('button', { name: 'Start Embedded Signup' }).click();
    const outcome = page.locator(`section[data-status="completed"]`);
    await outcome.waitFor();
    // Assess: the SDK's calls as Meta documents them
    const seen = (await page.evaluate('window.__fb')) as { inits: unknown[]; logins: unknown[] };
    expect(seen.inits).toEqual([{ appId: APP_ID, autoLogAppEvents: true, xfbml: false, version: 'v24.0' }]);
    expect(seen.logins).toEqual([{ config_id: CONFIG_ID, response_type: 'code', override_default_response_type: true, extras: {} }]);
    // Assess: the flow's WABA onboarded (not the IDs the page's own window posted), every step done
    expect(await outcome.getAttribute('data-onboarding')).toMatch(/^[0-9a-f]{32}$/);
    expect(await outcome.locator('h2').textContent()).toContain(flow.waba_id);
    expect(await directoryHas(flow.waba_id)).toEqual([{ wa_id: '15550106911', waba_id: flow.waba_id, is_on_biz_app: false }]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
  });

  it('asks for the WhatsApp Business app’s feature type and onboards its number as coexistence, the SDK loaded once', async () => {
    // Prepare
    await popup({ display_phone_number: '+1 555 010 6912', coexistence: true }, 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING');
    // Act
    await page.getByLabel(/A WhatsApp Business app number/).check();
    await page.getByRole('button', { name: 'Start Embedded Signup' }).click();
    await page.locator(`section[data-status="completed"] h2:has-text("${flow.waba_id}")`).waitFor();
    // Assess
    const seen = (await page.evaluate('window.__fb')) as { logins: { extras: unknown }[] };
    expect(seen.logins.at(-1)?.extras).toEqual({ featureType: 'whatsapp_business_app_onboarding' });
    expect(await page.locator('tr[data-step="register"]').getAttribute('data-step-status')).toBe('skipped');
    expect(await directoryHas(flow.waba_id)).toEqual([{ wa_id: '15550106912', waba_id: flow.waba_id, is_on_biz_app: true }]);
    expect(sdkLoads).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
  });
});
