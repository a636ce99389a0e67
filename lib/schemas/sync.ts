import * as v from 'valibot';
import { clientIdBody, clientIdParam, count, timestamp } from './common.ts';

export const SyncBody = v.strictObject({ client_id: v.optional(clientIdBody) });

export const SyncStatusQuery = v.object({ client_id: v.optional(clientIdParam) });

export const SyncStartedResponse = v.object({ status: v.literal('started'), message: v.string(), clientId: v.number() });

const SyncProgressShape = v.object({ wabas_done: count, wabas_total: count, pages: count, templates_seen: count, changes: count });
export const SyncStatusResponse = v.object({
  clientId: v.number(),
  state: v.picklist(['running', 'idle']),
  started_at: v.optional(timestamp),
  progress: v.optional(SyncProgressShape),
  last_run: v.optional(
    v.object({
      started_at: timestamp,
      finished_at: timestamp,
      result: v.picklist(['succeeded', 'failed']),
      templates_seen: count,
      changes: count,
      error: v.optional(v.string()),
    }),
  ),
});
