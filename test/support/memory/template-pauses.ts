import type { TemplatePause, TemplatePauses } from '#lib/domain/ports/consent.ts';
import { PAUSE_PERIODS_MS } from '#lib/domain/sending/pauses.ts';
import { copy } from './copy.ts';

/** Templates Meta paused or disabled, as the table keeps them: a pause in force is never moved. */
export class MemoryTemplatePauses implements TemplatePauses {
  readonly pauses = new Map<string, TemplatePause & { active?: boolean }>();
  async get(wabaId: string, templateId: string) {
    const pause = this.pauses.get(`${wabaId}|${templateId}`);
    if (!pause || pause.active) return null;
    const { active: _a, ...shown } = pause;
    return copy(shown);
  }
  async pause(wabaId: string, templateId: string, atMs: number) {
    const id = `${wabaId}|${templateId}`;
    const known = this.pauses.get(id);
    if (known && !known.active && (known.state === 'disabled' || (known.until_ms ?? 0) > atMs))
      return (await this.get(wabaId, templateId))!;
    const pauses = known?.pauses ?? 0;
    const next: TemplatePause = {
      state: 'paused',
      since_ms: atMs,
      until_ms: atMs + PAUSE_PERIODS_MS[Math.min(pauses, 1)],
      pauses: pauses + 1,
    };
    this.pauses.set(id, next);
    return copy(next);
  }
  async resume(wabaId: string, templateId: string) {
    const known = this.pauses.get(`${wabaId}|${templateId}`);
    if (known?.state === 'paused') known.active = true;
  }
  async disable(wabaId: string, templateId: string, atMs: number) {
    this.pauses.set(`${wabaId}|${templateId}`, {
      state: 'disabled',
      since_ms: atMs,
      pauses: this.pauses.get(`${wabaId}|${templateId}`)?.pauses ?? 0,
    });
  }
}
