import type { Person } from '../person.ts';
import type { SendReservation } from '../pricing/reservation.ts';

/**
 * A dispatch job: one part of an accepted send, as it travels on the `template-dispatch` queue (docs/dispatch-jobs.md).
 * The send use case makes them; the dispatcher (./dispatcher.ts), or any other engine, consumes them.
 */
/** A recipient's values (spec §1), and the send's header: as the caller gave them. */
export interface ProductAction {
  type: 'action';
  action: { thumbnailProductRetailerId: string; sections?: { title: string; product_items: { product_retailer_id: string }[] }[] };
}

export interface RecipientParams {
  header?: string[];
  body?: string[];
  buttons?: string[];
  products?: ProductAction[];
  cards?: { body?: string[]; buttons?: string[] }[];
}

export type SendHeader =
  | { type: 'image_url' | 'video_url' | 'document_url'; value: string; filename?: string }
  | { type: 'location'; location: { latitude: string; longitude: string; name: string; address: string } };

export interface JobRecipient {
  /** A phone number, a BSUID (`user_id`), or both (decisions §28): Meta sends to `to` when both are given. */
  to?: string;
  user_id?: string;
  params?: RecipientParams;
  /**
   * Set on a repeat of an earlier position of the send (same digits, decisions §12): its first position. The
   * send removes repeats when it accepts the recipients; a repeat travels without its values and is never sent.
   */
  duplicate_of?: number;
  /**
   * Set on a recipient of a MARKETING send who is on the client's suppression list (decisions §25): found when
   * the send was accepted and counted then; it travels without its values and is never sent.
   */
  suppressed?: true;
}

export interface DispatchJob {
  send_id: string;
  client_id: number;
  did: string;
  waba_id: string;
  /** The sending number at the upstream (Cloud API `POST /{phone_number_id}/messages`); a DID without one cannot send. */
  phone_number_id?: string;
  namespace?: string;
  channel: 'MSGCHAN';
  /** The template as resolved at acceptance: its category and components (BODY, FOOTER, BUTTONS; HEADER and CAROUSEL when it has them). */
  template: { name: string; language: string; id: string; category?: string; components: Record<string, unknown>[] };
  total_contacts: number;
  component?: { header: SendHeader };
  attends?: { waitTime?: number; typification?: number };
  allow_duplicates?: boolean;
  message_send_ttl_seconds?: number;
  campaignId?: number;
  /** A MARKETING send through the Marketing Messages API (decisions §28): `POST /{phone-number-id}/marketing_messages`. */
  marketing_api?: 'mm';
  /** What the send reserved of its client's month (decisions §27): each recipient's part is given back as it settles. */
  reservation?: SendReservation;
  /** This job's number among the send's jobs (1-based), and how many there are. */
  job: number;
  jobs: number;
  /** The position in the send's recipient list of this job's first recipient (0-based). */
  first_index: number;
  recipients: JobRecipient[];
}

/** The digits of a recipient's number: `+52 1 555…` and `521555…` are one recipient (decisions §12). */
export const recipientDigits = (to: string) => to.replace(/\D/g, '');

/** Whether a recipient is to be sent: neither a repeat of an earlier position nor suppressed. */
export const isSendable = (r: JobRecipient) => r.duplicate_of === undefined && !r.suppressed;

/** How many of a job's recipients are sent (not repeats, not suppressed). */
export const sendableOf = (job: Pick<DispatchJob, 'recipients'>) => job.recipients.filter(isSendable).length;

/** The key a recipient is priced and suppressed by: its number's digits, else its BSUID (decisions §28). */
export const personKey = (r: { to?: string; user_id?: string }) => (r.to !== undefined ? recipientDigits(r.to) : (r.user_id ?? ''));

/** A recipient as its repeat travels: who, without its values. */
const whoOf = (r: JobRecipient) => ({ ...(r.to !== undefined && { to: r.to }), ...(r.user_id !== undefined && { user_id: r.user_id }) });

/**
 * The keys a recipient is known by (decisions §28): `p:<digits>` and `u:<bsuid>`, and the other half of each
 * pair known to be the same person (`pairs`, as IdentityMap.pairsOf answers).
 */
export function personKeys(r: { to?: string; user_id?: string }, pairs?: Map<string, Person>): string[] {
  const keys = new Set<string>();
  if (r.to !== undefined) keys.add(`p:${recipientDigits(r.to)}`);
  if (r.user_id !== undefined) keys.add(`u:${r.user_id}`);
  for (const key of [...keys]) {
    const pair = pairs?.get(key);
    if (pair?.phone) keys.add(`p:${pair.phone}`);
    if (pair?.user_id) keys.add(`u:${pair.user_id}`);
  }
  return [...keys];
}

/**
 * The recipients with each repeat of an earlier one marked and stripped of its values, and how many repeats
 * there are: the same person (decisions §12, §28) by the same digits, the same BSUID, or a pair of them known
 * to be one person. With `allowDuplicates` every recipient stays as given.
 */
export function markRepeats(recipients: JobRecipient[], allowDuplicates: boolean, pairs?: Map<string, Person>) {
  if (allowDuplicates) return { recipients, repeats: 0 };
  const firstOf = new Map<string, number>();
  let repeats = 0;
  const marked = recipients.map((recipient, index) => {
    const keys = personKeys(recipient, pairs);
    const seen = keys.map((key) => firstOf.get(key)).filter((first) => first !== undefined);
    if (seen.length === 0) {
      for (const key of keys) firstOf.set(key, index);
      return recipient;
    }
    repeats++;
    return { ...whoOf(recipient), duplicate_of: Math.min(...seen) };
  });
  return { recipients: marked, repeats };
}

/**
 * The recipients with each one on the suppression list (by position, as found among the first of each person;
 * repeats stay repeats) marked and stripped of its values, and how many there are (decisions §25).
 */
export function markSuppressed(recipients: JobRecipient[], suppressed: Set<number>) {
  if (suppressed.size === 0) return { recipients, count: 0 };
  let count = 0;
  const marked = recipients.map((recipient, index) => {
    if (recipient.duplicate_of !== undefined || !suppressed.has(index)) return recipient;
    count++;
    return { ...whoOf(recipient), suppressed: true as const };
  });
  return { recipients: marked, count };
}
