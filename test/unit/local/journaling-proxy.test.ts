import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, listenLocally } from '../../../local/standins/local-server.ts';
import { serveJournaling } from '../../../local/standins/whole-proxy.ts';

/** A server behind the proxy: it answers each call with its own address in the text, as SQS names its queues. */
let behind: LocalServer;
beforeAll(async () => {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/refused' ? 400 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ QueueUrl: `${behind.url}/queue/a` }));
  });
  behind = await listenLocally(server);
});
afterAll(() => behind.stop());

const FAILURE = { contentType: 'application/x-amz-json-1.0', type: 'InternalError' };

async function call(proxy: LocalServer, path = '/') {
  const answer = await fetch(`${proxy.url}${path}`, {
    method: 'POST',
    headers: { 'x-amz-target': 'AmazonSQS.SendMessage' },
    body: '{"a":1}',
  });
  return { status: answer.status, body: await answer.json().catch(() => undefined) };
}

describe('the journals’ proxy (local stack, decisions §16)', () => {
  it('records an accepted call, with its target and body, before answering it as rewritten', async () => {
    // Prepare
    const recorded: string[] = [];
    const proxy = await serveJournaling(behind.url, '127.0.0.1', {
      rewrite: (text) => text.replaceAll(behind.url, 'http://proxy'),
      record: async (target, body, answer) => void recorded.push(`${target} ${body} ${answer}`),
      failure: FAILURE,
    });
    // Act
    const accepted = await call(proxy);
    const refused = await call(proxy, '/refused');
    await proxy.stop();
    // Assess: the refused call is answered as the server did and not recorded
    expect(accepted).toEqual({ status: 200, body: { QueueUrl: 'http://proxy/queue/a' } });
    expect(refused.status).toBe(400);
    expect(recorded).toEqual(['AmazonSQS.SendMessage {"a":1} {"QueueUrl":"http://proxy/queue/a"}']);
  });

  it('answers an error in the protocol’s shape when the record fails, and 502 when the server is gone', async () => {
    // Prepare
    const proxy = await serveJournaling(behind.url, '127.0.0.1', {
      record: async () => {
        throw new Error('disk full');
      },
      failure: FAILURE,
    });
    const orphan = await serveJournaling('http://127.0.0.1:9', '127.0.0.1', { record: async () => {}, failure: FAILURE });
    // Act
    const failed = await call(proxy);
    const unreachable = await call(orphan);
    await Promise.all([proxy.stop(), orphan.stop()]);
    // Assess
    expect(failed).toEqual({ status: 500, body: { __type: 'InternalError', message: 'journal write failed' } });
    expect(unreachable.status).toBe(502);
  });
});
