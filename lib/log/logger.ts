import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { SERVICE_NAME } from './service.ts';

const options = () => ({
  serviceName: SERVICE_NAME,
  logLevel: (process.env.LOG_LEVEL as 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT' | undefined) ?? 'INFO',
});

/** One structured JSON logger per process; the request id is appended per invocation. */
export const logger = new Logger(options());

/**
 * A logger of one unit of work (a dispatch job) with its own keys: unlike a child of `logger`, it takes none of
 * the keys a request appended, even where requests and workers share a process (the local stack).
 */
export function workLogger(keys: Record<string, string | number>, context?: Context): Logger {
  const log = new Logger({ ...options(), persistentKeys: keys });
  // The invocation's function name, version, memory, cold start and request id on every line.
  if (context) log.addContext(context);
  return log;
}
