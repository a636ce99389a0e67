import { createServer, type Server } from 'node:net';

/**
 * Ports handed out below Linux's ephemeral range (32768–60999): a port chosen now is bound a few seconds later
 * (DynamoDB Local's JVM takes that long), and in between the kernel may give a port of its ephemeral range to
 * any outgoing connection or `listen(0)` of this machine. With several stacks at once (the test suite's), one
 * did: a stack failed with EADDRINUSE, or talked to another stack's DynamoDB Local.
 */
const PORTS = { from: 20_000, to: 32_000 };

/** A port free on this host right now, outside the kernel's ephemeral range. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let tries = 0; ; tries++) {
    const port = PORTS.from + Math.floor(Math.random() * (PORTS.to - PORTS.from));
    if (await canListen(port, host)) return port;
    if (tries > 200) throw new Error(`no free port in ${PORTS.from}–${PORTS.to}`);
  }
}

function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server: Server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
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
