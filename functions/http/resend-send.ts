import { idempotent } from '#lib/adapters/dynamo/idempotency.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { dryRunResend, type ResendWhich, resendSend } from '#lib/domain/sends/accept/resend.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { ResendSend } from '#lib/manifest/routes/sends.ts';
import { acceptDeps } from '#lib/wiring/send-deps.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const deps = acceptDeps(table);

type Resend = { sendId: string; which: ResendWhich };

/** A resend with an Idempotency-Key runs once per (caller's client, key): its retries get the first send. */
const resendOnce = idempotent(
  table,
  ({ body, newSendId, caller }: { scope: string; key: string; body: Resend; newSendId: string; caller: Caller }) =>
    resendSend(deps, caller, { ...body, newSendId }),
);

export const handler = httpFunction(ResendSend, {
  run: async ({ path, body, caller, idempotencyKey, context }) => {
    const newSendId = crypto.randomUUID();
    logger.appendKeys({ send_id: newSendId, correlation_id: newSendId });
    const request = { sendId: path.send_id, which: body.which };
    const accepted =
      idempotencyKey === undefined
        ? await resendSend(deps, caller, { ...request, newSendId })
        : await resendOnce({ scope: String(caller.clientId), key: idempotencyKey, body: request, newSendId, caller }, context);
    countMetrics({ SendsAccepted: 1 });
    return accepted;
  },
  dryRun: ({ path, body, caller }) => dryRunResend(deps, caller, { sendId: path.send_id, which: body.which }),
});
