import { metaWebhookSecrets } from '#lib/adapters/meta/webhook-secrets.ts';
import { isSignedByMeta } from '#lib/adapters/meta/webhook-signature.ts';
import { ApiError, payloadTooLarge } from '../api-error.ts';
import type { HttpMiddleware, HttpRequest } from '../context.ts';

/** Meta's notifications are small; anything larger is refused before it is hashed. */
export const MAX_NOTIFICATION_BYTES = 1024 * 1024;

/**
 * Routes Meta calls (decisions §13): the body must carry Meta's signature, checked over the raw bytes before
 * anything parses them; otherwise 401 and nothing happens. The verified body is handed on as text.
 */
export const metaSignature = (): HttpMiddleware => ({
  before: async (request: HttpRequest) => {
    const { body, isBase64Encoded, headers } = request.event;
    const raw = body === undefined ? Buffer.alloc(0) : Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8');
    if (raw.length > MAX_NOTIFICATION_BYTES) throw payloadTooLarge(`Notification exceeds ${MAX_NOTIFICATION_BYTES} bytes`);
    const { appSecret } = await metaWebhookSecrets();
    if (!isSignedByMeta(raw, headers?.['x-hub-signature-256'], appSecret)) {
      throw new ApiError(401, 'unauthorized', 'Missing or invalid X-Hub-Signature-256');
    }
    request.context.rawBody = raw.toString('utf8');
  },
});
