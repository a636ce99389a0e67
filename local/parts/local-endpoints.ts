import type { IncomingMessage, ServerResponse } from 'node:http';
import { dynamo } from '#lib/adapters/dynamo/client.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/outbox-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { relayOutbox } from '#lib/domain/outbox.ts';
import { logger } from '#lib/log/logger.ts';
import { currentRequest } from '../api-server.ts';
import type { LocalEventBridge } from '../eventbridge.ts';
import { publicJwks } from '../keys.ts';

/**
 * Counts the DynamoDB operations of each API request, so tests can check which operations a request made
 * (`GET /_local/requests/{request id}/dynamodb`).
 */
function countDynamoOperations(): Map<string, string[]> {
  const operations = new Map<string, string[]>();
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const requestId = currentRequest.getStore()?.requestId;
      if (requestId) {
        const list = operations.get(requestId) ?? [];
        list.push(String(context.commandName).replace(/Command$/, ''));
        operations.set(requestId, list);
        if (operations.size > 10_000) operations.delete(operations.keys().next().value ?? '');
      }
      return next(args);
    },
    { step: 'initialize', name: 'localOperationCounter' },
  );
  return operations;
}

/**
 * Endpoints the local API serves besides the manifest's (never deployed): the JWKS the handlers verify
 * tokens against, and inspection and fault controls for tests and people.
 */
export async function localEndpoints(eventBridge: LocalEventBridge) {
  const jwks = JSON.stringify(await publicJwks());
  const operations = countDynamoOperations();
  return async (req: IncomingMessage, url: URL, body: Buffer, res: ServerResponse): Promise<boolean> => {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof value === 'string' ? value : JSON.stringify(value));
      return true;
    };
    if (req.method === 'GET' && url.pathname === '/.well-known/jwks.json') return json(200, jwks);
    if (req.method === 'GET' && url.pathname === '/_local/events') return json(200, { routed: eventBridge.routed });
    if (req.method === 'POST' && url.pathname === '/_local/eventbridge/faults') {
      const fault = JSON.parse(body.toString() || '{}') as { times?: number; match?: string };
      eventBridge.failNext(Number(fault.times ?? 1), fault.match);
      return json(200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/_local/relay-outbox') {
      const relay = { outbox: new DynamoOutboxStore(), publisher: new EventBridgePublisher(), log: logger };
      return json(200, { relayed: await relayOutbox(relay, Number(url.searchParams.get('graceMs') ?? 60_000)) });
    }
    const ops = /^\/_local\/requests\/([^/]+)\/dynamodb$/.exec(url.pathname);
    if (req.method === 'GET' && ops) return json(200, { operations: operations.get(ops[1]) ?? [] });
    return false;
  };
}
