import { sendEvent } from '../../webhooks/events.ts';
import type { Log } from '../../shared/log.ts';
import { type OutboxDeps, publishSaved } from '../../webhooks/outbox.ts';
import type { TemplatePauses } from '../../templates/ports.ts';
import type { SendRecord, SendRecords } from '../ports.ts';
import { sendStatusOf } from '../send-status.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import { DISABLED_CODE } from './pauses.ts';
import { PAUSED_MIN_WAIT_MS } from './tuning.ts';

/**
 * A send whose template Meta paused (decisions §25): its jobs wait, the send marked `paused` with its
 * `send.paused` event, and it goes on, marked resumed with `send.resumed`, once the template may be sent again.
 */
export interface PausedSendDeps {
  sends: Pick<SendRecords, 'pause' | 'resume' | 'stop'>;
  pauses?: TemplatePauses;
  events?: Omit<OutboxDeps, 'log'>;
  log: Log;
  clock: { now(): number };
  settings: { pausedRecheckMs: number };
}

/** A disabled template's refusal: the rest of its send fails with it (decisions §25). */
export const DISABLED = { code: DISABLED_CODE, title: 'The template is disabled' };

/**
 * What the template's pause says of a job now (decisions §25): `disabled`, the time its pause ends, or nothing
 * (it may send). A pause whose time is over is ended here; a send marked paused whose template is not is resumed.
 * A send whose template Meta disabled (its DISABLED, or its third quality pause, decisions §34) is marked stopped
 * with the reason, as a 132016 refusal marks it, so its status names why its rest failed.
 */
export async function pauseOf(deps: PausedSendDeps, job: DispatchJob, send: SendRecord): Promise<number | 'disabled' | undefined> {
  if (!deps.pauses) return undefined;
  const now = deps.clock.now();
  const pause = await deps.pauses.get(job.waba_id, job.template.id);
  if (pause?.state === 'disabled') {
    if (!send.stopped) await deps.sends.stop(send.send_id, DISABLED);
    return 'disabled';
  }
  if (pause?.state === 'paused' && (pause.until_ms ?? 0) > now) return pause.until_ms;
  if (pause?.state === 'paused') await deps.pauses.resume(job.waba_id, job.template.id, now);
  if (send.paused) {
    const event = sendEvent(
      'send.resumed',
      send.client_id,
      sendStatusOf({ ...send, paused: undefined }),
      new Date(now).toISOString(),
      send.send_id,
    );
    if ((await deps.sends.resume(send.send_id, event)) && deps.events) await publishSaved({ ...deps.events, log: deps.log }, [event]);
    deps.log.info('send resumed: its template may be sent again', { send_id: send.send_id });
  }
  return undefined;
}

/**
 * Marks the send paused until `untilMs` the first time, with its `send.paused` event (written with the mark, then
 * published); answers how many seconds its job waits before it looks again (at most its pause's end).
 */
export async function markPaused(deps: PausedSendDeps, send: SendRecord, untilMs: number): Promise<number> {
  const now = deps.clock.now();
  const until = new Date(untilMs).toISOString();
  const paused = { since: new Date(now).toISOString(), until };
  const event = sendEvent('send.paused', send.client_id, sendStatusOf({ ...send, paused }), paused.since, send.send_id);
  if ((await deps.sends.pause(send.send_id, until, event)) && deps.events) {
    await publishSaved({ ...deps.events, log: deps.log }, [event]);
    deps.log.warn('send paused: its template is paused', { until });
  }
  const waitMs = Math.min(Math.max(untilMs - now, PAUSED_MIN_WAIT_MS), deps.settings.pausedRecheckMs);
  return Math.ceil(waitMs / 1000);
}
