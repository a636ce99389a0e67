import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphEmulator } from './emulator.ts';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Serves the emulator over HTTP on this machine; resolves with its URL and a stop function. */
export async function startGraphServer(
  emulator: GraphEmulator,
  port = 0,
  host = '127.0.0.1',
): Promise<{ url: string; stop(): Promise<void> }> {
  let url = '';
  const server: Server = createServer(async (req, res) => {
    try {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
      const answer = await emulator.answer(req.method ?? 'GET', new URL(req.url ?? '/', url), headers, await readBody(req));
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    } catch {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'emulator failure', code: 1 } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
