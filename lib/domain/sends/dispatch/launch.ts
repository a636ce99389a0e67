import { cloudMessage } from '../cloud-message.ts';
import { BSUID_REFUSED, BSUID_REFUSED_TITLE, isBsuidOnly, refusesBsuid } from '../../people/bsuid-refusals.ts';
import { messageReference } from '../../shared/message-status.ts';
import { BLOCK } from './tuning.ts';
import { PAUSED_CODE } from './pauses.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import type { Clock } from './settings.ts';
import type { MessageUpstream } from './ports.ts';
import type { Pacer } from './ports.ts';
import type { RecipientOutcome } from '../ports.ts';

/**
 * Graph's codes for a template that may no longer be sent (upstream-facts §6.2), and a WABA whose Direct Send
 * Meta blocked (139200, platform-2027 §2): the send stops.
 */
export const STOPPING = new Set(['132015', '132016', '139200']);

export interface LaunchDeps {
  upstream: MessageUpstream;
  pacer: Pacer;
  clock: Clock;
  settings: { attempts: number; backoffMs: number; maxBackoffMs: number };
  random?: () => number;
}

/** What a launch needs to know of its send while it retries. */
export interface LaunchContext {
  expiresAt: number;
  catalogId?: string;
  intervalMs: number;
  isStopped: () => { code: string; title: string } | undefined;
  isCancelled: () => boolean;
  /** The template was paused meanwhile (decisions §25): a retry is not sent; its recipient stays pending. */
  isPaused?: () => boolean;
}

/**
 * One recipient's message, launched at its slot by the caller: retryable refusals are tried again after a
 * backoff with full jitter, each retry on a new slot of the number (so retries keep the number's pace). A
 * request whose answer never came is never sent again: the upstream may have sent it.
 */
export async function launchOne(deps: LaunchDeps, job: DispatchJob, position: number, context: LaunchContext): Promise<RecipientOutcome> {
  const { clock, settings } = deps;
  // Meta refuses these templates for a BSUID (decisions §28): settled failed without a launch.
  if (isBsuidOnly(job.recipients[position]) && refusesBsuid(job.template))
    return { kind: 'failed', code: BSUID_REFUSED, title: BSUID_REFUSED_TITLE };
  const route = job.marketing_api === 'mm' ? { api: 'mm' as const } : undefined;
  const message = cloudMessage(job, job.recipients[position], { catalogId: context.catalogId });
  const index = job.first_index + position;
  const reference = messageReference(job.send_id, job.first_index + Math.floor(position / BLOCK) * BLOCK, index);
  const random = deps.random ?? Math.random;
  let last: RecipientOutcome = { kind: 'failed', code: 'not_attempted', title: 'Not attempted' };
  for (let attempt = 1; attempt <= settings.attempts; attempt++) {
    const stopped = context.isStopped();
    if (stopped) return { kind: 'failed', code: stopped.code, title: stopped.title };
    if (clock.now() >= context.expiresAt) return { kind: 'expired' };
    // A retry after the send was cancelled is a new message: not sent.
    if (attempt > 1 && context.isCancelled()) return { kind: 'cancelled' };
    if (attempt > 1 && context.isPaused?.()) return { kind: 'failed', code: PAUSED_CODE, title: 'The template is paused' };
    const answer = await deps.upstream.sendMessage(
      job.phone_number_id as string,
      message as unknown as Record<string, unknown>,
      reference,
      route,
    );
    if (answer.kind === 'accepted')
      return {
        kind: 'sent',
        message_id: answer.message_id,
        ...(answer.held && { held: true as const }),
        ...(route && { api: 'mm' as const }),
      };
    if (answer.kind === 'unknown') return { kind: 'failed', code: 'outcome_unknown', title: 'No answer from the upstream in time' };
    last = { kind: 'failed', code: answer.code, title: answer.title };
    if (!answer.retryable) return last;
    if (attempt < settings.attempts) {
      const backoff = random() * Math.min(settings.maxBackoffMs, settings.backoffMs * 2 ** (attempt - 1));
      await clock.sleep(backoff);
      const slot = await deps.pacer.reserve(job.phone_number_id as string, 1, context.intervalMs, clock.now());
      const wait = slot - clock.now();
      if (wait > 0) await clock.sleep(wait);
    }
  }
  return last;
}
