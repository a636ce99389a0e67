import { afterEach, describe, expect, it } from 'vitest';
import { settingDefault } from '#lib/config.ts';
import { TUNED_SETTINGS } from '#lib/domain/sends/dispatch/settings.ts';
import { SETTLE_MARGIN_MS } from '#lib/domain/sends/dispatch/tuning.ts';
import { CONFIGURED_FROM, DEFAULT_DISPATCH, dispatchSettings } from '#lib/wiring/dispatch-settings.ts';

/** The dispatcher's settings (issue 44): each default written once, in the dispatcher's table or in lib/config.ts. */
describe('the dispatcher’s settings', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('take each setting from one place, never two: the dispatcher’s own table or lib/config.ts', () => {
    // Prepare
    const tuned = Object.keys(TUNED_SETTINGS);
    const configured = Object.keys(CONFIGURED_FROM);
    // Act
    const both = tuned.filter((name) => configured.includes(name));
    // Assess
    expect(tuned.length).toBeGreaterThan(0);
    expect(both).toEqual([]);
    expect([...tuned, ...configured].sort()).toEqual(Object.keys(DEFAULT_DISPATCH).sort());
  });

  it('default what may be set to lib/config.ts’s defaults, in the dispatcher’s units', () => {
    // Prepare
    for (const name of Object.values(CONFIGURED_FROM)) delete process.env[name];
    // Act
    const read = dispatchSettings();
    // Assess
    const expected = {
      messagesPerSecondCap: settingDefault('MESSAGES_PER_SECOND'),
      safetyMs: settingDefault('GRAPH_MESSAGE_TIMEOUT_MS') + SETTLE_MARGIN_MS,
      leaseMarginMs: settingDefault('DISPATCH_LEASE_MARGIN_MS'),
      pausedRecheckMs: settingDefault('PAUSED_RECHECK_SECONDS') * 1000,
    };
    expect(DEFAULT_DISPATCH).toEqual({ ...TUNED_SETTINGS, ...expected });
    expect(read).toEqual(DEFAULT_DISPATCH);
  });

  it('read what the environment sets', () => {
    // Prepare
    Object.assign(process.env, {
      MESSAGES_PER_SECOND: '20',
      GRAPH_MESSAGE_TIMEOUT_MS: '3000',
      DISPATCH_LEASE_MARGIN_MS: '2000',
      PAUSED_RECHECK_SECONDS: '2',
    });
    // Act
    const read = dispatchSettings();
    // Assess
    expect(read).toEqual({
      ...TUNED_SETTINGS,
      messagesPerSecondCap: 20,
      safetyMs: 3000 + SETTLE_MARGIN_MS,
      leaseMarginMs: 2000,
      pausedRecheckMs: 2000,
    });
  });
});
