import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { batchGet } from '#lib/adapters/dynamo/queries.ts';

/** What a unit of work (an API request, a benchmark run) asked of DynamoDB and of SQS. */
export interface RequestMeter {
  operations: string[];
  /** Items DynamoDB read: a Query's scanned count, a GetItem's item, a BatchGetItem's answers. */
  itemsRead: number;
  /** Bytes of the items handed back, as JSON (close to what DynamoDB charges reads by). */
  bytesRead: number;
  /** Items written: a put/update/delete each, inside a transaction or a batch too. */
  itemsWritten: number;
  /** SQS requests, and the message bytes they carried. */
  queueRequests: number;
  queueBytes: number;
}

export const emptyMeter = (): RequestMeter => ({
  operations: [],
  itemsRead: 0,
  bytesRead: 0,
  itemsWritten: 0,
  queueRequests: 0,
  queueBytes: 0,
});

const sizeOf = (items: unknown[] | undefined) => (items ? Buffer.byteLength(JSON.stringify(items)) : 0);

/**
 * Meters every DynamoDB call of the client into the meter `current()` names (none: not metered). Local and
 * benchmark use only; the deployed functions never install it.
 */
export function meterDynamo(client: DynamoDBDocumentClient, current: () => RequestMeter | undefined, name = 'localMeter') {
  // A second stack in one process meters the same client again: its meter replaces the first.
  client.middlewareStack.remove(name);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const meter = current();
      const result = await next(args);
      if (!meter) return result;
      const command = String(context.commandName).replace(/Command$/, '');
      meter.operations.push(command);
      const input = args.input as { TransactItems?: unknown[]; RequestItems?: Record<string, unknown[]> };
      const output = result.output as {
        ScannedCount?: number;
        Items?: unknown[];
        Item?: unknown;
        Responses?: Record<string, unknown[]>;
      };
      if (command === 'Query' || command === 'Scan') {
        meter.itemsRead += Number(output.ScannedCount ?? output.Items?.length ?? 0);
        meter.bytesRead += sizeOf(output.Items);
      } else if (command === 'GetItem') {
        meter.itemsRead += output.Item ? 1 : 0;
        meter.bytesRead += sizeOf(output.Item ? [output.Item] : undefined);
      } else if (command === 'BatchGetItem') {
        const answers = Object.values(output.Responses ?? {}).flat() as unknown[];
        meter.itemsRead += answers.length;
        meter.bytesRead += sizeOf(answers);
      } else if (command === 'TransactWriteItems') {
        meter.itemsWritten += input.TransactItems?.length ?? 0;
      } else if (command === 'BatchWriteItem') {
        meter.itemsWritten += (Object.values(input.RequestItems ?? {}).flat() as unknown[]).length;
      } else if (['PutItem', 'UpdateItem', 'DeleteItem'].includes(command)) {
        meter.itemsWritten += 1;
      }
      return result;
    },
    { step: 'initialize', name },
  );
}

/** Meters every SQS request of the client (and the bytes of the messages it sends, handed to `capture` too). */
export function meterQueue(
  client: SQSClient,
  current: () => RequestMeter | undefined,
  name = 'localQueueMeter',
  capture?: (bodies: string[]) => void,
) {
  client.middlewareStack.remove(name);
  client.middlewareStack.add(
    (next) => async (args) => {
      const meter = current();
      if (meter) {
        meter.queueRequests += 1;
        const input = args.input as { MessageBody?: string; Entries?: { MessageBody?: string }[] };
        const bodies = input.Entries?.map((e) => e.MessageBody ?? '') ?? (input.MessageBody ? [input.MessageBody] : []);
        meter.queueBytes += bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
        capture?.(bodies);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
}

/** One write DynamoDB took: the item's key, whether in a transaction (twice the units), and its size when known. */
export interface KeyedWrite {
  pk: string;
  sk: string;
  transactional: boolean;
  /** The written item's bytes (a Put's); an update's or delete's is read when the writes are summed. */
  bytes?: number;
  /** An update's attribute names given as placeholders: what it changed (a write of figures alone, decisions §33). */
  touched?: string[];
}

/** Every write made while it records, by item key: what `/_local/writes` and the benchmark sum. */
export interface WriteLog {
  writes: KeyedWrite[];
}

type Keyed = { pk?: unknown; sk?: unknown };
const keyedWrite = (key: Keyed | undefined, transactional: boolean, item?: Record<string, unknown>): KeyedWrite[] =>
  key?.pk === undefined ? [] : [{ pk: String(key.pk), sk: String(key.sk), transactional, ...(item && { bytes: itemBytes(item) }) }];

/**
 * An item's size as DynamoDB counts it (its developer guide, "Item sizes and formats"): each attribute's name and
 * value in UTF-8 bytes; a number 1 byte a two significant digits and 1; a boolean or null 1; a list or map 3, and
 * 1 an element beside the element's own size (a map's keys are names); a set its elements'. JSON's punctuation
 * counted a fifth more on a block's latest items (issue 54: what a third of a block weighs is what it bills).
 */
export const itemBytes = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(String(value));
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, element) => sum + valueBytes(element), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueBytes(element), 0);
  return 3 + Object.entries(value as object).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueBytes(element), 0);
}

