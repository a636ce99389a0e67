import type { Context, SQSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type WorkerDef, workers } from '#lib/manifest/workers.ts';
import { DispatchJobMessage } from '#lib/schemas/queue-messages.ts';
import { queueBatchWorker, queueWorker } from '#lib/worker/queue-worker.ts';

const context = { awsRequestId: 'inv-1', functionName: 'TestWorker', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const worker: WorkerDef = {
  name: 'TestWorker',
  entry: 'functions/workers/test.ts',
  trigger: { queue: 'dispatch', batchSize: 10 },
  needs: { table: 'none' },
  body: v.looseObject({ n: v.pipe(v.number(), v.integer()) }),
  timeoutSeconds: 30,
};
const batch = (...bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, i) => ({
    messageId: `m${i}`,
    receiptHandle: `rh${i}`,
    body,
    attributes: { ApproximateReceiveCount: '1' },
  })) as never,
});

/** The lines the workers log while `act` runs (the logger prints JSON, errors on stderr). */
async function linesWhile<T>(act: () => Promise<T>) {
  const lines: Record<string, unknown>[] = [];
  const keep = (text: unknown) => {
    lines.push(JSON.parse(String(text)));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  process.env.LOG_LEVEL = 'INFO';
  try {
    return { result: await act(), lines };
  } finally {
    process.env.LOG_LEVEL = 'SILENT';
    vi.restoreAllMocks();
  }
}

afterEach(() => {
  process.env.LOG_LEVEL = 'SILENT';
});

describe('a queue worker checks each message against its manifest body', () => {
  it('refuses a message of another shape before its handler, logs why and fails it, and hands the others over as sent', async () => {
    // Prepare
    const seen: unknown[] = [];
    const handler = queueWorker<{ n: number }>(worker, (message) => void seen.push(message), {
      keysOf: (message) => ({ correlation_id: `c${message.n}` }),
    });
    // Act
    const { result, lines } = await linesWhile(() => handler(batch('{"n":1,"extra":"kept"}', '{"n":"two"}', '{}'), context));
    // Assess
    expect(seen).toEqual([{ n: 1, extra: 'kept' }]);
    expect(result.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['m1', 'm2']);
    const refused = lines.filter((line) => line.message === 'message body refused');
    expect(refused.map((line) => line.message_id).sort()).toEqual(['m1', 'm2']);
    expect(refused.find((line) => line.message_id === 'm1')?.issues).toEqual([expect.stringMatching(/^n: /)]);
  });

  it('fails only the refused messages of a batch worker’s batch', async () => {
    // Prepare
    const batches: number[][] = [];
    const handler = queueBatchWorker<{ n: number }>(
      worker,
      async (records) => {
        batches.push(records.map(({ message }) => message.n));
        return records.map(() => undefined);
      },
      { keysOf: (message) => ({ correlation_id: `c${message.n}` }) },
    );
    // Act
    const { result } = await linesWhile(() => handler(batch('{"n":1}', '{"n":1.5}', '{"n":3}'), context));
    // Assess
    expect(batches).toEqual([[1, 3]]);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
  });
});

describe('the manifest’s queue workers', () => {
  it('each name the body of their messages, and their samples are of it', () => {
    // Prepare
    const consumers = workers.filter((w) => 'queue' in w.trigger);
    // Act
    const unchecked = consumers.filter((w) => !w.body).map((w) => w.name);
    const refusedSamples = consumers.flatMap((w) => (w.sample ?? []).filter((sample) => w.body && !v.is(w.body, sample)).map(() => w.name));
    // Assess
    expect(consumers.length).toBeGreaterThan(0);
    expect(unchecked).toEqual([]);
    expect(refusedSamples).toEqual([]);
  });

  it('refuse a dispatch job without its recipients or with a client id that is not a number', () => {
    // Prepare
    const job = workers.find((w) => w.name === 'DispatchMessages')!.sample![0] as Record<string, unknown>;
    // Act
    const whole = v.is(DispatchJobMessage, job);
    const withoutRecipients = v.is(DispatchJobMessage, { ...job, recipients: undefined });
    const clientAsText = v.is(DispatchJobMessage, { ...job, client_id: '7' });
    // Assess
    expect([whole, withoutRecipients, clientAsText]).toEqual([true, false, false]);
  });
});
