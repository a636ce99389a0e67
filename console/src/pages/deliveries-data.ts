/** The webhook deliveries page's words, without a browser (issue 45; decisions §15). */

import type { Delivery } from '../answers.ts';

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
