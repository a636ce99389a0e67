import { documentClient, type ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { dynamoEndpoint, loadConfig } from '#lib/config.ts';

let client: { endpoint: string | undefined; documents: ReturnType<typeof documentClient> } | undefined;

/**
 * The process's document client, made at first use and reused across invocations (the local stack meters it);
 * made again if the endpoint setting changes (a benchmark starts one local stack after another in one process).
 */
export const tableClient = () => {
  const endpoint = dynamoEndpoint();
  if (!client || client.endpoint !== endpoint) client = { endpoint, documents: documentClient(endpoint) };
  return client.documents;
};

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
