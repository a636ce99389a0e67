import { capKeysOf, type FrequencyCap } from '../../people/frequency-caps.ts';
import { peopleMapScopeOf } from '../../people/people-map.ts';
import { type Person, recipientDigits } from '../../people/person.ts';
import { suppressedPeople } from '../../people/suppression.ts';
import { upper } from '../../shared/text.ts';
import type { JobRecipient } from '../dispatch-job.ts';
import { isSendable, markRepeats, markSuppressed, personKeys } from '../dispatch/job.ts';
import type { FoundTemplate } from './find-template.ts';
import type { DryRunDeps } from './send-deps.ts';

/**
 * Who of a send's recipients is sent: repeats are found over the whole list, per person (decisions §12, §28),
 * and a MARKETING send's suppressed recipients are skipped (decisions §25). Both are marked when the send is
 * accepted; each job knows its repeats and its suppressed, and sends neither. An answer names a repeat or a
 * suppressed recipient by its position and the values the caller sent, never by the other half of a pair, and
 * the pairs are only those the client's own numbers showed (decisions §32): otherwise a dry run to candidate
 * numbers would tell which one is behind a BSUID another client's traffic paired.
 */

/** The known pairs among a send's recipients that its client may be served (one read per hundred keys). */
async function knownPairs(
  deps: Pick<DryRunDeps, 'peopleMap'>,
  scope: string,
  clientId: number,
  recipients: { to?: string; user_id?: string }[],
): Promise<Map<string, Person> | undefined> {
  if (recipients.length === 0) return undefined;
  const keys = new Map<string, { phone?: string; user_id?: string }>();
  for (const r of recipients) {
    if (r.to !== undefined) keys.set(`p:${recipientDigits(r.to)}`, { phone: recipientDigits(r.to) });
    if (r.user_id !== undefined) keys.set(`u:${r.user_id}`, { user_id: r.user_id });
  }
  return deps.peopleMap.pairsOf(scope, [...keys.values()], clientId);
}

/**
 * The positions of a MARKETING send's recipients whose number is on the client's suppression list (decisions
 * §25): one batch read per hundred unique recipients, however long the list. Other categories are never filtered.
 */
async function suppressedAmong(
  deps: Pick<DryRunDeps, 'suppressions' | 'peopleMap' | 'directory'>,
  found: FoundTemplate,
  recipients: JobRecipient[],
  pairs?: Map<string, Person>,
) {
  if (upper(found.template.category) !== 'MARKETING') return new Set<number>();
  // By the person (decisions §28): the number, the BSUID, or the other half of a pair the people map knows.
  const candidates = recipients.flatMap((r, i) =>
    r.duplicate_of === undefined && (r.to !== undefined || r.user_id !== undefined)
      ? [
          {
            i,
            person: { ...(r.to !== undefined && { phone: recipientDigits(r.to) }), ...(r.user_id !== undefined && { user_id: r.user_id }) },
          },
        ]
      : [],
  );
  // The pairs the repeats were found with are the ones to skip by: read once.
  const persons = candidates.map((c) => c.person);
  const skipped = await suppressedPeople(deps, found.clientId, found.provider.wabaId, persons, pairs);
  return new Set(candidates.filter((_, k) => skipped.has(k)).map((c) => c.i));
}

/** What a send knows of its people: its recipients with their repeats and suppressed marked, and how many of each. */
export interface SendPeople {
  recipients: JobRecipient[];
  repeats: number;
  /** The positions skipped as suppressed (a dry run names them). */
  suppressed: Set<number>;
  suppressedCount: number;
  /** The pairs the people map knows among them (an A/B send hashes a person by them, decisions §33). */
  pairs?: Map<string, Person>;
  /** The client's MARKETING frequency cap a MARKETING send goes under (decisions §33); its recipients carry their `cap_keys`. */
  cap?: FrequencyCap;
}

/**
 * A MARKETING send under its client's frequency cap (decisions §33): each recipient to send carries the person's
 * halves (its own and the people map's pair) its count is kept by. Other categories are never capped.
 */
async function underCap(
  deps: Pick<DryRunDeps, 'frequencyCaps'>,
  found: FoundTemplate,
  recipients: JobRecipient[],
  pairs?: Map<string, Person>,
): Promise<{ recipients: JobRecipient[]; cap?: FrequencyCap }> {
  if (upper(found.template.category) !== 'MARKETING') return { recipients };
  const cap = (await deps.frequencyCaps.get(found.clientId))?.marketing;
  if (!cap) return { recipients };
  return { cap, recipients: recipients.map((r) => (isSendable(r) ? { ...r, cap_keys: capKeysOf(personKeys(r, pairs)) } : r)) };
}

/**
 * Check the people: the pairs the people map knows, then the repeats, then the suppressed among the rest, then the
 * cap's keys of those to send.
 */
export async function peopleOfSend(
  deps: Pick<DryRunDeps, 'suppressions' | 'peopleMap' | 'directory' | 'frequencyCaps'>,
  found: FoundTemplate,
  recipients: JobRecipient[],
  allowDuplicates: boolean,
): Promise<SendPeople> {
  const scope = await peopleMapScopeOf(found.provider.wabaId, deps.directory);
  const pairs = await knownPairs(deps, scope, found.clientId, recipients);
  const marked = markRepeats(recipients, allowDuplicates, pairs);
  const suppressed = await suppressedAmong(deps, found, marked.recipients, pairs);
  const { recipients: sendable, count } = markSuppressed(marked.recipients, suppressed);
  const { recipients: sent, cap } = await underCap(deps, found, sendable, pairs);
  return { recipients: sent, repeats: marked.repeats, suppressed, suppressedCount: count, ...(cap && { cap }), ...(pairs && { pairs }) };
}
