import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { SERVICE_NAME } from './service.ts';

type LogLevel = 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT';

// The logger's own settings are read here (the one other place besides lib/config.ts that reads the environment).
const options = () => ({ serviceName: SERVICE_NAME, logLevel: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'INFO' });

/** The process's logger: lines written outside any invocation (a cold start's, the local stack's own). */
const processLogger = new Logger(options());

/**
 * Each invocation's own logger. Lambda runs one invocation at a time per process, but the local stack runs
 * many handlers at once in one process (decisions §21): a process-wide logger would print one request's
 * function, request id and keys on another's lines. An AsyncLocalStorage scope keeps them apart in both.
 */
const invocations = new AsyncLocalStorage<Logger>();

/**
 * The logger of the invocation running now (its function, request and keys), else the process's. Modules
 * import this one name and get the right logger at each call.
 */
export const logger: Logger = new Proxy(processLogger, {
  get(target, key) {
    const current = invocations.getStore() ?? target;
    const value = Reflect.get(current, key, current);
    return typeof value === 'function' ? value.bind(current) : value;
  },
});

/**
 * Runs one invocation with a logger of its own: the Lambda context (function name, version, cold start,
 * request id) and `keys` on each of its lines, none of another invocation's.
 */
export function inInvocation<T>(context: Partial<Context> | undefined, keys: Record<string, string | number>, run: () => T): T {
  const log = new Logger({ ...options(), persistentKeys: keys });
  if (context?.functionName) log.addContext(context as Context);
  return invocations.run(log, run);
}

/**
 * A logger of one unit of work (a dispatch job, a delivery) with its own keys: unlike a child of `logger`, it
 * takes none of the keys a request appended.
 */
export function workLogger(keys: Record<string, string | number>, context?: Context): Logger {
  const log = new Logger({ ...options(), persistentKeys: keys });
  // The invocation's function name, version, memory, cold start and request id on every line.
  if (context) log.addContext(context);
  return log;
}
