import type { SendStatus } from './answers.ts';
import { ProgressBar, When } from './ui.tsx';

/** A send no longer changes but by Meta's late statuses (delivered, read). */
export const isSettled = (send: SendStatus) => send.status === 'completed' || send.status === 'cancelled';

/**
 * A send's recipients by where they are: read, delivered (not read), sent (not delivered), failed (with capped and
 * expired), suppressed (with repeats removed and those the client's frequency cap skipped), cancelled, and queued
 * (not settled yet). They add up to its total.
 */
export function sendParts(send: SendStatus) {
  const delivered = Math.max(0, send.delivered - send.read);
  const waiting = waitingOf(send);
  return [
    { name: 'read', value: send.read, tone: 'tone-read' },
    { name: 'delivered', value: delivered, tone: 'tone-delivered' },
    { name: 'sent', value: Math.max(0, send.sent - send.delivered), tone: 'tone-sent' },
    { name: 'failed', value: send.failed + send.capped + send.expired, tone: 'tone-failed' },
    { name: 'suppressed', value: send.suppressed + send.duplicates_removed + send.capped_by_rule, tone: 'tone-suppressed' },
    { name: 'cancelled', value: send.cancelled + send.pending - waiting, tone: 'tone-cancelled' },
    { name: 'queued', value: waiting, tone: 'tone-queued' },
  ];
}

/**
 * The recipients still to go. A cancelled send's pending ones never go (a scheduled send's count them cancelled
 * only at its time, decisions §22): the operator sees them cancelled now.
 */
const waitingOf = (send: SendStatus) => (send.status === 'cancelled' ? 0 : send.pending);

/** A send's progress: the share of its recipients settled, its parts in words. */
export function SendProgress({ send }: { send: SendStatus }) {
  return (
    <ProgressBar
      label={`Progress of send ${send.template.name} (${send.template.language}) of ${new Date(send.created_at).toLocaleString('en-GB')}`}
      value={send.total - waitingOf(send)}
      max={send.total}
      parts={sendParts(send)}
    />
  );
}

/** A paused send: its template's pause (Meta's quality pause, decisions §25) and when it ends at the latest. */
export function PauseNote({ send }: { send: SendStatus }) {
  if (send.status !== 'paused') return null;
  return (
    <p class="paused">
      Paused: Meta paused the template {send.template.name} ({send.template.language}) for its quality
      {send.paused_until ? (
        <>
          ; the pause ends by <When at={send.paused_until} />, then the send goes on
        </>
      ) : null}
      . {send.pending.toLocaleString('en')} recipients wait.
    </p>
  );
}

/** A send's template, or an A/B send's variants' (decisions §33), in words. */
export const templatesOf = (send: SendStatus) =>
  (send.variants?.map((v) => v.template) ?? [send.template]).map((t) => `${t.name} (${t.language})`).join(' and ');

/** A send's status as a word, in its tone. */
export function StatusBadge({ status }: { status: SendStatus['status'] }) {
  return <span class={`badge status-${status}`}>{status}</span>;
}
