import { type GivenUpBatch, readGivenUpBatch } from '#lib/adapters/kinesis/given-up-batch.ts';
import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import type { Log } from '#lib/domain/shared/log.ts';
import { applyChanges } from './notification-ports.ts';
import { serviceStream } from './streams.ts';

/** Lambda's record of a batch of the statuses' stream given up after its retries (lib/schemas/queue-messages.ts). */
export interface StreamBatchGivenUp {
  requestContext: { condition: string };
  KinesisBatchInfo: GivenUpBatch;
}

/** What the notifications queue carries: a change, or (redriven from its dead-letter queue) a batch given up on. */
export type QueuedNotification = NotifiedChange | StreamBatchGivenUp;

export const isGivenUpBatch = (message: QueuedNotification): message is StreamBatchGivenUp => 'KinesisBatchInfo' in message;

/** The changes a queued message stands for: itself, or its batch's statuses read again from their stream. */
async function changesOf(message: QueuedNotification, log: Log): Promise<NotifiedChange[] | undefined> {
  if (!isGivenUpBatch(message)) return [message];
  const batch = message.KinesisBatchInfo;
  try {
    const changes = await readGivenUpBatch(serviceStream('metaStatuses'), batch);
    log.info('statuses given up on read again from their stream', { shard: batch.shardId, records: changes.length });
    return changes;
  } catch (error) {
    log.error('statuses given up on could not be read again from their stream', {
      error: (error as Error).name,
      detail: (error as Error).message,
      shard: batch.shardId,
      first: batch.startSequenceNumber,
      last: batch.endSequenceNumber,
    });
    return undefined;
  }
}

/**
 * A batch of queued messages applied at once (applyChanges), a batch given up on by the statuses' worker standing
 * for the statuses it names (issue 54): each message's notifications, how many must come back, and whether its
 * stream's records could not be read (the message comes back, and after its receives returns to the dead letters).
 */
export async function applyQueued(records: { message: QueuedNotification; log: Log }[]) {
  const read = await Promise.all(records.map(({ message, log }) => changesOf(message, log)));
  const changes = read.flatMap((found, record) => (found ?? []).map((message) => ({ message, log: records[record].log, record })));
  const tallies = await applyChanges(changes);
  const out = read.map((found) => ({ notifications: 0, later: 0, unread: found === undefined }));
  for (const [i, { record }] of changes.entries()) {
    out[record].notifications += tallies[i].notifications;
    out[record].later += tallies[i].later;
  }
  return out;
}
