/** A client's webhook configuration (spec §11–12, decisions §6). */
export interface WebhookConfig {
  client_id: number;
  url: string;
  active: boolean;
  /** Standard Webhooks signing secret (`whsec_` + base64), made on first configuration (decisions §6). */
  signing_secret: string;
  created_at: string;
  updated_at: string;
}

export const toWebhookView = (config: WebhookConfig) => ({
  client_id: config.client_id,
  url: config.url,
  active: config.active,
  signing_secret: config.signing_secret,
});

export function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}
