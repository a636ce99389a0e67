import { metaWebhookSecrets } from '#lib/adapters/meta/webhook-secrets.ts';
import { subscriptionChallenge } from '#lib/adapters/meta/webhook-signature.ts';
import { Forbidden } from '#lib/domain/shared/errors.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { VerifyMetaWebhook } from '#lib/manifest/routes/meta.ts';

export const handler = httpFunction(VerifyMetaWebhook, async ({ query }) => {
  const challenge = subscriptionChallenge(query, (await metaWebhookSecrets()).verifyToken);
  if (challenge === undefined) throw new Forbidden('Verification refused: wrong mode or verify token');
  return challenge;
});
