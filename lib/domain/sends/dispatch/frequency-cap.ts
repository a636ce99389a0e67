import type { MarketingCounts } from '../../people/frequency-caps.ts';
import { CAPPED_BY_RULE } from '../../shared/message-status.ts';
import type { Log } from '../../shared/log.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import type { RecipientOutcome } from '../ports.ts';

/**
 * A MARKETING send under its client's frequency cap (decisions §33; docs/frequency-caps.md): each recipient takes
 * a place in the person's count just before its launch, with a write conditioned on the count as read, so two
 * sends dispatched at once never put a person over the cap. A recipient at the cap is never sent: `capped_by_rule`.
 * A place is given back when its message was not sent (refused, expired, cancelled, paused); a message whose
 * answer never came (`outcome_unknown`) keeps it, as it may have gone.
 */

/** What a recipient the cap skipped settles as. */
export const CAPPED_BY_RULE_OUTCOME: RecipientOutcome = {
  kind: 'failed',
  code: CAPPED_BY_RULE,
  title: 'The client’s frequency cap: the person had its MARKETING messages of the period',
};

export interface CapDeps {
  marketingCounts?: Pick<MarketingCounts, 'take' | 'giveBack'>;
  log: Log;
}

/**
 * The recipient's place under the cap: the time it took (epoch seconds), `capped` at the cap, or undefined where
 * the send is not capped (no cap, or no counts wired, as in the dispatcher's own tests).
 */
export async function takePlace(deps: CapDeps, job: DispatchJob, position: number, nowMs: number): Promise<number | 'capped' | undefined> {
  const keys = job.recipients[position].cap_keys;
  if (!job.frequency_cap || !keys?.length || !deps.marketingCounts) return undefined;
  return (await deps.marketingCounts.take(job.client_id, keys, job.frequency_cap, nowMs)) ?? 'capped';
}

/** The place of a message that was not sent is given back; one that went, or may have gone, keeps it. */
export async function settlePlace(deps: CapDeps, job: DispatchJob, position: number, taken: number, outcome: RecipientOutcome) {
  const mayHaveGone = outcome.kind === 'sent' || (outcome.kind === 'failed' && outcome.code === 'outcome_unknown');
  const keys = job.recipients[position].cap_keys;
  if (mayHaveGone || !job.frequency_cap || !keys || !deps.marketingCounts) return;
  try {
    await deps.marketingCounts.giveBack(job.client_id, keys, job.frequency_cap, taken);
  } catch (error) {
    // Kept counted: the person gets fewer messages than the cap allows, never more.
    deps.log.warn('frequency cap: a place not given back', { position, error: String(error) });
  }
}
