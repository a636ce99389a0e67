import type { TemplateDayFigures, TemplatePerformances } from '#lib/domain/sends/performance/ports.ts';
import type { ServiceTable } from '../client.ts';
import { queryAll } from '../queries.ts';
import { keys, TEMPLATE_FIGURE_SHARDS } from '../table.ts';
import { templateFiguresOf } from './performance-items.ts';

/**
 * A client's templates' figures by day (decisions §33): a Query of each of its TEMPLATE_FIGURE_SHARDS partitions
 * for the days asked, summed by template and day. What it reads grows with the days asked and the templates that
 * sent in them, never with the messages.
 */
export class DynamoTemplatePerformances implements TemplatePerformances {
  constructor(private readonly table: ServiceTable) {}

  async days(clientId: number, from: string, to: string): Promise<TemplateDayFigures[]> {
    const shards = await Promise.all(
      Array.from({ length: TEMPLATE_FIGURE_SHARDS }, (_, shard) =>
        queryAll(this.table, {
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': keys.templateFigures(clientId, shard), ':from': `DAY#${from}`, ':to': `DAY#${to}#~` },
        }),
      ),
    );
    const rows = new Map<string, TemplateDayFigures>();
    for (const item of shards.flat()) {
      const [, day, waba_id, name, language] = String(item.sk).split('#');
      const row = rows.get(String(item.sk)) ?? { day, waba_id, name, language, figures: {} };
      for (const [figure, n] of Object.entries(templateFiguresOf(item)) as [keyof TemplateDayFigures['figures'], number][])
        row.figures[figure] = (row.figures[figure] ?? 0) + n;
      if (item.cur) row.currency = String(item.cur);
      if (item.pcur) row.price_currency = String(item.pcur);
      rows.set(String(item.sk), row);
    }
    return [...rows.values()].sort(
      (a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name) || a.language.localeCompare(b.language),
    );
  }
}
