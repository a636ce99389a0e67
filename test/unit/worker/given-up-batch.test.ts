import { CreateStreamCommand, DescribeStreamSummaryCommand, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BatchNotOnStream, type GivenUpBatch, readGivenUpBatch } from '#lib/adapters/kinesis/given-up-batch.ts';
import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { pollStream } from '../../../local/stream-poller.ts';
import { kinesaliteInProcess } from '../../support/kinesalite.ts';

/**
 * A batch of the statuses' stream given up on (issue 54): Lambda names it on the notifications' dead-letter queue by
 * its shard and first and last sequence numbers, not its records; redriven, the notifications worker reads exactly
 * those records again from the stream. On kinesalite in this process, with the local event source giving it up.
 */
const kinesisClient = kinesaliteInProcess();

let streams = 0;
/** A stream of one shard holding a change a record, `n` of them, put in order: its name, ARN and sequence numbers. */
async function streamOf(n: number) {
  const name = `statuses-${++streams}`;
  await kinesisClient().send(new CreateStreamCommand({ StreamName: name, ShardCount: 1 }));
  for (;;) {
    const { StreamDescriptionSummary: s } = await kinesisClient().send(new DescribeStreamSummaryCommand({ StreamName: name }));
    if (s?.StreamStatus === 'ACTIVE') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const change = (i: number) => ({ waba_id: 'w1', at: i, field: 'messages', value: { n: i } });
  const put = await kinesisClient().send(
    new PutRecordsCommand({
      StreamName: name,
      Records: Array.from({ length: n }, (_, i) => ({ PartitionKey: 'send:s1:0', Data: Buffer.from(JSON.stringify(change(i))) })),
    }),
  );
  const seqs = (put.Records ?? []).map((r) => r.SequenceNumber as string);
  return { name, arn: `arn:aws:kinesis:us-east-1:000000000000:stream/${name}`, shard: put.Records?.[0]?.ShardId as string, seqs };
}

describe('a batch of the statuses’ stream given up on, redriven (issue 54)', () => {
  it('is read again from its first sequence number to its last: those records, in order, and no other', async () => {
    // Prepare: ten records; the batch given up on is the fourth to the seventh
    const stream = await streamOf(10);
    const batch: GivenUpBatch = {
      shardId: stream.shard,
      startSequenceNumber: stream.seqs[3],
      endSequenceNumber: stream.seqs[6],
      batchSize: 4,
      streamArn: stream.arn,
    };
    // Act
    const changes = await readGivenUpBatch({ client: kinesisClient(), name: stream.name }, batch);
    // Assess
    expect(changes.map((c) => c.at)).toEqual([3, 4, 5, 6]);
  });

  it('reads back what the local event source named on giving a batch up, and the notifications worker takes that record', async () => {
    // Prepare: six records; a worker that reports every batch's first record failed
    const stream = await streamOf(6);
    const givenUp: Record<string, unknown>[] = [];
    const stop = pollStream({
      kinesis: kinesisClient(),
      stream: { name: stream.name, arn: stream.arn },
      batchSize: 100,
      batchWindowMs: 50,
      retryAttempts: 2,
      name: 'ApplyMetaStatuses',
      timeoutMs: 30_000,
      handler: async (event) => ({ batchItemFailures: [{ itemIdentifier: event.Records[0].kinesis.sequenceNumber }] }),
      checkpoint: async () => undefined,
      giveUp: async (failure) => void givenUp.push(failure),
      retryDelayMs: 10,
    });
    const deadline = Date.now() + 20_000;
    const named = () => givenUp.map((failure) => (failure as { KinesisBatchInfo: GivenUpBatch }).KinesisBatchInfo);
    while (named().reduce((n, batch) => n + batch.batchSize, 0) < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await stop();
    // Act
    const read = [];
    for (const batch of named()) read.push(...(await readGivenUpBatch({ client: kinesisClient(), name: stream.name }, batch)));
    // Assess: the six records, once each, in order; each record the notifications queue's body
    expect(read.map((c) => c.at)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const failure of givenUp) {
      expect(failure).toMatchObject({ requestContext: { condition: 'RetryAttemptsExhausted' } });
      expect(v.safeParse(ApplyMetaNotifications.body, failure).success).toBe(true);
    }
  });

  it('is refused when the stream no longer holds its first record, or it names another stream', async () => {
    // Prepare: a sequence number the shard never had (past the last), and the right range on another stream's ARN
    const stream = await streamOf(3);
    const at = (start: string, arn = stream.arn): GivenUpBatch => ({
      shardId: stream.shard,
      startSequenceNumber: start,
      endSequenceNumber: start,
      batchSize: 1,
      streamArn: arn,
    });
    const past = String(BigInt(stream.seqs[2]) + 1n);
    // Act / Assess
    await expect(readGivenUpBatch({ client: kinesisClient(), name: stream.name }, at(past))).rejects.toBeInstanceOf(BatchNotOnStream);
    await expect(
      readGivenUpBatch(
        { client: kinesisClient(), name: stream.name },
        at(stream.seqs[0], 'arn:aws:kinesis:us-east-1:000000000000:stream/other'),
      ),
    ).rejects.toBeInstanceOf(BatchNotOnStream);
  });
});
