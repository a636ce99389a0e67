import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What a unit of work (an API request, a benchmark run) asked of DynamoDB. */
export interface DynamoMeter {
  operations: string[];
  /** Items DynamoDB read: a Query's scanned count, a GetItem's item, a BatchGetItem's answers. */
  itemsRead: number;
  /** Bytes of the items handed back, as JSON (close to what DynamoDB charges reads by). */
  bytesRead: number;
  /** Items written: a put/update/delete each, inside a transaction or a batch too. */
  itemsWritten: number;
}

export const emptyMeter = (): DynamoMeter => ({ operations: [], itemsRead: 0, bytesRead: 0, itemsWritten: 0 });

const sizeOf = (items: unknown[] | undefined) => (items ? Buffer.byteLength(JSON.stringify(items)) : 0);

/**
 * Meters every DynamoDB call of the client into the meter `current()` names (none: not metered). Local and
 * benchmark use only; the deployed functions never install it.
 */
export function meterDynamo(client: DynamoDBDocumentClient, current: () => DynamoMeter | undefined, name = 'localMeter') {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const meter = current();
      const result = await next(args);
      if (!meter) return result;
      const command = String(context.commandName).replace(/Command$/, '');
      meter.operations.push(command);
      const input = args.input as Record<string, any>;
      const output = result.output as Record<string, any>;
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
