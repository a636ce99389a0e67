import { performance } from 'node:perf_hooks';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emptyMeter, meterDynamo, meterQueue, type RequestMeter } from '../local/request-meter.ts';

/**
 * What a bench row measures with (bench/store-paths.ts, bench/send-accept.ts alone): a meter on the table's client
 * and on an SQS client of its own, work timed under it, and the SQS batches kept from a moment on.
 */
export function benchHarness(tableClient: DynamoDBDocumentClient) {
  let meter: RequestMeter | undefined;
  meterDynamo(tableClient, () => meter, 'benchMeter');
  const sqs = new SQSClient({});
  let captured: string[][] = [];
  meterQueue(
    sqs,
    () => meter,
    'benchQueueMeter',
    (bodies) => captured.push(bodies),
  );
  return {
    sqs,
    /** The work's answer, the requests it made and its time. */
    async metered<T>(work: () => Promise<T>): Promise<{ value: T; meter: RequestMeter; ms: number }> {
      meter = emptyMeter();
      const start = performance.now();
      const value = await work();
      const ms = performance.now() - start;
      const used = meter;
      meter = undefined;
      return { value, meter: used, ms };
    },
    /** Starts keeping the SQS batches sent from now; the answer holds them. */
    capture() {
      captured = [];
      return captured;
    },
  };
}

/** The fastest of each, ours and the baseline run alternately (after one warm-up of each), so drift hits both. */
export async function alternating(rounds: number, ours: () => Promise<unknown>, baseline: () => Promise<unknown>) {
  await ours();
  await baseline();
  let best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let round = 0; round < rounds; round++) {
    let start = performance.now();
    await ours();
    const a = performance.now() - start;
    start = performance.now();
    await baseline();
    best = [Math.min(best[0], a), Math.min(best[1], performance.now() - start)];
  }
  return best as [number, number];
}

/** A row of the store-path bench: our path and its baseline, timed and counted (BENCHMARKS.md). */
export interface StoreRow {
  path: string;
  ms: number;
  baselineMs: number;
  baseline: string;
  counts: string;
  budget: string;
}
