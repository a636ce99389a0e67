import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger per process; the request id is appended per invocation. */
export const logger = new Logger({
  serviceName: 'template-messaging-service',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT' | undefined) ?? 'INFO',
});
