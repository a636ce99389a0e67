import { Logger } from '@aws-lambda-powertools/logger';
import { handler as baseline } from './baseline-function.ts';

/**
 * The baseline plus Powertools Logger, which every function of the service uses: the logger imports
 * node:console and node:crypto, a fixed cost no function can avoid while it logs with Powertools.
 */
const logger = new Logger({ serviceName: 'baseline' });

export const handler = async (event: unknown, context: never) => {
  logger.info('baseline');
  return baseline(event, context);
};
