/**
 * A process's AWS client, made at first use and reused across invocations; made again if its endpoint setting
 * changes (a benchmark starts one local stack after another in one process).
 */
export function clientPerEndpoint<T>(endpointOf: () => string | undefined, make: (endpoint: string | undefined) => T): () => T {
  let held: { endpoint: string | undefined; client: T } | undefined;
  return () => {
    const endpoint = endpointOf();
    if (!held || held.endpoint !== endpoint) held = { endpoint, client: make(endpoint) };
    return held.client;
  };
}
