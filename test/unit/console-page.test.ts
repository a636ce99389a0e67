import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { consolePage } from '../../console/serve/page.ts';
import { consoleSignIn } from '../../console/serve/sign-in.ts';
import { settingsFor, type SettingSources } from '#lib/manifest/needs.ts';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the console’s page and sign-in (issue 45)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('signs in by token unless both Cognito settings are given, then through the hosted UI', () => {
    // Prepare, Act, Assess
    delete process.env.CONSOLE_COGNITO_DOMAIN;
    delete process.env.CONSOLE_CLIENT_ID;
    expect(consoleSignIn()).toEqual({ signIn: 'token' });
    process.env.CONSOLE_CLIENT_ID = 'app-client';
    expect(consoleSignIn()).toEqual({ signIn: 'token' });
    process.env.CONSOLE_COGNITO_DOMAIN = 'https://tms.auth.eu-west-1.amazoncognito.com/';
    expect(consoleSignIn()).toEqual({ signIn: 'cognito', domain: 'https://tms.auth.eu-west-1.amazoncognito.com', clientId: 'app-client' });
    process.env.CONSOLE_COGNITO_DOMAIN = 'not a url';
    expect(() => consoleSignIn()).toThrow(/CONSOLE_COGNITO_DOMAIN is invalid/);
  });

  it('gives the console’s settings only to a function that needs them, and only where the stack has them', () => {
    // Prepare
    const sources = { queueUrls: {}, console: { cognitoDomain: 'https://d.example.com', clientId: 'c' } } as unknown as SettingSources;
    // Act, Assess
    expect(settingsFor({ table: 'none', console: true }, sources)).toEqual({
      CONSOLE_COGNITO_DOMAIN: 'https://d.example.com',
      CONSOLE_CLIENT_ID: 'c',
    });
    expect(settingsFor({ table: 'none' }, sources)).toEqual({});
    expect(settingsFor({ table: 'none', console: true }, { ...sources, console: undefined })).toEqual({});
  });

  it('carries its script, style and sign-in inline, allows exactly those by hash, and no script can close its element early', () => {
    // Prepare
    const assets = { script: 'console.log("</script><b>")', css: 'body{color:red}' };
    // Act
    const token = consolePage(assets, { signIn: 'token' });
    const cognito = consolePage(assets, { signIn: 'cognito', domain: 'https://tms.auth.eu-west-1.amazoncognito.com', clientId: 'c' });
    // Assess
    const inline = 'console.log("<\\/script><b>")';
    expect(token.html).toContain(`<script type="module">${inline}</script>`);
    expect(token.html).toContain('<script type="application/json" id="console-config">{"signIn":"token"}</script>');
    expect(token.contentSecurityPolicy).toMatchObject({
      'default-src': "'none'",
      'script-src': hashOf(inline),
      'style-src': hashOf(assets.css),
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
    });
    expect(cognito.contentSecurityPolicy['connect-src']).toBe("'self' https://tms.auth.eu-west-1.amazoncognito.com");
  });

  it('allows Facebook’s SDK, frames and calls, and serves the Embedded Signup settings, only where they are configured (issue 55)', () => {
    // Prepare
    const assets = { script: 'x()', css: 'p{}' };
    const config = { appId: '1029384756', configId: '5647382910', graphVersion: 'v24.0' };
    // Act
    const without = consolePage(assets, { signIn: 'token' });
    const withSignup = consolePage(assets, { signIn: 'token' }, config);
    // Assess
    expect(JSON.stringify(without)).not.toContain('facebook');
    expect(without.crossOrigin).toBeUndefined();
    expect(without.contentSecurityPolicy['require-trusted-types-for']).toBeUndefined();
    expect(withSignup.html).toContain(`{"signIn":"token","embeddedSignup":${JSON.stringify(config)}}`);
    expect(withSignup.contentSecurityPolicy).toMatchObject({
      'script-src': `${hashOf('x()')} https://connect.facebook.net`,
      'frame-src': 'https://www.facebook.com https://staticxx.facebook.com',
      'connect-src': "'self' https://www.facebook.com https://connect.facebook.net",
      'require-trusted-types-for': false,
    });
    expect(withSignup.crossOrigin).toEqual({ embedder: 'unsafe-none', opener: 'same-origin-allow-popups' });
  });

  it('gives the console Embedded Signup’s settings only where the stack names a configuration and an app (issue 55)', () => {
    // Prepare
    const sources = { queueUrls: {}, graphAppId: '1029384756', graphApiVersion: 'v23.0' } as unknown as SettingSources;
    // Act, Assess
    expect(settingsFor({ table: 'none', console: true }, sources)).toEqual({});
    expect(settingsFor({ table: 'none', console: true }, { ...sources, embeddedSignupConfigId: '5647382910' })).toEqual({
      EMBEDDED_SIGNUP_CONFIG_ID: '5647382910',
      GRAPH_APP_ID: '1029384756',
      GRAPH_API_VERSION: 'v23.0',
    });
    expect(
      settingsFor({ table: 'none', console: true }, { ...sources, graphAppId: undefined, embeddedSignupConfigId: '5647382910' }),
    ).toEqual({});
  });
});
