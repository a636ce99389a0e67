import * as v from 'valibot';
import { ReceiveMetaResponse, VerifyMetaQuery } from '#lib/schemas/meta-webhooks.ts';
import type { RouteDef } from '../route.ts';

// Meta's webhooks: the subscription handshake and its notifications (decisions §13).

export const VerifyMetaWebhook = {
  name: 'VerifyMetaWebhook',
  method: 'GET',
  path: '/v1/meta/webhooks',
  entry: 'functions/http/verify-meta-webhook.ts',
  summary: 'Meta’s verification handshake: the challenge back, as text, for the configured verify token',
  success: 200,
  produces: 'text/plain',
  response: v.string(),
  sample: {
    query: { 'hub.mode': 'subscribe', 'hub.challenge': '4711', 'hub.verify_token': '{{meta-verify-token}}' },
    expect: 200,
  },
  auth: false,
  publicBecause: "Meta's handshake: answers only the configured verify token, and reads nothing else.",
  request: { query: VerifyMetaQuery, invalidMessage: 'Invalid verification request' },
  errors: [400, 403],
  needs: { table: 'none', metaApp: true },
} satisfies RouteDef;

export const ReceiveMetaWebhook = {
  name: 'ReceiveMetaWebhook',
  method: 'POST',
  path: '/v1/meta/webhooks',
  entry: 'functions/http/receive-meta-webhook.ts',
  summary: 'Meta’s notifications (template reviews, categories, quality, message statuses), signed; queued and applied by a worker',
  success: 200,
  response: ReceiveMetaResponse,
  sample: {
    signedByMeta: true,
    body: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100200300',
          time: 1767225600,
          changes: [
            {
              field: 'message_template_quality_update',
              value: { previous_quality_score: 'UNKNOWN', new_quality_score: 'GREEN', message_template_id: 9001 },
            },
          ],
        },
      ],
    },
    expect: 200,
  },
  auth: false,
  publicBecause: 'Meta calls it without a token; every body must carry a valid X-Hub-Signature-256 of the app secret.',
  request: { signedBy: 'meta' },
  errors: [400, 413],
  // Message statuses on the statuses' stream, the other notifications on the queue (issue 54).
  needs: { table: 'none', metaApp: true, queues: ['metaNotifications'], streams: ['metaStatuses'] },
  // What Meta calls: its function's URL, where the same function answers the handshake too (issue 54: 300,000
  // statuses a second at 100 HIGH numbers, 30 times API Gateway's account quota; docs/high-tier.md §3).
  functionUrl: { alsoServes: [VerifyMetaWebhook] },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const metaRoutes: RouteDef[] = [VerifyMetaWebhook, ReceiveMetaWebhook];
