import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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
