import type { Day } from '#lib/domain/shared/calendar.ts';
import {
  type AnalyticsReaderState,
  dayChanged,
  sortDays,
  type TemplateAnalytics,
  type TemplateAnalyticsStore,
  type TemplateDay,
  type TemplateDaysQuery,
} from '#lib/domain/templates/template-analytics.ts';
import type { DirectoryStore } from '#lib/domain/shared/ports.ts';
import { copy } from '../copy.ts';

/** Meta's template analytics in memory: a day per WABA, template and day, and each WABA's reader state. */
export class MemoryTemplateAnalyticsTable {
  readonly days = new Map<string, TemplateDay>();
  readonly states = new Map<string, AnalyticsReaderState>();
  /** Items written, in all: a day read again that says the same adds none. */
  writes = 0;
  /** Makes the next `putDay` calls fail (a store that does not answer), as many as given. */
  failPuts = 0;
}

const keyOf = (wabaId: string, templateId: string, day: Day) => `${wabaId}|${templateId}|${day}`;

export class MemoryTemplateAnalyticsStore implements TemplateAnalyticsStore {
  constructor(private readonly table: MemoryTemplateAnalyticsTable) {}

  async readerState(wabaId: string) {
    return copy(this.table.states.get(wabaId) ?? { enabled: false, failed_days: [] });
  }

  async setReaderState(wabaId: string, state: AnalyticsReaderState) {
    this.table.states.set(wabaId, copy(state));
  }

  async putDay(wabaId: string, day: Day, days: TemplateDay[]) {
    if (this.table.failPuts > 0) {
      this.table.failPuts--;
      throw new Error('the store did not answer');
    }
    const changed = days.filter((d) => dayChanged(this.table.days.get(keyOf(wabaId, d.template_id, day)), d));
    for (const d of changed) this.table.days.set(keyOf(wabaId, d.template_id, day), copy(d));
    this.table.writes += changed.length;
    return changed.length;
  }
}

/** The readers' side, on the memory directory: the days of the client's WABAs' templates. */
export class MemoryTemplateAnalytics implements TemplateAnalytics {
  constructor(
    private readonly table: MemoryTemplateAnalyticsTable,
    private readonly directory: Pick<DirectoryStore, 'listClientWabas'>,
  ) {}

  async templateDays(clientId: number, query: TemplateDaysQuery): Promise<TemplateDay[]> {
    const wabas = new Set(await this.directory.listClientWabas(clientId));
    return sortDays(
      [...this.table.days.values()]
        .filter((d) => wabas.has(d.waba_id) && d.day >= query.from && d.day <= query.to)
        .filter((d) => query.templateId === undefined || d.template_id === query.templateId)
        .map((d) => copy(d)),
    );
  }
}
