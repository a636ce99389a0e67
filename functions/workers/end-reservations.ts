import type { Context } from 'aws-lambda';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoReservationReturns } from '#lib/adapters/dynamo/sends/reservation-returns.ts';
import { DynamoReservationWatches } from '#lib/adapters/dynamo/sends/reservation-watches.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoTtlReturns } from '#lib/adapters/dynamo/sends/ttl-returns.ts';
import { endReservations } from '#lib/domain/sends/operations/reservation-watch.ts';
import { inInvocation, logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = {
  sends: new DynamoSendRecords(table),
  recipientLists: new DynamoRecipientLists(table),
  reservationWatches: new DynamoReservationWatches(table),
  reservationReturns: new DynamoReservationReturns(table),
  ttlReturns: new DynamoTtlReturns(table),
  log: logger,
};

/**
 * Every 15 minutes (decisions §30: reservations always end): each reservation's watch due by the schedule's
 * `time` (now when absent) is looked at once; `ReservationsEnded` counts the reservations given back.
 */
export const handler = (event: { time?: string } | undefined, context?: Context) =>
  inInvocation(context, {}, async () => {
    const at = event?.time && !Number.isNaN(Date.parse(event.time)) ? event.time : new Date().toISOString();
    const run = await endReservations(deps, at);
    countMetrics({
      ReservationsEnded: (run.returned_unrecorded ?? 0) + (run.returned_whole ?? 0) + (run.returned_at_ttl ?? 0),
      ReservationWatchesFailed: run.failed,
    });
    logger.info('reservation watches looked at', { ...run, at });
    return run;
  });
