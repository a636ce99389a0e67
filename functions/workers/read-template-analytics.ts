import type { Context } from 'aws-lambda';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoKnownCurrencies } from '#lib/adapters/dynamo/money/known-currencies.ts';
import { DynamoTemplateAnalyticsStore } from '#lib/adapters/dynamo/templates/template-analytics.ts';
import { billingOfWaba, KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { readTemplateAnalytics } from '#lib/domain/templates/read-template-analytics.ts';
import { inInvocation, logger } from '#lib/log/logger.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * Once a day: each WABA's yesterday of Meta's template analytics in its timezone (and the days it reads again),
 * as of the schedule's time (its `time`, now when absent).
 */
export const handler = (event: { time?: string } | undefined, context?: Context) =>
  inInvocation(context, {}, () => {
    // Each WABA's days are its own timezone's (decisions §31), kept beside its currency, which its COST is in.
    const currencies = new KeptBillingCurrencies({ known: new DynamoKnownCurrencies(table), upstream: graphUpstream(), log: logger });
    return readTemplateAnalytics(
      {
        directory: new DynamoDirectoryStore(table),
        store: new DynamoTemplateAnalyticsStore(table),
        upstream: graphUpstream(),
        billingOf: (wabaId) => billingOfWaba(currencies, wabaId),
        log: logger,
      },
      event?.time && !Number.isNaN(Date.parse(event.time)) ? event.time : new Date().toISOString(),
    );
  });
