import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from './service.ts';

/** The service's own metrics (CloudWatch namespace TemplateMessagingService, dimension `service`). */
export type ServiceMetric =
  | 'TemplatesCreated'
  | 'SendsAccepted'
  | 'MessagesDispatched'
  | 'MessagesFailed'
  /** Slots a dispatcher took again for being late (a stalled process): writes of a pacing item beyond its pace. */
  | 'LateSlotBookings'
  | 'WebhooksDelivered'
  | 'WebhookDeliveriesFailed'
  | 'SyncRuns'
  | 'SyncRunsFailed'
  | 'DispatchJobsAbandoned'
  | 'ScheduledSendsReleased'
  /** Days whose Meta figures and ledger differ by more than 1 % (decisions §24). */
  | 'CostGaps'
  /** Months the close job closed, and clients whose close failed (decisions §30). */
  | 'StatementsClosed'
  | 'StatementClosesFailed'
  /** Reservations given back by their watch, and watches that failed (decisions §30: reservations always end). */
  | 'ReservationsEnded'
  | 'ReservationWatchesFailed';

let metrics: Metrics | undefined;
const emitter = () =>
  (metrics ??= new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  }));

/**
 * Counts what happened, published at once as one EMF line on stdout (CloudWatch turns it into metrics; no API
 * call, no cost on the request's path). Zero counts are left out. The stack alarms on the *Failed ones.
 */
export function countMetrics(counts: Partial<Record<ServiceMetric, number>>): void {
  const given = Object.entries(counts).filter(([, value]) => value !== undefined && value > 0);
  if (given.length === 0) return;
  const m = emitter();
  for (const [name, value] of given) m.addMetric(name, MetricUnit.Count, value as number);
  m.publishStoredMetrics();
}
