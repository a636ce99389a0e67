import { directory, graph, syncLeases, syncQueue } from '#lib/deps.ts';
import { startSync } from '#lib/domain/sync.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { SyncBody } from '#lib/schemas/sync.ts';

export const handler = httpFunction({ body: SyncBody, bodyOptional: true }, async ({ body, caller }) => ({
  status: 200,
  body: await startSync({ directory, leases: syncLeases, queue: syncQueue, upstream: graph() }, caller, body),
}));
