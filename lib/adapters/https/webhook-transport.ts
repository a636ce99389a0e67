import { type ClientRequest, request as httpRequest } from 'node:http';
import { type RequestOptions, request } from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { WebhookSender } from '#lib/domain/webhooks/webhook-delivery.ts';
import { guardConnectedAddress, guardedLookup } from './guarded-https.ts';

export type HttpsPost = (url: URL, headers: Record<string, string>, body: string) => Promise<number>;

/** One POST with a deadline and no redirects followed: resolves with the status, the answer's body discarded. */
function postWith(send: typeof request, guard: (req: ClientRequest) => ClientRequest, extra: RequestOptions): HttpsPost {
  return (url, headers, body) =>
    new Promise((resolve, reject) => {
      const req = guard(
        send(
          url,
          { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: 10_000, ...extra },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        ),
      );
      req.on('timeout', () => req.destroy(new Error('webhook timed out')));
      req.on('error', reject);
      req.end(body);
    });
}

/** POSTs over HTTPS to public addresses only (checked at lookup and again at connect time). */
export const guardedHttpsPost: HttpsPost = postWith(request, guardConnectedAddress, { lookup: guardedLookup });

/**
 * POSTs to a local receiver (`http://127.0.0.1:<port>/`, decisions §15) without the address guard: only the
 * local stack, with ALLOW_LOCAL_WEBHOOKS, ever hands such a URL over.
 */
export const localHttpPost: HttpsPost = postWith(httpRequest as unknown as typeof request, (req) => req, {});

/**
 * Webhooks signed the Standard Webhooks way (decisions §6): `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature` `v1,<base64 HMAC-SHA256>` over `id.timestamp.body`, one per secret, space-separated
 * (decisions §15: both while a rotated-out secret lasts). The correlation id rides as `x-correlation-id`.
 * HTTPS URLs go through the guarded transport; `http:` ones (local receivers) through `local`, when given.
 */
export function standardWebhookSender(post: HttpsPost = guardedHttpsPost, local?: HttpsPost): WebhookSender {
  return {
    send: (url, secrets, message) => {
      const transport = url.protocol === 'https:' ? post : local;
      if (!transport) return Promise.reject(new Error('only HTTPS receivers are called'));
      return transport(
        url,
        {
          'content-type': 'application/json',
          'user-agent': 'template-messaging-service/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
          'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(message.id, message.timestamp, message.body)).join(' '),
          ...(message.correlationId && { 'x-correlation-id': message.correlationId }),
        },
        message.body,
      );
    },
  };
}
