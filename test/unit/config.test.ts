import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, dispatchConcurrency, loadConfig } from '#lib/config.ts';

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
});
