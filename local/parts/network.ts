import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
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

/**
 * Whether process `pid` holds the socket listening on `port`, read from Linux's /proc (undefined where there is
 * none). A child that could not take its port may not have exited yet when another process answers there.
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  if (!existsSync('/proc/net/tcp')) return undefined;
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const listening = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is <address>:<port>, state 0A is LISTEN, the inode is the tenth field
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A') listening.add(fields[9]);
    }
  }
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return listening.has(readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/)?.[1] ?? '');
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
