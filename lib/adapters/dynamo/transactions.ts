import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { isTransactionConflict } from '../aws/service-unavailable.ts';
import type { ServiceTable } from './client.ts';

/** The most items one DynamoDB transaction takes. */
export const TRANSACTION_LIMIT = 100;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A single write's condition failed. */
export const isConditionalCheckFailure = (error: unknown) => (error as Error)?.name === 'ConditionalCheckFailedException';

// How a cancelled transaction reads: beside the other AWS failures, which every function's error answer reads
// (lib/http/error-response.ts) without this module's SDK import.
export { cancellationCodes, isTransactionConflict } from '../aws/service-unavailable.ts';

/**
 * One transaction, tried again with backoff and jitter while it is cancelled only by concurrent transactions
 * (a send's counts, which every block of every job of the send updates); any other failure is thrown.
 */
export async function transactWrite(table: ServiceTable, items: TransactItem[], tries = 8) {
  for (let attempt = 1; ; attempt++) {
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= tries) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** attempt));
    }
  }
}
