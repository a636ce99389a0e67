/**
 * When a message request left the service (epoch ms), on every Cloud API send to the local emulator: the
 * dispatcher's pace as it made it (issue 32). The emulator shares this process with the dispatcher, so its
 * accept times also hold the process's own stalls (requests that left on time, handled together); the stamp
 * does not. Local only: the deployed functions never carry it.
 */
export const LAUNCH_HEADER = 'x-local-launched-at';

const stamped = new Set<string>();
let original: typeof fetch | undefined;

/** Stamps the launches to this emulator's messages edge until the returned stop. */
export function stampLaunches(graphUrl: string): () => Promise<void> {
  stamped.add(graphUrl);
  if (!original) {
    const unstamped = globalThis.fetch;
    original = unstamped;
    globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (init?.method === 'POST' && url.endsWith('/messages') && [...stamped].some((base) => url.startsWith(base))) {
        const headers = new Headers(init.headers);
        headers.set(LAUNCH_HEADER, String(Date.now()));
        return unstamped(input, { ...init, headers });
      }
      return unstamped(input, init);
    }) as typeof fetch;
  }
  return async () => {
    stamped.delete(graphUrl);
  };
}
