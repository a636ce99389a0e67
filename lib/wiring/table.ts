import { documentClient, type ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { dynamoEndpoint, loadConfig } from '#lib/config.ts';
import { clientPerEndpoint } from './client-per-endpoint.ts';

/** The process's document client (the local stack meters it). */
export const tableClient = clientPerEndpoint(dynamoEndpoint, documentClient);

/**
 * The function's table: one document client per process, made at first use (not at import, so a bundle loads
 * before its settings are read) and reused across invocations; the name from TABLE_NAME.
 */
export function serviceTable(): ServiceTable {
  return {
    get client() {
      return tableClient();
    },
    get name() {
      return loadConfig('TABLE_NAME').TABLE_NAME;
    },
  };
}
