import { changesOfNotification } from '#lib/adapters/meta/webhook-payload.ts';
import { acceptNotification } from '#lib/domain/inbound/meta-notifications.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { metaSignature } from '#lib/http/middlewares/meta-signature.ts';
import { logger } from '#lib/log/logger.ts';
import { ReceiveMetaWebhook } from '#lib/manifest/routes/meta.ts';
import { jobQueue } from '#lib/wiring/queues.ts';

const queue = jobQueue('metaNotifications');

/** Answers as soon as the changes are queued, so Meta never retries a slow request (decisions §13). */
export const handler = httpFunction(
  ReceiveMetaWebhook,
  async ({ rawBody, requestId }) => {
    const { changes, ignored } = changesOfNotification(rawBody ?? '');
    if (ignored.length > 0) logger.info('meta notification fields ignored', { fields: ignored });
    return acceptNotification({ queue, log: logger }, changes, requestId);
  },
  { signature: metaSignature },
);
