import { type KeptPause, pauseAfter, pauseSummary, shownPause } from '#lib/domain/templates/pause-events.ts';
import type { PauseChange, TemplatePause, TemplatePauses } from '#lib/domain/templates/ports.ts';
import { copy } from '../copy.ts';

/** Templates Meta paused or disabled, as the table keeps them: the same rules (lib/domain/templates/pause-events.ts). */
export class MemoryTemplatePauses implements TemplatePauses {
  readonly items = new Map<string, KeptPause>();
  private apply(wabaId: string, templateId: string, change: PauseChange) {
    const id = `${wabaId}|${templateId}`;
    const next = pauseAfter(this.items.get(id) ?? null, change);
    if (next) this.items.set(id, copy(next));
    return shownPause(this.items.get(id) ?? null);
  }
  async get(wabaId: string, templateId: string) {
    return shownPause(copy(this.items.get(`${wabaId}|${templateId}`) ?? null));
  }
  async pause(wabaId: string, templateId: string, atMs: number) {
    return this.apply(wabaId, templateId, { kind: 'refusal', at_ms: atMs }) as TemplatePause;
  }
  async notified(wabaId: string, templateId: string, change: Extract<PauseChange, { kind: 'event' }>) {
    return this.apply(wabaId, templateId, change);
  }
  async resume(wabaId: string, templateId: string, nowMs: number) {
    this.apply(wabaId, templateId, { kind: 'period_over', at_ms: nowMs });
  }
  async summary(wabaId: string, templateId: string) {
    return pauseSummary(copy(this.items.get(`${wabaId}|${templateId}`) ?? null));
  }
}
