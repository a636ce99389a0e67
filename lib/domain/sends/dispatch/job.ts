import { recipientDigits } from '../../people/person.ts';
import type { DispatchJob, JobRecipient } from '../dispatch-job.ts';
import type { Person } from '../../people/person.ts';

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
 * pair known to be the same person (`pairs`, as PeopleMap.pairsOf answers).
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
