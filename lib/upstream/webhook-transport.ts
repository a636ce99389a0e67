import { request } from 'node:https';
import type { WebhookTransport } from '#lib/domain/webhook-delivery.ts';
import { guardedLookup } from './guarded-https.ts';

/** POSTs a webhook over HTTPS to public addresses only, with a deadline; no redirects are followed. */
export const httpsWebhookTransport: WebhookTransport = {
  post: (url, headers, body) =>
    new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup, timeout: 10_000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('timeout', () => req.destroy(new Error('webhook timed out')));
      req.on('error', reject);
      req.end(body);
    }),
};
