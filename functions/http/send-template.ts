import { idempotent } from '#lib/adapters/dynamo/idempotency.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import type { SendInput } from '#lib/domain/sends/accept/send-rules.ts';
import { actingClient } from '#lib/domain/shared/tenancy.ts';
import { httpFunction, type RouteInput } from '#lib/http/http-function.ts';
import { logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { SendTemplate } from '#lib/manifest/routes/sends.ts';
import { acceptDeps } from '#lib/wiring/send-deps.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = acceptDeps(table);

/** A send with an Idempotency-Key runs once per (acting client, key): its retries get the first answer. */
const sendOnce = idempotent(
  table,
  ({ body, sendId, caller }: { scope: string; key: string; body: { pathDid: string; body: SendInput }; sendId: string; caller: Caller }) =>
    sendTemplate(deps, caller, { ...body, sendId }),
);

export const handler = httpFunction(
  SendTemplate,
  {
    run: async (input) => {
      const accepted = await send(input);
      countMetrics({ SendsAccepted: 1 });
      return accepted;
    },
    dryRun: ({ path, body, caller }) => dryRunSend(deps, caller, { pathDid: path.did, ...body }),
  },
  // The path names a DID only; the records are the lookup's other half.
  { owners: { directory: deps.directory, records: new DynamoTemplateRecords(table) } },
);

function send({ path, body, caller, idempotencyKey, context }: RouteInput<typeof SendTemplate>) {
  const sendId = crypto.randomUUID();
  // The send's id correlates this request with every line its dispatch writes.
  logger.appendKeys({ send_id: sendId, correlation_id: sendId });
  if (idempotencyKey === undefined) return sendTemplate(deps, caller, { pathDid: path.did, body, sendId });
  const scope = String(actingClient(caller, body.client_id));
  return sendOnce({ scope, key: idempotencyKey, body: { pathDid: path.did, body }, sendId, caller }, context);
}
