import { metaSignature } from '#lib/adapters/meta/webhook-signature.ts';
import { LOCAL_META_APP_SECRET } from '../../local/stack.ts';
import { call } from './api.ts';

/** Meta's `messages` change of one WABA, posted to the webhook route signed with the local stack's app secret. */
export function postMessagesChange(wabaId: string, value: Record<string, unknown>) {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field: 'messages', value }] }],
  });
  return call('POST', '/v1/meta/webhooks', {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, LOCAL_META_APP_SECRET) },
  });
}
