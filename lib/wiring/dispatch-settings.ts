import { type SettingName, type SettingValue, setting, settingDefault } from '#lib/config.ts';
import { type ConfiguredSettings, type DispatchSettings, TUNED_SETTINGS } from '#lib/domain/sends/dispatch/settings.ts';
import { SETTLE_MARGIN_MS } from '#lib/domain/sends/dispatch/tuning.ts';

/**
 * The dispatcher's settings, each default written once: what may be set is lib/config.ts's (its default there),
 * the rest the dispatcher's own table's (lib/domain/sends/dispatch/tuning.ts).
 */

/** Which of lib/config.ts's settings each configured one of the dispatcher's comes from. */
export const CONFIGURED_FROM = {
  messagesPerSecondCap: 'MESSAGES_PER_SECOND',
  safetyMs: 'GRAPH_MESSAGE_TIMEOUT_MS',
  leaseMarginMs: 'DISPATCH_LEASE_MARGIN_MS',
  pausedRecheckMs: 'PAUSED_RECHECK_SECONDS',
} as const satisfies Record<keyof ConfiguredSettings, SettingName>;

type Read = <K extends SettingName>(name: K) => SettingValue<K>;

/** The configured settings as `read` gives lib/config.ts's: each a setting, in the dispatcher's units. */
const configured = (read: Read): ConfiguredSettings => ({
  messagesPerSecondCap: read('MESSAGES_PER_SECOND'),
  // Time to settle what it sent: a message's answer may take its whole timeout.
  safetyMs: read('GRAPH_MESSAGE_TIMEOUT_MS') + SETTLE_MARGIN_MS,
  leaseMarginMs: read('DISPATCH_LEASE_MARGIN_MS'),
  pausedRecheckMs: read('PAUSED_RECHECK_SECONDS') * 1000,
});

/** The dispatcher's settings as this process's environment sets them (the dispatch worker's). */
export const dispatchSettings = (): DispatchSettings => ({ ...TUNED_SETTINGS, ...configured(setting) });

/** The dispatcher's settings with nothing set: every default (tests and the simulation). */
export const DEFAULT_DISPATCH: DispatchSettings = { ...TUNED_SETTINGS, ...configured(settingDefault) };
