import { type LocalServer, serveWhole } from '../local-server.ts';
import type { GraphEmulator } from './emulator.ts';

/** Serves the emulator over HTTP on this machine; resolves with its URL and a stop function. */
export async function startGraphServer(emulator: GraphEmulator, port = 0, host = '127.0.0.1'): Promise<LocalServer> {
  let url = '';
  const local = await serveWhole(
    async (req, res, body) => {
      try {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
        const answer = await emulator.answer(req.method ?? 'GET', new URL(req.url ?? '/', url), headers, body);
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      } catch {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'emulator failure', code: 1 } }));
      }
    },
    host,
    port,
  );
  url = local.url;
  return local;
}
