/** The webhook deliveries page's words, without a browser (issue 45; decisions §15). */

/** A delivery of `GET /v1/webhook/deliveries` (lib/schemas/webhook.ts). */
export interface Delivery {
  id: string;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  last_status_code?: number;
  last_error?: string;
  next_attempt_at?: string;
  created_at: string;
  delivered_at?: string;
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;

/** A delivery's outcome in words. */
export const STATUS_WORDS: Record<Delivery['status'], string> = {
  pending: 'Pending: being tried again',
  delivered: 'Delivered',
  failed: 'Failed: given up after its last retry',
  skipped: 'Skipped: no active webhook configuration',
};

/** The receiver's last answer in words: its HTTP status, its error, or nothing yet. */
export function lastAnswer(delivery: Pick<Delivery, 'last_status_code' | 'last_error' | 'attempts'>): string {
  if (delivery.attempts === 0) return 'Not tried yet';
  const parts = [delivery.last_status_code ? `HTTP ${delivery.last_status_code}` : undefined, delivery.last_error].filter(Boolean);
  return parts.length > 0 ? parts.join(': ') : 'No answer recorded';
}
