import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Day } from '#lib/domain/shared/calendar.ts';
import type { DirectoryStore } from '#lib/domain/shared/ports.ts';
import {
  type AnalyticsReaderState,
  dayChanged,
  sortDays,
  type TemplateAnalytics,
  type TemplateAnalyticsStore,
  type TemplateDay,
  type TemplateDaysQuery,
} from '#lib/domain/templates/template-analytics.ts';
import { putAll } from '../batch-write.ts';
import type { ServiceTable } from '../client.ts';
import { queryAll } from '../queries.ts';
import { keys, SORT } from '../table.ts';

/**
 * Meta's template analytics as kept (docs/data-model.md, "Template analytics"): an item per WABA, template and day
 * under `TEMPLATE_ANALYTICS#<waba>#<template>` / `DAY#<day>`, and on gsi1 under the WABA by `<day>#<template>`, so
 * a template's days are one Query of its own and a WABA's day across its templates one Query of gsi1.
 */

const dayKey = (day: Day) => `DAY#${day}`;
const wabaDayKey = (day: Day, templateId: string) => `${day}#${templateId}`;

/** The item of a template's day. */
function itemOf(day: TemplateDay): Record<string, unknown> {
  return {
    pk: keys.templateAnalytics(day.waba_id, day.template_id),
    sk: dayKey(day.day),
    gsi1pk: keys.templateAnalyticsOfWaba(day.waba_id),
    gsi1sk: wabaDayKey(day.day, day.template_id),
    entity: 'template_analytics',
    ...day,
  };
}

/** A template's day as kept, without its keys. */
function dayOfItem(item: Record<string, unknown>): TemplateDay {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, entity: _e, ...day } = item;
  return day as unknown as TemplateDay;
}

/** The daily job's side: the reader's state of each WABA and each WABA's days. */
export class DynamoTemplateAnalyticsStore implements TemplateAnalyticsStore {
  constructor(private readonly table: ServiceTable) {}

  async readerState(wabaId: string): Promise<AnalyticsReaderState> {
    const { Item } = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: { pk: keys.templateAnalyticsOfWaba(wabaId), sk: SORT.templateAnalyticsReader },
        ConsistentRead: true,
      }),
    );
    return { enabled: Item?.enabled === true, failed_days: (Item?.failed_days ?? []) as Day[] };
  }

  async setReaderState(wabaId: string, state: AnalyticsReaderState) {
    const Item = {
      pk: keys.templateAnalyticsOfWaba(wabaId),
      sk: SORT.templateAnalyticsReader,
      entity: 'template_analytics_reader',
      ...state,
    };
    await this.table.client.send(new PutCommand({ TableName: this.table.name, Item }));
  }

  /**
   * The day's items as kept (one Query of gsi1), then a put of each template's figures that differ: a day read
   * again that says the same writes nothing, and an empty day is written only over one kept. Each put is whole.
   */
  async putDay(wabaId: string, day: Day, days: TemplateDay[]) {
    const kept = new Map(
      (
        await queryAll(this.table, {
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :d)',
          ExpressionAttributeValues: { ':p': keys.templateAnalyticsOfWaba(wabaId), ':d': `${day}#` },
        })
      ).map((item) => [String(item.template_id), dayOfItem(item)]),
    );
    const changed = days.filter((d) => dayChanged(kept.get(d.template_id), d));
    await putAll(this.table, changed.map(itemOf));
    return changed.length;
  }
}

/**
 * The readers' side: the client's WABAs (the directory's memberships), then of each the template's days (one
 * template: its own partition) or the WABA's days across its templates (gsi1). Reads grow with the client's WABAs
 * and the days answered, never with the table.
 */
export class DynamoTemplateAnalytics implements TemplateAnalytics {
  constructor(
    private readonly table: ServiceTable,
    private readonly directory: Pick<DirectoryStore, 'listClientWabas'>,
  ) {}

  async templateDays(clientId: number, query: TemplateDaysQuery): Promise<TemplateDay[]> {
    if (query.from > query.to) return [];
    const wabas = await this.directory.listClientWabas(clientId);
    const found = await Promise.all(
      wabas.map((wabaId) =>
        query.templateId !== undefined
          ? queryAll(this.table, {
              KeyConditionExpression: 'pk = :p AND sk BETWEEN :from AND :to',
              ExpressionAttributeValues: {
                ':p': keys.templateAnalytics(wabaId, query.templateId),
                ':from': dayKey(query.from),
                ':to': dayKey(query.to),
              },
            })
          : queryAll(this.table, {
              IndexName: 'gsi1',
              KeyConditionExpression: 'gsi1pk = :p AND gsi1sk BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':p': keys.templateAnalyticsOfWaba(wabaId), ':from': `${query.from}#`, ':to': `${query.to}#~` },
            }),
      ),
    );
    return sortDays(found.flat().map(dayOfItem));
  }
}
