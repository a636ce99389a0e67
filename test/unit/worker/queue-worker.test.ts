import type { Context, SQSEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { queueBatchWorker, queueWorker } from '#lib/worker/queue-worker.ts';
import type { WorkerDef } from '#lib/manifest/workers.ts';

const worker = (redelivers: boolean): WorkerDef => ({
  name: 'TestWorker',
  entry: 'functions/workers/test.ts',
  trigger: { queue: 'dispatch', batchSize: 10, redelivers },
  needs: { table: 'none' },
  timeoutSeconds: 30,
});
const context = { awsRequestId: 'inv-1', functionName: 'TestWorker', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const batch = (...bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, i) => ({
    messageId: `m${i}`,
    receiptHandle: `rh${i}`,
    body,
    attributes: { ApproximateReceiveCount: String(i + 1) },
  })) as never,
});

describe('queueWorker: a manifest entry plus one record handler', () => {
  it('hands each parsed message its receive count, reports failures per message, and redelivers on the manifest’s queue', async () => {
    // Prepare
    process.env.DISPATCH_QUEUE_URL = 'http://127.0.0.1:1/queue/dispatch';
    const redeliver = vi.fn(async () => undefined);
    const seen: [number, number][] = [];
    const handler = queueWorker<{ n: number }>(
      worker(true),
      (message, { receive }) => {
        seen.push([message.n, receive]);
        if (message.n === 2) return { retry: { afterSeconds: 4.4, reason: 'not yet' } };
        if (message.n === 3) throw new Error('broken');
      },
      { keysOf: (message) => ({ correlation_id: `c${message.n}` }), redeliver },
    );
    // Act
    const result = await handler(batch('{"n":1}', '{"n":2}', '{"n":3}', 'not json'), context);
    // Assess
    expect(seen.sort()).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(result.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['m1', 'm2', 'm3']);
    expect(redeliver).toHaveBeenCalledExactlyOnceWith('http://127.0.0.1:1/queue/dispatch', 'rh1', 4);
  });

  it('reports each invocation’s own failures when two overlap in one process (the local stack runs them side by side)', async () => {
    // Prepare: the first invocation's first message retries at once, its second waits until the second invocation is done
    process.env.DISPATCH_QUEUE_URL = 'http://127.0.0.1:1/queue/dispatch';
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = queueWorker<{ n: number }>(
      worker(true),
      async (message) => {
        if (message.n === 1) return { retry: { afterSeconds: 1, reason: 'later' } };
        if (message.n === 3) await held;
      },
      { keysOf: (message) => ({ correlation_id: `c${message.n}` }), redeliver: async () => undefined },
    );
    // Act
    const first = handler(batch('{"n":1}', '{"n":3}'), context);
    await new Promise((resolve) => setImmediate(resolve));
    const secondResult = await handler(batch('{"n":2}'), context);
    release();
    const firstResult = await first;
    // Assess: the retry stays the first invocation's failure, not cleared by the second's batch
    expect(firstResult.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    expect(secondResult.batchItemFailures).toEqual([]);
  });

  it('asks a retried message whether it comes back now once its redelivery is set, and brings it back at once when so', async () => {
    // Prepare: a paused job whose template was let go meanwhile, one still paused, and one whose question fails
    process.env.DISPATCH_QUEUE_URL = 'http://127.0.0.1:1/queue/dispatch';
    const calls: [string, number][] = [];
    const redeliver = vi.fn(async (_url: string, receipt: string, seconds: number) => {
      calls.push([receipt, seconds]);
    });
    const answers: Record<number, () => Promise<boolean>> = {
      1: async () => calls.some(([receipt]) => receipt === 'rh0'),
      2: async () => false,
      3: async () => {
        throw new Error('the table is unreachable');
      },
    };
    const handler = queueWorker<{ n: number }>(
      worker(true),
      (message, { receiptHandle }) => ({
        retry: { afterSeconds: 300, reason: `paused ${receiptHandle}`, comeBackNow: answers[message.n] },
      }),
      { keysOf: (message) => ({ correlation_id: `c${message.n}` }), redeliver },
    );
    // Act
    const result = await handler(batch('{"n":1}', '{"n":2}', '{"n":3}'), context);
    // Assess: each set to its recheck first; the one let go then at once
    expect(result.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['m0', 'm1', 'm2']);
    expect(calls.filter(([receipt]) => receipt === 'rh0')).toEqual([
      ['rh0', 300],
      ['rh0', 0],
    ]);
    expect(calls.filter(([receipt]) => receipt !== 'rh0').sort()).toEqual([
      ['rh1', 300],
      ['rh2', 300],
    ]);
  });

  it('refuses a worker that redelivers without the redelivery function, and a scheduled worker', () => {
    expect(() => queueWorker(worker(true), () => undefined, { keysOf: () => ({}) })).toThrow('redelivers');
    const scheduled = { ...worker(false), trigger: { everyMinutes: 1 } };
    expect(() => queueWorker(scheduled, () => undefined, { keysOf: () => ({}) })).toThrow('not a queue consumer');
  });
});

describe('queueBatchWorker: the batch to one handler', () => {
  it('hands every readable message over at once and fails only the unreadable, the ones to retry, or all when it throws', async () => {
    // Prepare
    process.env.DISPATCH_QUEUE_URL = 'http://127.0.0.1:1/queue/dispatch';
    const redeliver = vi.fn(async () => undefined);
    const batches: number[][] = [];
    const handler = queueBatchWorker<{ n: number }>(
      worker(true),
      async (records) => {
        batches.push(records.map(({ message }) => message.n));
        if (records.some(({ message }) => message.n === 9)) throw new Error('table down');
        return records.map(({ message }) => (message.n === 2 ? { retry: { afterSeconds: 2, reason: 'later' } } : undefined));
      },
      { keysOf: (message) => ({ correlation_id: `c${message.n}` }), redeliver },
    );
    // Act
    const result = await handler(batch('{"n":1}', '{"n":2}', 'not json'), context);
    const failed = await handler(batch('{"n":1}', '{"n":9}'), context);
    // Assess
    expect(batches).toEqual([
      [1, 2],
      [1, 9],
    ]);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m1', 'm2']);
    expect(redeliver).toHaveBeenCalledExactlyOnceWith('http://127.0.0.1:1/queue/dispatch', 'rh1', 2);
    expect(failed.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m0', 'm1']);
  });
});
