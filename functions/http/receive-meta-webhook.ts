import { keyedStatuses } from '#lib/adapters/meta/status-keys.ts';
import { changesOfNotification } from '#lib/adapters/meta/webhook-payload.ts';
import { acceptNotification } from '#lib/domain/inbound/meta-notifications.ts';
import { withFunctionUrl } from '#lib/http/function-url.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { metaSignature } from '#lib/http/middlewares/meta-signature.ts';
import { logger } from '#lib/log/logger.ts';
import { ReceiveMetaWebhook, VerifyMetaWebhook } from '#lib/manifest/routes/meta.ts';
import { jobQueue } from '#lib/wiring/queues.ts';
import { statusStream } from '#lib/wiring/streams.ts';
import { handler as verify } from './verify-meta-webhook.ts';

const queue = jobQueue('metaNotifications');
const statuses = statusStream();

/**
 * Answers as soon as the changes are kept, so Meta never retries a slow request (decisions §13): message statuses
 * on the statuses' stream, the other changes queued (issue 54).
 */
const receive = httpFunction(
  ReceiveMetaWebhook,
  async ({ rawBody, requestId }) => {
    const { changes, ignored } = changesOfNotification(rawBody ?? '');
    if (ignored.length > 0) logger.info('meta notification fields ignored', { fields: ignored });
    return acceptNotification({ queue, statuses, log: logger }, keyedStatuses(changes), requestId);
  },
  { signature: metaSignature },
);

/** The HTTP API's route, and the function URL Meta calls, where the handshake is answered too (issue 54). */
export const handler = withFunctionUrl(ReceiveMetaWebhook, { [ReceiveMetaWebhook.name]: receive, [VerifyMetaWebhook.name]: verify });
