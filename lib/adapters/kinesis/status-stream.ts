import { KinesisClient, PutRecordsCommand, type PutRecordsRequestEntry } from '@aws-sdk/client-kinesis';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { StatusStream } from '#lib/domain/inbound/ports.ts';
import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';

/**
 * A stream as the status stream adapter gets it, through its constructor: the Kinesis client and the stream's
 * name (lib/wiring/streams.ts: the function's settings; a test: its own).
 */
export interface ServiceStream {
  readonly client: KinesisClient;
  readonly name: string;
}

/**
 * A Kinesis client with the settings of the process (AWS_ENDPOINT_URL_KINESIS points it at the local stack's
 * server). HTTP/1.1 with kept connections, as the other clients: the SDK's Kinesis default is HTTP/2, which only
 * SubscribeToShard needs and a local Kinesis-compatible server does not speak.
 */
export const newStreamClient = (endpoint?: string) =>
  new KinesisClient({ requestHandler: new NodeHttpHandler(), ...(endpoint && { endpoint }) });

/** Kinesis's limits on one PutRecords: 500 records, 5 MiB for them all (data and partition keys). */
export const PUT_RECORDS = 500;
export const PUT_BYTES = 5 * 1024 * 1024;
/** Tries of the records a shard refused (over its 1,000 records or 1 MB a second), with backoff, before the put fails. */
const TRIES = 4;

/** Changes in the fewest PutRecords the limits allow, in order. */
export function packRecords(entries: PutRecordsRequestEntry[]): PutRecordsRequestEntry[][] {
  const batches: PutRecordsRequestEntry[][] = [];
  let current: PutRecordsRequestEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = (entry.Data?.byteLength ?? 0) + Buffer.byteLength(entry.PartitionKey ?? '');
    if (current.length > 0 && (current.length >= PUT_RECORDS || bytes + size > PUT_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Puts each change on the stream under its `stream_key`, as JSON: the records a shard refused are put again (with
 * backoff); any still refused fails the call, so the endpoint answers 5xx and Meta sends the POST again.
 */
export class KinesisStatusStream implements StatusStream {
  constructor(private readonly stream: ServiceStream) {}

  async put(changes: NotifiedChange[]) {
    const entries = changes.map((change) => ({
      PartitionKey: change.stream_key ?? change.waba_id,
      Data: Buffer.from(JSON.stringify(change)),
    }));
    for (const batch of packRecords(entries)) await this.putAll(batch);
  }

  private async putAll(entries: PutRecordsRequestEntry[]) {
    let pending = entries;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const answer = await this.stream.client.send(new PutRecordsCommand({ StreamName: this.stream.name, Records: pending }));
      if (!answer.FailedRecordCount) return;
      pending = pending.filter((_, i) => answer.Records?.[i]?.ErrorCode);
      if (attempt >= TRIES) throw new Error(`Kinesis refused ${pending.length} of ${entries.length} records`);
      await new Promise((r) => setTimeout(r, Math.random() * 25 * 2 ** attempt));
    }
  }
}
