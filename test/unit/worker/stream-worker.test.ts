import type { Context, KinesisStreamEvent } from 'aws-lambda';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { WorkerDef } from '#lib/manifest/workers.ts';
import { type StreamRecordResult, streamBatchWorker } from '#lib/worker/stream-worker.ts';

/**
 * A stream's worker (issue 54): a shard's batch to its handler in order, a record that must wait handed on, and
 * failures reported as Lambda's Kinesis event source reads them (the first record it could not finish, or the
 * invocation failed so the batch is halved).
 */
const context = { awsRequestId: 'inv-1', functionName: 'TestStreamWorker', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const worker: WorkerDef = {
  name: 'TestStreamWorker',
  entry: 'functions/workers/test.ts',
  trigger: {
    stream: 'metaStatuses',
    batchSize: 100,
    batchWindowSeconds: 1,
    parallelization: 1,
    retryAttempts: 2,
    failuresTo: 'metaNotifications',
  },
  needs: { table: 'none' },
  body: v.looseObject({ n: v.pipe(v.number(), v.integer()) }),
  timeoutSeconds: 30,
};
const seq = (i: number) => `4968${String(i).padStart(52, '0')}`;
/** A shard's records with these bodies (objects as JSON, strings as they are), sequence numbers in order. */
const shardBatch = (...bodies: unknown[]): KinesisStreamEvent => ({
  Records: bodies.map((body, i) => ({
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: 'k',
      sequenceNumber: seq(i),
      data: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)).toString('base64'),
      approximateArrivalTimestamp: 1,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `shardId-000000000000:${seq(i)}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:kinesis:us-east-1:000000000000:stream/s',
  })),
});
const later = { later: { afterSeconds: 2, reason: 'its block is not settled yet' } };

describe('a stream worker (issue 54)', () => {
  it('hands the batch over in its order, reads past a record that is not its body, and sets aside the ones that must wait', async () => {
    // Prepare: five records, the third not JSON, the fourth of another shape; the second and the fifth must wait
    const seen: number[] = [];
    const setAside: { messages: unknown[]; seconds: number }[] = [];
    const handler = streamBatchWorker<{ n: number }>(
      worker,
      async (records) => {
        seen.push(...records.map(({ message }) => message.n));
        return records.map(({ message }): StreamRecordResult => (message.n === 2 || message.n === 5 ? later : undefined));
      },
      {
        keysOf: (m) => ({ correlation_id: String(m.n) }),
        setAside: async (messages, seconds) => void setAside.push({ messages, seconds }),
      },
    );
    // Act
    const answer = await handler(shardBatch({ n: 1 }, { n: 2 }, 'not json', { n: 'four' }, { n: 5 }), context);
    // Assess: the readable ones in order, the waiting two set aside together, nothing reported failed
    expect(seen).toEqual([1, 2, 5]);
    expect(setAside).toEqual([{ messages: [{ n: 2 }, { n: 5 }], seconds: 2 }]);
    expect(answer).toEqual({ batchItemFailures: [] });
  });

  it('reports the first record that must wait when they cannot be set aside: the shard goes on from it', async () => {
    // Prepare: a queue that refuses (an injected fault), the second and fourth records waiting
    const handler = streamBatchWorker<{ n: number }>(
      worker,
      async (records) => records.map(({ message }) => (message.n % 2 === 0 ? later : undefined)),
      {
        keysOf: (m) => ({ correlation_id: String(m.n) }),
        setAside: async () => {
          throw Object.assign(new Error('refused'), { name: 'QueueDoesNotExist' });
        },
      },
    );
    // Act
    const answer = await handler(shardBatch({ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }), context);
    // Assess: Lambda checkpoints before the second record and reads it and the rest again
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: seq(1) }] });
  });

  it('fails the invocation when its handler throws, so the event source halves the batch and tries again', async () => {
    // Prepare: a handler whose table is unreachable (an injected fault)
    const handler = streamBatchWorker<{ n: number }>(
      worker,
      async () => {
        throw Object.assign(new Error('unreachable'), { name: 'ServiceUnavailable' });
      },
      { keysOf: (m) => ({ correlation_id: String(m.n) }), setAside: async () => undefined },
    );
    // Act, Assess
    await expect(handler(shardBatch({ n: 1 }, { n: 2 }), context)).rejects.toThrow('unreachable');
  });

  it('is made only for a worker that reads a stream', () => {
    // Prepare
    const queueWorker: WorkerDef = { ...worker, trigger: { queue: 'dispatch', batchSize: 10 } };
    // Act, Assess
    expect(() => streamBatchWorker(queueWorker, async () => [], { keysOf: () => ({}), setAside: async () => undefined })).toThrow(
      'not a stream consumer',
    );
  });
});
