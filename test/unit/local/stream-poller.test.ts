import { CreateStreamCommand, DescribeStreamSummaryCommand, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { pollStream, type StreamSourceMapping } from '../../../local/stream-poller.ts';
import { kinesaliteInProcess } from '../../support/kinesalite.ts';

/**
 * The local stack's Kinesis event source (issue 54: Meta's statuses), on kinesalite in this process: a shard's
 * records reach the function in order, a key's always, batch after batch; a reported failure is read again from
 * that record on; a batch that throws is halved until its failing record is alone, given up after its retries.
 */
const kinesisClient = kinesaliteInProcess();

let streams = 0;
/** A new stream of `shards` shards holding these records (key, body), put in this order. */
async function streamOf(shards: number, records: [string, string][]) {
  const name = `test-${++streams}`;
  await kinesisClient().send(new CreateStreamCommand({ StreamName: name, ShardCount: shards }));
  for (;;) {
    const { StreamDescriptionSummary: s } = await kinesisClient().send(new DescribeStreamSummaryCommand({ StreamName: name }));
    if (s?.StreamStatus === 'ACTIVE') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  for (const [key, body] of records)
    await kinesisClient().send(new PutRecordsCommand({ StreamName: name, Records: [{ PartitionKey: key, Data: Buffer.from(body) }] }));
  return { name, arn: `arn:aws:kinesis:us-east-1:000000000000:stream/${name}` };
}

type Handler = (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse | undefined>;
const bodiesOf = (event: KinesisStreamEvent) => event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString());

/** Reads the stream with `handler` until `done` says so; what it checkpointed and gave up. */
async function readUntil(
  stream: { name: string; arn: string },
  handler: Handler,
  done: () => boolean,
  options: Partial<StreamSourceMapping> = {},
) {
  const checkpoints: string[] = [];
  const givenUp: Record<string, unknown>[] = [];
  const stop = pollStream({
    kinesis: kinesisClient(),
    stream,
    batchSize: 4,
    batchWindowMs: 50,
    retryAttempts: 2,
    name: 'TestStreamWorker',
    timeoutMs: 30_000,
    handler: (event) => handler(event),
    checkpoint: async (_shard, seq) => void checkpoints.push(seq),
    giveUp: async (failure) => void givenUp.push(failure),
    retryDelayMs: 10,
    ...options,
  });
  const deadline = Date.now() + 20_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await stop();
  return { checkpoints, givenUp };
}

describe('the local Kinesis event source (issue 54)', () => {
  it('hands each key’s records over in the order they were put, in batches of at most its size, across shards', async () => {
    // Prepare: 30 records of three keys, interleaved, on a stream of two shards
    const records = Array.from({ length: 30 }, (_, i) => [`key-${i % 3}`, `${i % 3}:${Math.floor(i / 3)}`] as [string, string]);
    const stream = await streamOf(2, records);
    const seen: string[] = [];
    const sizes: number[] = [];
    // Act
    await readUntil(
      stream,
      async (event) => {
        sizes.push(event.Records.length);
        seen.push(...bodiesOf(event));
        return undefined;
      },
      () => seen.length >= 30,
    );
    // Assess: every record once; within a key, in order
    expect(seen).toHaveLength(30);
    for (const key of ['0', '1', '2'])
      expect(seen.filter((body) => body.startsWith(`${key}:`))).toEqual(Array.from({ length: 10 }, (_, n) => `${key}:${n}`));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
  });

  it('reads again from the record a batch reported failed, the ones before it checkpointed, in order', async () => {
    // Prepare: six records of one key; the first batch reports its third record failed, once
    const stream = await streamOf(
      1,
      Array.from({ length: 6 }, (_, i) => ['k', `r${i}`] as [string, string]),
    );
    const batches: string[][] = [];
    // Act
    const { checkpoints } = await readUntil(
      stream,
      async (event) => {
        batches.push(bodiesOf(event));
        if (batches.length === 1) return { batchItemFailures: [{ itemIdentifier: event.Records[2].kinesis.sequenceNumber }] };
        return undefined;
      },
      () => batches.flat().includes('r5'),
    );
    // Assess: r0 and r1 done; r2 and r3 read again, then the rest; nothing out of order
    expect(batches[0]).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(batches[1]).toEqual(['r2', 'r3', 'r4', 'r5']);
    expect(checkpoints).toHaveLength(2);
  });

  it('halves a batch that throws until the failing record is alone, and gives it up after its retries', async () => {
    // Prepare: four records, the third of which always throws
    const stream = await streamOf(
      1,
      Array.from({ length: 4 }, (_, i) => ['k', `r${i}`] as [string, string]),
    );
    const applied: string[] = [];
    const tried: number[] = [];
    // Act
    const { givenUp } = await readUntil(
      stream,
      async (event) => {
        const bodies = bodiesOf(event);
        tried.push(bodies.length);
        if (bodies.includes('r2')) throw new Error('poison');
        applied.push(...bodies);
        return undefined;
      },
      () => applied.includes('r3'),
    );
    // Assess: 4 threw, then 2 (r0, r1) applied, then r2 alone thrice (a try and 2 retries) and given up, then r3
    expect(applied).toEqual(['r0', 'r1', 'r3']);
    expect(tried).toEqual([4, 2, 2, 1, 1, 1, 1]);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toMatchObject({ KinesisBatchInfo: { batchSize: 1 }, requestContext: { condition: 'RetryAttemptsExhausted' } });
  });
});
