import { directory, templateRecords } from '#lib/deps.ts';
import { removeAssignments } from '#lib/domain/assignments.ts';
import { parseClientIdParam } from '#lib/domain/tenancy.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { RecordIdPath, RemoveAssignmentQuery } from '#lib/schemas/templates.ts';

export const handler = httpFunction({ path: RecordIdPath, query: RemoveAssignmentQuery }, async ({ path, query, caller }) => ({
  status: 200,
  body: await removeAssignments({ directory, records: templateRecords }, caller, path.id, {
    client_id: parseClientIdParam(query.client_id),
    channel_id: query.channel_id,
    campaign_id: query.campaign_id,
  }),
}));
