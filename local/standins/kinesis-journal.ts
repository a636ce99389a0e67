import { type KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import type { LocalServer } from './local-server.ts';
import { DurableLog } from './sqs-journal/durable-log.ts';
import { serveJournaling } from './whole-proxy.ts';

/**
 * What the journal records of the streams (issue 54, decisions §16): a record the server accepted (its shard and
 * sequence number, its key and data), and how far the local event source has read a shard (every record up to
 * that sequence number applied).
 */
export type StreamJournalEntry =
  | { op: 'put'; stream: string; shard: string; seq: string; key: string; data: string }
  | { op: 'read'; stream: string; shard: string; seq: string };

/** A record the journal says is not read yet: put, and past its shard's last checkpoint. */
export interface LiveRecord {
  stream: string;
  key: string;
  /** Its data, base64. */
  data: string;
}

const shardOf = (entry: { stream: string; shard: string }) => `${entry.stream}/${entry.shard}`;

/** The records a journal leaves unread, in the order they were put (each shard's sequence numbers grow). */
export function liveRecords(entries: StreamJournalEntry[]): LiveRecord[] {
  const read = new Map<string, bigint>();
  for (const entry of entries) if (entry.op === 'read') read.set(shardOf(entry), BigInt(entry.seq));
  return entries.flatMap((entry) =>
    entry.op === 'put' && BigInt(entry.seq) > (read.get(shardOf(entry)) ?? -1n)
      ? [{ stream: entry.stream, key: entry.key, data: entry.data }]
      : [],
  );
}

/** The parts of Kinesis calls and answers (AWS JSON 1.1) the journal reads. */
interface KinesisCall {
  StreamName?: string;
  StreamARN?: string;
  PartitionKey?: string;
  Data?: string;
  Records?: { PartitionKey: string; Data: string }[];
}
interface KinesisAnswer {
  ShardId?: string;
  SequenceNumber?: string;
  Records?: { ShardId?: string; SequenceNumber?: string; ErrorCode?: string }[];
}

const streamNameOf = (call: KinesisCall) => call.StreamName ?? call.StreamARN?.split('/').pop() ?? '';

/**
 * A proxy in front of the Kinesis-compatible server that makes its streams durable, as the queues' journal does
 * the queues (local/standins/sqs-journal/): every record the server accepts is in the journal (on disk) before the
 * caller gets the answer, so a status acknowledged to Meta survives a crash at any moment; the local event source
 * writes each shard's checkpoint there once a batch is applied. The next start puts back what was not read yet
 * (`restoreStreams`), in its order: a key's records stay in order, and a record applied just before a crash may
 * be applied again, which changes nothing (its writes are conditioned).
 */
export class KinesisJournal {
  private local?: LocalServer;
  private log?: DurableLog<StreamJournalEntry>;
  url = '';

  constructor(private readonly target: string) {}

  async start(host: string) {
    this.local = await serveJournaling(this.target, host, {
      record: (target, body, answer) => this.record(target, body, answer),
      failure: { contentType: 'application/x-amz-json-1.1', type: 'InternalFailure' },
    });
    this.url = this.local.url;
    return this.url;
  }

  async stop() {
    await this.local?.stop();
    await this.log?.close();
  }

  /** The journal from now on: the earlier run's unread records, under the sequence numbers the server gave them again. */
  useLog(log: DurableLog<StreamJournalEntry>) {
    this.log = log;
  }

  /** A shard read up to `seq` (the local event source, once a batch is applied). */
  async checkpoint(stream: string, shard: string, seq: string) {
    await this.log?.append({ op: 'read', stream, shard, seq });
  }

  /** The journal entries of one answered put; awaited before answering. */
  private async record(target: string, requestBody: Buffer, answerText: string) {
    const action = target.replace(/^Kinesis_20131202\./, '');
    if (action !== 'PutRecord' && action !== 'PutRecords') return;
    if (!this.log) throw new Error('the journal is not open yet');
    const input = JSON.parse(requestBody.toString() || '{}') as KinesisCall;
    const output = JSON.parse(answerText || '{}') as KinesisAnswer;
    const stream = streamNameOf(input);
    const puts =
      action === 'PutRecord'
        ? [{ key: input.PartitionKey ?? '', data: input.Data ?? '', answer: output }]
        : (input.Records ?? []).map((r, i) => ({ key: r.PartitionKey, data: r.Data, answer: output.Records?.[i] ?? {} }));
    const entries: StreamJournalEntry[] = puts
      .filter(({ answer }) => answer.SequenceNumber && !('ErrorCode' in answer && answer.ErrorCode))
      .map(({ key, data, answer }) => ({ op: 'put', stream, shard: answer.ShardId ?? '', seq: answer.SequenceNumber ?? '', key, data }));
    await Promise.all(entries.map((entry) => this.log?.append(entry)));
  }
}

/**
 * Puts back what an earlier run's journal leaves unread (straight to the server, in PutRecords of up to 500, in
 * order) and starts the journal afresh with them; answers how many.
 */
export async function restoreStreams(
  file: string,
  kinesis: KinesisClient,
): Promise<{ log: DurableLog<StreamJournalEntry>; restored: number }> {
  const live = liveRecords(DurableLog.read<StreamJournalEntry>(file));
  const entries: StreamJournalEntry[] = [];
  for (let i = 0; i < live.length; ) {
    const stream = live[i].stream;
    const batch: LiveRecord[] = [];
    while (i < live.length && live[i].stream === stream && batch.length < 500) batch.push(live[i++]);
    const answer = await kinesis.send(
      new PutRecordsCommand({
        StreamName: stream,
        Records: batch.map((r) => ({ PartitionKey: r.key, Data: Buffer.from(r.data, 'base64') })),
      }),
    );
    for (const [j, r] of batch.entries()) {
      const put = answer.Records?.[j];
      if (put?.SequenceNumber)
        entries.push({ op: 'put', stream, shard: put.ShardId ?? '', seq: put.SequenceNumber, key: r.key, data: r.data });
    }
  }
  return { log: DurableLog.rewrite(file, entries), restored: entries.length };
}
