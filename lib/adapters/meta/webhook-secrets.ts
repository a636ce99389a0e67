import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { metaWebhookSettings } from '#lib/config.ts';

/** The Meta app's webhook settings (decisions §13): the app secret that signs notifications, the verify token. */
export interface MetaWebhookSecrets {
  appSecret: string;
  verifyToken: string;
}

/**
 * Locally META_APP_SECRET and META_VERIFY_TOKEN hold them. In AWS one Secrets Manager secret
 * (META_WEBHOOK_SECRET names it) holds `{"app_secret": …, "verify_token": …}`, read through Powertools
 * Parameters and cached five minutes. Neither value ever reaches a log.
 */
export async function metaWebhookSecrets(): Promise<MetaWebhookSecrets> {
  const { META_APP_SECRET: appSecret, META_VERIFY_TOKEN: verifyToken, META_WEBHOOK_SECRET: secretName } = metaWebhookSettings();
  if (appSecret && verifyToken) return { appSecret, verifyToken };
  if (!secretName) throw new Error('Configuration error: META_APP_SECRET and META_VERIFY_TOKEN, or META_WEBHOOK_SECRET, must be set');
  const value = await getSecret<{ app_secret?: unknown; verify_token?: unknown }>(secretName, { maxAge: 300, transform: 'json' });
  if (typeof value?.app_secret !== 'string' || typeof value.verify_token !== 'string' || !value.app_secret || !value.verify_token) {
    throw new Error('Configuration error: the Meta webhook secret must hold app_secret and verify_token');
  }
  return { appSecret: value.app_secret, verifyToken: value.verify_token };
}
