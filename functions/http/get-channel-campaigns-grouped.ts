import { directory, templateRecords } from '#lib/deps.ts';
import { groupedAssignments } from '#lib/domain/assignments.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { RecordIdPath } from '#lib/schemas/templates.ts';

export const handler = httpFunction({ path: RecordIdPath }, async ({ path, caller }) => ({
  status: 200,
  body: await groupedAssignments({ directory, records: templateRecords }, caller, path.id),
}));
