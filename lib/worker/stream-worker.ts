import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import * as v from 'valibot';
import { inInvocation, workLogger } from '#lib/log/logger.ts';
import type { StreamTrigger, WorkerDef } from '#lib/manifest/workers.ts';

/** A stream record as its batch handler gets it: its body, a logger of its own and where it stands in its shard. */
export interface StreamRecordWork {
  log: Logger;
  /** Its sequence number in its shard: what the batch names when it could not finish it. */
  sequenceNumber: string;
  context: Context;
}

/** What became of a record: done (undefined), or to wait (`later`), which a stream cannot hold back. */
export type StreamRecordResult = { later: { afterSeconds: number; reason: string } } | undefined;

export interface StreamWorkerOptions<M> {
  /** The keys on every line about one record: at least its correlation id. */
  keysOf: (message: M, record: KinesisStreamRecord) => Record<string, string | number>;
  /**
   * Hands records that must wait to what retries them (a queue), to come back after `seconds`. Failing, the
   * batch names the first of them: the shard goes on from there, the records after it read again.
   */
  setAside: (messages: M[], seconds: number) => Promise<void>;
}

/** The stream a worker consumes, checked once. */
function consumedStream(worker: WorkerDef): StreamTrigger {
  if (!('stream' in worker.trigger)) throw new Error(`${worker.name} is not a stream consumer`);
  return worker.trigger;
}

/**
 * A record's body: its data as JSON, checked against its worker's `body`. One that is not (never put by the
 * service's own endpoint, and never right however often it is read) is logged and left behind: a shard cannot
 * hold it back without holding back every record after it.
 */
function readRecord<M>(worker: WorkerDef, record: KinesisStreamRecord, context: Context): M | undefined {
  const at = { request_id: context.awsRequestId, sequence_number: record.kinesis.sequenceNumber };
  try {
    const body: unknown = JSON.parse(Buffer.from(record.kinesis.data, 'base64').toString('utf8'));
    const read = worker.body ? v.safeParse(worker.body, body) : { success: true as const };
    if (read.success) return body as M;
    workLogger(at, context).error('stream record refused: not its worker’s body', { worker: worker.name });
  } catch {
    workLogger(at, context).error('stream record refused: not JSON', { worker: worker.name });
  }
  return undefined;
}

/**
 * A stream worker (issue 54): its manifest entry (lib/manifest/workers.ts, a `stream` trigger) plus one batch
 * handler, the twin of queueBatchWorker. The records of a shard come in order; the handler takes them together and
 * answers each one's result in their order. Records that must wait are handed to `setAside` together; a failure
 * to do so is reported as the first of them (ReportBatchItemFailures: the event source goes on from it). A handler
 * that throws fails the invocation: the event source halves the batch and tries again (BisectBatchOnFunctionError),
 * so a record that always fails ends alone, given up after the trigger's retries; a repeat changes nothing.
 */
export function streamBatchWorker<M>(
  worker: WorkerDef,
  handleBatch: (records: { message: M; work: StreamRecordWork }[]) => Promise<StreamRecordResult[]>,
  options: StreamWorkerOptions<M>,
) {
  consumedStream(worker);
  return (event: KinesisStreamEvent, context: Context): Promise<KinesisStreamBatchResponse> =>
    inInvocation(context, {}, async () => {
      const read = event.Records.flatMap((record) => {
        const message = readRecord<M>(worker, record, context);
        if (message === undefined) return [];
        const log = workLogger({ request_id: context.awsRequestId, ...options.keysOf(message, record) }, context);
        return [{ message, work: { log, sequenceNumber: record.kinesis.sequenceNumber, context } }];
      });
      if (read.length === 0) return { batchItemFailures: [] };
      let results: StreamRecordResult[];
      try {
        results = await handleBatch(read);
      } catch (error) {
        read[0].work.log.error('stream batch failed; the event source halves it and tries again', {
          error: (error as Error).name,
          detail: (error as Error).message,
          records: read.length,
        });
        throw error;
      }
      const waiting = read.flatMap((record, i) => {
        const later = results[i]?.later;
        return later ? [{ ...record, later }] : [];
      });
      if (waiting.length === 0) return { batchItemFailures: [] };
      try {
        await options.setAside(
          waiting.map(({ message }) => message),
          Math.min(...waiting.map(({ later }) => later.afterSeconds)),
        );
        return { batchItemFailures: [] };
      } catch (error) {
        waiting[0].work.log.warn('records that must wait could not be set aside; the shard goes on from the first', {
          error: (error as Error).name,
          records: waiting.length,
        });
        return { batchItemFailures: [{ itemIdentifier: waiting[0].work.sequenceNumber }] };
      }
    });
}
