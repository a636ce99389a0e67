import {
  GetRecordsCommand,
  GetShardIteratorCommand,
  type KinesisClient,
  ListShardsCommand,
  type _Record as KinesisRecord,
} from '@aws-sdk/client-kinesis';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { lambdaContext } from './api-server.ts';
import { recordInvocation } from './usage.ts';

/** A stream's event source mapping, as Lambda's for Kinesis runs it (issue 54): where it reads, how it batches and retries. */
export interface StreamSourceMapping {
  kinesis: KinesisClient;
  stream: { name: string; arn: string };
  batchSize: number;
  /** How long a batch gathers records after its first (Lambda's MaximumBatchingWindowInSeconds). */
  batchWindowMs: number;
  /** Tries of a failing batch after its first, before its records are given up (MaximumRetryAttempts). */
  retryAttempts: number;
  name: string;
  timeoutMs: number;
  handler: (event: KinesisStreamEvent, context: ReturnType<typeof lambdaContext>) => Promise<KinesisStreamBatchResponse | undefined>;
  /** A shard read up to `seq`: every record to it applied (the journal keeps it across a crash). */
  checkpoint: (shard: string, seq: string) => Promise<void>;
  /** A batch given up after its retries: what Lambda sends its on-failure destination. */
  giveUp: (failure: Record<string, unknown>) => Promise<void>;
  /** How long a failed batch waits before it is tried again (Lambda backs off; here a moment). */
  retryDelayMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The Kinesis event Lambda hands its function for a batch of a shard's records. */
export function kinesisEventOf(records: KinesisRecord[], shardId: string, streamArn: string): KinesisStreamEvent {
  return {
    Records: records.map((r) => ({
      kinesis: {
        kinesisSchemaVersion: '1.0',
        partitionKey: r.PartitionKey ?? '',
        sequenceNumber: r.SequenceNumber ?? '',
        data: Buffer.from(r.Data ?? new Uint8Array()).toString('base64'),
        approximateArrivalTimestamp: (r.ApproximateArrivalTimestamp?.getTime() ?? Date.now()) / 1000,
      },
      eventSource: 'aws:kinesis',
      eventVersion: '1.0',
      eventID: `${shardId}:${r.SequenceNumber}`,
      eventName: 'aws:kinesis:record',
      invokeIdentityArn: 'arn:aws:iam::000000000000:role/local-stream-reader',
      awsRegion: 'us-east-1',
      eventSourceARN: streamArn,
    })),
  };
}

/**
 * What became of a batch: how many of its first records are done (all of them, or those before the lowest
 * sequence number it reported, ReportBatchItemFailures), and whether the function threw.
 */
export async function invokeBatch(mapping: StreamSourceMapping, shardId: string, batch: KinesisRecord[]) {
  const started = performance.now();
  try {
    const response = await mapping.handler(
      kinesisEventOf(batch, shardId, mapping.stream.arn),
      lambdaContext(mapping.name, crypto.randomUUID(), mapping.timeoutMs),
    );
    const failed = (response?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
    if (failed.length === 0) return { done: batch.length, threw: false };
    const at = batch.findIndex((r) => failed.includes(r.SequenceNumber ?? ''));
    // An identifier that names no record of the batch is a whole failure, as Lambda reads it.
    return { done: Math.max(0, at), threw: false };
  } catch {
    return { done: 0, threw: true };
  } finally {
    recordInvocation(mapping.name, performance.now() - started);
  }
}

/** One shard's reading: its records fetched and not yet applied, in order. */
interface ShardReading {
  shardId: string;
  iterator?: string;
  /** The last record fetched, to ask again from after it when an iterator ran out. */
  lastFetched?: string;
  pending: KinesisRecord[];
  /** When the first pending record was fetched: the batch window runs from it. */
  firstAt?: number;
  /** The batch's most records (halved after a batch that threw, BisectBatchOnFunctionError). */
  cap: number;
  attempts: number;
}

/** More records of the shard, while its batch has room: GetRecords from its iterator (a new one when it ran out). */
async function fetchMore(mapping: StreamSourceMapping, shard: ShardReading) {
  if (shard.pending.length >= shard.cap) return;
  try {
    if (!shard.iterator) {
      const after = shard.lastFetched;
      shard.iterator = (
        await mapping.kinesis.send(
          new GetShardIteratorCommand({
            StreamName: mapping.stream.name,
            ShardId: shard.shardId,
            ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
            ...(after && { StartingSequenceNumber: after }),
          }),
        )
      ).ShardIterator;
    }
    const got = await mapping.kinesis.send(
      new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: Math.min(10_000, shard.cap - shard.pending.length) }),
    );
    shard.iterator = got.NextShardIterator;
    const records = got.Records ?? [];
    if (records.length === 0) return;
    shard.pending.push(...records);
    shard.lastFetched = records.at(-1)?.SequenceNumber;
    shard.firstAt ??= Date.now();
  } catch {
    // An iterator that expired, or the server busy: a new iterator from after the last record fetched.
    shard.iterator = undefined;
  }
}

