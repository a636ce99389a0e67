import type { TemplateDayFigures, TemplatePerformances } from '#lib/domain/sends/performance/ports.ts';
import type { MemorySendTable } from './send-table.ts';

/** As the DynamoDB adapter: a client's template days of the range, in day, name and language order. */
export class MemoryTemplatePerformances implements TemplatePerformances {
  constructor(private readonly table: MemorySendTable) {}

  async days(clientId: number, from: string, to: string): Promise<TemplateDayFigures[]> {
    const rows: TemplateDayFigures[] = [];
    for (const [key, figures] of this.table.templateDays) {
      const [client, day, waba_id, name, language] = key.split('|');
      if (Number(client) !== clientId || day < from || day > to) continue;
      const money = this.table.templateDayCurrencies.get(key);
      rows.push({
        day,
        waba_id,
        name,
        language,
        figures: Object.fromEntries(figures),
        ...(money?.currency && { currency: money.currency }),
        ...(money?.price_currency && { price_currency: money.price_currency }),
      });
    }
    return rows.sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
  }
}
