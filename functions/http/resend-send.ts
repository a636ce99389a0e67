import { idempotent } from '#lib/adapters/dynamo/idempotency.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { dryRunResend, type ResendWhich, resendSend } from '#lib/domain/sends/accept/resend.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { ResendSend } from '#lib/manifest/routes/sends.ts';
import { sendStores } from '#lib/wiring/sending.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';

const table = serviceTable();
const stores = sendStores(table);

type Resend = { sendId: string; which: ResendWhich };

/** A resend with an Idempotency-Key runs once per (caller's client, key): its retries get the first send. */
const resendOnce = idempotent(
  table,
  ({ body, newSendId, caller }: { scope: string; key: string; body: Resend; newSendId: string; caller: Caller }) =>
    resendSend({ ...stores, upstream: graphUpstream(), currencies: graphUpstream(), marketing: graphUpstream() }, caller, {
      ...body,
      newSendId,
    }),
);

export const handler = httpFunction(ResendSend, {
  run: async ({ path, body, caller, idempotencyKey, context }) => {
    const newSendId = crypto.randomUUID();
    logger.appendKeys({ send_id: newSendId, correlation_id: newSendId });
    const request = { sendId: path.send_id, which: body.which };
    const accepted =
      idempotencyKey === undefined
        ? await resendSend({ ...stores, upstream: graphUpstream(), currencies: graphUpstream(), marketing: graphUpstream() }, caller, {
            ...request,
            newSendId,
          })
        : await resendOnce({ scope: String(caller.clientId), key: idempotencyKey, body: request, newSendId, caller }, context);
    countMetrics({ SendsAccepted: 1 });
    return accepted;
  },
  dryRun: ({ path, body, caller }) =>
    dryRunResend({ ...stores, upstream: graphUpstream(), currencies: graphUpstream(), marketing: graphUpstream() }, caller, {
      sendId: path.send_id,
      which: body.which,
    }),
});
