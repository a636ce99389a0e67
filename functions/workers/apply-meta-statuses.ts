import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { ApplyMetaStatuses } from '#lib/manifest/workers.ts';
import { streamBatchWorker } from '#lib/worker/stream-worker.ts';
import { applyChanges, unsettledRetrySeconds } from '#lib/wiring/notification-ports.ts';
import { jobQueue } from '#lib/wiring/queues.ts';

/** Where a status that must wait goes: the notifications queue, whose worker retries it (issue 54). */
const retries = jobQueue('metaNotifications');

/**
 * Applies Meta's message statuses as their stream hands them over (issue 54, docs/high-tier.md §3): a shard's
 * batch at once, each send's statuses in a few transactions. A status that overtook its block (not settled yet)
 * goes to the notifications queue, back in 2 s and then less often, as that worker retries it; a batch that
 * throws is halved and tried again by the event source. Applying again is harmless: a repeat changes nothing.
 */
export const handler = streamBatchWorker<NotifiedChange>(
  ApplyMetaStatuses,
  async (records) => {
    const tallies = await applyChanges(records.map(({ message, work }) => ({ message, log: work.log })));
    const later = tallies.reduce((sum, tally) => sum + tally.later, 0);
    records[0]?.work.log.info('meta statuses applied', { records: records.length, later });
    return tallies.map((tally) =>
      tally.later > 0
        ? {
            later: {
              afterSeconds: unsettledRetrySeconds(1),
              reason: `${tally.later} statuses arrived before their messages were recorded`,
            },
          }
        : undefined,
    );
  },
  {
    keysOf: (change, record) => ({
      correlation_id: change.correlation_id ?? record.eventID,
      waba_id: change.waba_id,
      field: change.field,
    }),
    setAside: (changes, seconds) => retries.sendAfter(changes as unknown as Record<string, unknown>[], seconds),
  },
);
