/**
 * The structured log a use case writes to: a message and fields, never a secret. Powertools' Logger
 * satisfies it; tests pass a silent or recording one.
 */
export interface Log {
  debug(message: string, fields: Record<string, unknown>): void;
  info(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
  error(message: string, fields: Record<string, unknown>): void;
}

export const silentLog: Log = { debug() {}, info() {}, warn() {}, error() {} };
