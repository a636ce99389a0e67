import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A client's webhook receiver on 127.0.0.1 (the local stack allows it, decisions §15): keeps every event body it
 * is sent, in order, and answers 204.
 */
export async function eventReceiver<E>() {
  const events: E[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as E);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    events,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The types of a send's events in the order they happened (`occurred_at`): webhooks may arrive in another (decisions §15). */
export const sendEventTypes = (events: { type: string; occurred_at: string; data: { send_id: string } }[], sendId: string) =>
  events
    .filter((e) => e.data.send_id === sendId)
    .sort((a, b) => a.occurred_at.localeCompare(b.occurred_at))
    .map((e) => e.type);
