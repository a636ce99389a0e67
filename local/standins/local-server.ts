import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What every server the local stack starts shares (the API, the Graph emulator, the EventBridge and Scheduler
 * stand-ins, the queue journal, the rehearsal's IAM gate): listening on this machine, its URL, and a stop that
 * ends open connections too, so a stop never waits for a client's keep-alive.
 */
export interface LocalServer {
  readonly server: Server;
  readonly url: string;
  stop(): Promise<void>;
}

/** Stops a server now: open connections are closed rather than waited for. */
export async function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Listens on `host`:`port` (0: a free port). */
export async function listenLocally(server: Server, host = '127.0.0.1', port = 0): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { server, url, stop: () => stopServer(server) };
}

/** A handler of a request whose body was read whole (the stand-ins answer whole bodies). */
export type WholeRequestHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => unknown;

/** A server that reads each request whole before `handle` sees it. */
export function wholeRequestServer(handle: WholeRequestHandler): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
}

/** The usual stand-in: `handle` served on this machine, each request read whole. */
export const serveWhole = (handle: WholeRequestHandler, host?: string, port?: number) =>
  listenLocally(wholeRequestServer(handle), host, port);