/** The batch due now, if any: full, its window over since its first record, or a failed one to try again. */
const dueBatch = (mapping: StreamSourceMapping, shard: ShardReading) =>
  shard.pending.length > 0 &&
  (shard.pending.length >= shard.cap || shard.attempts > 0 || Date.now() - (shard.firstAt ?? 0) >= mapping.batchWindowMs)
    ? shard.pending.slice(0, shard.cap)
    : undefined;

/** Records done: out of the shard's pending ones, and its checkpoint moved past them. */
async function advance(mapping: StreamSourceMapping, shard: ShardReading, count: number) {
  if (count === 0) return;
  const done = shard.pending.splice(0, count);
  await mapping.checkpoint(shard.shardId, done.at(-1)?.SequenceNumber ?? '');
  shard.firstAt = shard.pending.length > 0 ? Date.now() : undefined;
}

/**
 * One batch through the function and what follows, as Lambda's event source does: done records checkpointed;
 * after a reported failure the shard goes on from the failed record; after a throw the batch is halved; a batch
 * that failed more than `retryAttempts` times is given up (named on the on-failure destination) and skipped.
 */
async function applyBatch(mapping: StreamSourceMapping, shard: ShardReading, batch: KinesisRecord[]) {
  const { done, threw } = await invokeBatch(mapping, shard.shardId, batch);
  if (done === batch.length) {
    await advance(mapping, shard, done);
    shard.attempts = 0;
    shard.cap = mapping.batchSize;
    return;
  }
  await advance(mapping, shard, done);
  if (threw && batch.length > 1) {
    // Halved until the record that fails is alone: the halving is not a retry of it.
    shard.cap = Math.ceil(batch.length / 2);
    return;
  }
  shard.attempts += 1;
  if (shard.attempts > mapping.retryAttempts) {
    const failed = batch.slice(done);
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'stream batch given up after its retries',
        function: mapping.name,
        records: failed.length,
      }),
    );
    await mapping.giveUp({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: shard.attempts },
      KinesisBatchInfo: {
        shardId: shard.shardId,
        startSequenceNumber: failed[0]?.SequenceNumber,
        endSequenceNumber: failed.at(-1)?.SequenceNumber,
        batchSize: failed.length,
        streamArn: mapping.stream.arn,
      },
    });
    await advance(mapping, shard, failed.length);
    shard.attempts = 0;
    shard.cap = mapping.batchSize;
    return;
  }
  await sleep(mapping.retryDelayMs ?? 500);
}

/**
 * What Lambda's Kinesis event source mapping does (issue 54), a reader a shard (ParallelizationFactor 1): read
 * the shard from its oldest record, gather a batch up to its size or window, invoke the consumer with a Kinesis
 * event, and go on as the answer says. Records of one shard, and so of one partition key, reach the function in
 * order, a batch after the last is done.
 */
export function pollStream(mapping: StreamSourceMapping) {
  let running = true;
  const readShard = async (shardId: string) => {
    const shard: ShardReading = { shardId, pending: [], cap: mapping.batchSize, attempts: 0 };
    while (running) {
      await fetchMore(mapping, shard);
      const batch = dueBatch(mapping, shard);
      if (batch) await applyBatch(mapping, shard, batch);
      else await sleep(shard.pending.length > 0 ? 50 : 200);
    }
  };
  const finished = (async () => {
    const { Shards = [] } = await mapping.kinesis.send(new ListShardsCommand({ StreamName: mapping.stream.name }));
    await Promise.all(Shards.map((s) => readShard(s.ShardId ?? '')));
  })().catch(() => undefined);
  return async () => {
    running = false;
    await finished;
  };
}
