import { createServer, type Server } from 'node:net';

/** A port free on this host right now. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server: Server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Retries `check` until it succeeds or the time is up. */
export async function waitFor(what: string, check: () => Promise<unknown>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not start: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** A part of the local stack that has started: how to stop it. */
export type Stop = () => Promise<void> | void;
