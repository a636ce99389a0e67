import { directory, templateRecords } from '#lib/deps.ts';
import { replaceAssignments } from '#lib/domain/assignments.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { AssignmentBody, RecordIdPath } from '#lib/schemas/templates.ts';

export const handler = httpFunction({ path: RecordIdPath, body: AssignmentBody }, async ({ path, body, caller }) => ({
  status: 200,
  body: await replaceAssignments({ directory, records: templateRecords }, caller, path.id, body),
}));