/** A number's bytes: its significant digits (leading and trailing zeroes trimmed), 1 byte a two, and 1. */
function numberBytes(text: string) {
  const digits = text
    .replace(/e.*$/i, '')
    .replace(/[^0-9]/g, '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

/** The writes of one request: a Put, Update or Delete, each item of a transaction or a batch. */
function writesOf(command: string, input: Record<string, unknown>): KeyedWrite[] {
  if (command === 'PutItem') return keyedWrite(input.Item as Keyed, false, input.Item as Record<string, unknown>);
  if (command === 'UpdateItem') return touching(keyedWrite(input.Key as Keyed, false), input);
  if (command === 'DeleteItem') return keyedWrite(input.Key as Keyed, false);
  if (command === 'TransactWriteItems') {
    return ((input.TransactItems ?? []) as Record<string, { Item?: Keyed; Key?: Keyed }>[]).flatMap((t) => {
      if (t.Put) return keyedWrite(t.Put.Item, true, t.Put.Item as Record<string, unknown>);
      if (t.Update) return touching(keyedWrite(t.Update.Key, true), t.Update as Record<string, unknown>);
      return t.Delete ? keyedWrite(t.Delete.Key, true) : [];
    });
  }
  if (command === 'BatchWriteItem') {
    const requests = Object.values(
      (input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Keyed }; DeleteRequest?: { Key: Keyed } }[]>,
    ).flat();
    return requests.flatMap((r) =>
      r.PutRequest
        ? keyedWrite(r.PutRequest.Item, false, r.PutRequest.Item as Record<string, unknown>)
        : keyedWrite(r.DeleteRequest?.Key, false),
    );
  }
  return [];
}

/** An update's writes with the attribute names it changed. */
const touching = (writes: KeyedWrite[], update: Record<string, unknown>) =>
  writes.map((w) => ({ ...w, touched: Object.values((update.ExpressionAttributeNames ?? {}) as Record<string, string>) }));

/** Records every write the client makes while `current()` names a log (what succeeded: DynamoDB took it). */
export function meterWritesByKey(client: DynamoDBDocumentClient, current: () => WriteLog | undefined, name = 'localWriteMeter') {
  client.middlewareStack.remove(name);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const log = current();
      if (log) log.writes.push(...writesOf(String(context.commandName).replace(/Command$/, ''), args.input as Record<string, unknown>));
      return result;
    },
    { step: 'initialize', name },
  );
}

export interface WriteTally {
  writes: number;
  units: number;
}

/** Writes and write units per item and per partition key, hottest first, and in all. */
export interface WriteSummary extends WriteTally {
  /** Each item's writes and units, and its largest size in bytes. */
  items: ({ pk: string; sk: string; bytes: number } & WriteTally)[];
  keys: ({ pk: string } & WriteTally)[];
}

/**
 * What the same writes would have been without some of what they wrote: `null`, the write would not have been made;
 * else the item as it would be (an update's, read now), its size what the write is counted at.
 */
export type WriteStrip = (write: KeyedWrite, item: Record<string, unknown> | undefined) => Record<string, unknown> | null | undefined;

/**
 * Sums a write log: a write's units are its item's size in whole KB (at least 1), twice in a transaction
 * (DynamoDB's pricing). An update's or delete's size is the item's now, read from the table in batches: items
 * that only grow, as a send's are, are counted at their largest, never less than they cost. With `strip`, each
 * write as it would have been without what it strips (bench/send-path.ts: what the performance aggregates add).
 */
export async function summarizeWrites(writes: KeyedWrite[], table: ServiceTable, strip?: WriteStrip): Promise<WriteSummary> {
  const id = (key: { pk: string; sk: string }) => `${key.pk}\u0000${key.sk}`;
  const unsized = new Map(writes.filter((w) => w.bytes === undefined).map((w) => [id(w), { pk: w.pk, sk: w.sk }]));
  const stored = new Map((await batchGet(table, [...unsized.values()], true)).map((item) => [id(item as never), item]));
  const sizes = new Map([...stored].map(([key, item]) => [key, itemBytes(item)]));
  const items = new Map<string, { pk: string; sk: string; bytes: number } & WriteTally>();
  const byKey = new Map<string, { pk: string } & WriteTally>();
  let units = 0;
  for (const w of writes) {
    const viewed = strip?.(w, stored.get(id(w)));
    if (viewed === null) continue;
    const bytes = w.bytes ?? (viewed ? itemBytes(viewed) : sizes.get(id(w))) ?? 0;
    const cost = Math.max(1, Math.ceil(bytes / 1024)) * (w.transactional ? 2 : 1);
    units += cost;
    const item = items.get(id(w)) ?? { pk: w.pk, sk: w.sk, bytes: 0, writes: 0, units: 0 };
    item.writes += 1;
    item.units += cost;
    item.bytes = Math.max(item.bytes, bytes);
    items.set(id(w), item);
    const key = byKey.get(w.pk) ?? { pk: w.pk, writes: 0, units: 0 };
    key.writes += 1;
    key.units += cost;
    byKey.set(w.pk, key);
  }
  const hottest = <T extends WriteTally>(list: Iterable<T>) => [...list].sort((a, b) => b.writes - a.writes || b.units - a.units);
  return { writes: writes.length, units, items: hottest(items.values()), keys: hottest(byKey.values()) };
}
