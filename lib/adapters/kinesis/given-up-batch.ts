import { GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-kinesis';
import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import type { ServiceStream } from './status-stream.ts';

/** Where a batch Lambda's Kinesis event source gave up on lies: its on-failure record's KinesisBatchInfo. */
export interface GivenUpBatch {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
  streamArn: string;
}

/** GetRecords calls at most for one batch: an empty answer is not the end of a shard (Kinesis pages by time). */
const MOST_READS = 100;

/** A batch the stream does not hold (any more, or never): its redrive cannot bring it back by reading again. */
export class BatchNotOnStream extends Error {}

/**
 * The records of a batch given up on, read again from the stream (issue 54): from its first sequence number on
 * its shard (AT_SEQUENCE_NUMBER) up to its last, in order, each parsed as the change the intake put. A stream
 * other than this one, or a first record the stream no longer holds (past its retention), is refused.
 */
export async function readGivenUpBatch(stream: ServiceStream, batch: GivenUpBatch): Promise<NotifiedChange[]> {
  if (!batch.streamArn.endsWith(`:stream/${stream.name}`))
    throw new BatchNotOnStream(`the batch is on ${batch.streamArn}, not on ${stream.name}`);
  const end = BigInt(batch.endSequenceNumber);
  const changes: NotifiedChange[] = [];
  let iterator = await iteratorAt(stream, batch);
  for (let read = 0; iterator && read < MOST_READS; read++) {
    const got = await stream.client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: batch.batchSize - changes.length }));
    for (const record of got.Records ?? []) {
      if (changes.length === 0 && record.SequenceNumber !== batch.startSequenceNumber)
        throw new BatchNotOnStream(`the stream no longer holds ${batch.shardId}'s ${batch.startSequenceNumber}`);
      if (BigInt(record.SequenceNumber ?? '0') > end) return changes;
      changes.push(JSON.parse(Buffer.from(record.Data ?? new Uint8Array()).toString('utf8')) as NotifiedChange);
      if (record.SequenceNumber === batch.endSequenceNumber || changes.length >= batch.batchSize) return changes;
    }
    iterator = got.NextShardIterator;
  }
  if (changes.length === 0) throw new BatchNotOnStream(`the stream no longer holds ${batch.shardId}'s ${batch.startSequenceNumber}`);
  return changes;
}

/** An iterator at the batch's first record; a sequence number the shard never had or trimmed is refused. */
async function iteratorAt(stream: ServiceStream, batch: GivenUpBatch) {
  try {
    const answer = await stream.client.send(
      new GetShardIteratorCommand({
        StreamName: stream.name,
        ShardId: batch.shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        StartingSequenceNumber: batch.startSequenceNumber,
      }),
    );
    return answer.ShardIterator;
  } catch (error) {
    if ((error as Error).name === 'InvalidArgumentException' || (error as Error).name === 'ResourceNotFoundException')
      throw new BatchNotOnStream(`${batch.shardId}'s ${batch.startSequenceNumber}: ${(error as Error).message}`);
    throw error;
  }
}
