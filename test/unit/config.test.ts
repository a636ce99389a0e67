import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, consoleSignInSettings, dispatchConcurrency, loadConfig } from '#lib/config.ts';
import { type SettingSources, settingsFor } from '#lib/manifest/needs.ts';

describe('configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('names every missing or invalid setting in one error', () => {
    delete process.env.JWT_AUDIENCE;
    process.env.JWKS_URL = 'not a url';
    expect(() => loadConfig('JWT_AUDIENCE', 'JWKS_URL')).toThrow(ConfigurationError);
    expect(() => loadConfig('JWT_AUDIENCE', 'JWKS_URL')).toThrow(/JWT_AUDIENCE is not set; JWKS_URL is invalid/);
  });

  it('returns the settings asked for', () => {
    process.env.EVENT_BUS_NAME = 'bus';
    expect(loadConfig('EVENT_BUS_NAME')).toEqual({ EVENT_BUS_NAME: 'bus' });
  });

  it('reads the dispatcher’s concurrency: 100 unset, a whole number of invocations in [2, 1000] otherwise', () => {
    // Prepare, Act, Assess
    delete process.env.DISPATCH_CONCURRENCY;
    expect(dispatchConcurrency()).toBe(100);
    process.env.DISPATCH_CONCURRENCY = '250';
    expect(dispatchConcurrency()).toBe(250);
    for (const wrong of ['1', '1001', '12.5', 'ten']) {
      process.env.DISPATCH_CONCURRENCY = wrong;
      expect(() => dispatchConcurrency(), wrong).toThrow(/DISPATCH_CONCURRENCY/);
    }
  });

  it('gives the console’s Cognito sign-in to a function that needs it, where the stack has one; unset, token sign-in (issue 45)', () => {
    // Prepare
    const sources = {
      tableName: 't',
      graphApiUrl: 'https://graph.example',
      graphToken: { token: 'x' },
      metaApp: { appSecret: 'a', verifyToken: 'v' },
      eventBusName: 'bus',
      queueUrls: {},
      schedules: { group: 'g', queueArn: 'q', roleArn: 'r' },
    } as unknown as SettingSources;
    const cognito = { ...sources, console: { cognitoDomain: 'https://tms-1.auth.eu-west-1.amazoncognito.com', clientId: 'c1' } };
    // Act, Assess
    expect(settingsFor({ table: 'none', console: true }, cognito)).toEqual({
      CONSOLE_COGNITO_DOMAIN: 'https://tms-1.auth.eu-west-1.amazoncognito.com',
      CONSOLE_CLIENT_ID: 'c1',
    });
    expect(settingsFor({ table: 'none' }, cognito)).toEqual({});
    expect(settingsFor({ table: 'none', console: true }, sources)).toEqual({});
    delete process.env.CONSOLE_COGNITO_DOMAIN;
    delete process.env.CONSOLE_CLIENT_ID;
    expect(consoleSignInSettings()).toEqual({ CONSOLE_COGNITO_DOMAIN: undefined, CONSOLE_CLIENT_ID: undefined });
    process.env.CONSOLE_COGNITO_DOMAIN = 'not a url';
    expect(() => consoleSignInSettings()).toThrow(/CONSOLE_COGNITO_DOMAIN is invalid/);
  });
});
