import type { Log } from '../../shared/log.ts';
import { sendEvent } from '../../webhooks/events.ts';
import { type OutboxDeps, publishSaved } from '../../webhooks/outbox.ts';
import { EVENT_VIEW, sendStatusOf } from '../send-status.ts';
import { figuresView, type MoneyView, sumsOf } from './figure-sums.ts';
import type { SendCompletions, SendFigures, SendPerformances } from './ports.ts';
import { variantFiguresOf } from './send-performance.ts';

/** What a send's completion reads and writes: its figures, its mark and event, and where events are published. */
export interface CompletionDeps {
  performances: SendPerformances;
  completions: SendCompletions;
  events?: Omit<OutboxDeps, 'log'>;
  log: Log;
}

/**
 * `send.completed` (decisions §33): once a send has nothing pending (every recipient sent, failed, expired or
 * cancelled), its event with its totals (as its status) and its performance (totals and each variant, as a
 * client's webhook may see money: its price, never Meta's cost), written once with the send's mark and published.
 * Asked whenever a job of it ends; the mark's condition makes a second ask, or two at once, write nothing.
 */
export async function completeIfDone(deps: CompletionDeps, sendId: string, nowMs: number): Promise<boolean> {
  const read = await deps.performances.read(sendId);
  if (read?.send.status !== 'queued' || (read.send as { completed_at?: string }).completed_at) return false;
  const status = sendStatusOf(read.send, EVENT_VIEW);
  if (status.pending > 0) return false;
  const at = new Date(nowMs).toISOString();
  const event = sendEvent('send.completed', read.send.client_id, { ...status, performance: eventPerformanceOf(read) }, at, sendId);
  if (!(await deps.completions.complete(sendId, event))) return false;
  deps.log.info('send completed', { send_id: sendId, total: status.total });
  if (deps.events) await publishSaved({ ...deps.events, log: deps.log }, [event]);
  return true;
}

/** A send's performance as its event carries it: totals and each variant, with rates; money as a webhook sees it. */
export function eventPerformanceOf({ send, figures }: SendFigures) {
  const money: MoneyView = EVENT_VIEW.price && send.price_list ? { price: send.price_list.currency } : {};
  return {
    totals: figuresView(sumsOf(figures.map((f) => [f.figure, f.n] as const)), money),
    variants: variantFiguresOf(send, figures).map((v) => ({ variant: v.variant, template: v.template, ...figuresView(v.sums, money) })),
  };
}
