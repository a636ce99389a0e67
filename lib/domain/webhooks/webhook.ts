/** A client's webhook configuration (spec §11–12, decisions §6). */
export interface WebhookConfig {
  client_id: number;
  url: string;
  active: boolean;
  /** Standard Webhooks signing secret (`whsec_` + base64), made on first configuration (decisions §6). */
  signing_secret: string;
  /** The secret a rotation replaced, still signing beside the new one until `previous_secret_expires_at` (decisions §15). */
  previous_secret?: string;
  previous_secret_expires_at?: string;
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

/** How long a rotated-out secret keeps signing beside the new one (decisions §15). */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

/** The secrets a delivery is signed with now: the current one, and the one a rotation replaced while it lasts. */
export function signingSecrets(config: WebhookConfig, now: Date): string[] {
  const previous =
    config.previous_secret && config.previous_secret_expires_at && Date.parse(config.previous_secret_expires_at) > now.getTime()
      ? [config.previous_secret]
      : [];
  return [config.signing_secret, ...previous];
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'skipped'];

/** One event's delivery to its client (decisions §15); its id is the event's. */
export interface WebhookDelivery {
  id: string;
  client_id: number;
  event_id: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code?: number;
  last_error?: string;
  next_attempt_at?: string;
  created_at: string;
  delivered_at?: string;
}

/** The delivery changed since it was read (another attempt recorded its outcome first). */
export class DeliveryChanged extends Error {}
