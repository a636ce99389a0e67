import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ServiceTable } from './client.ts';

/** The most items one DynamoDB transaction takes. */
export const TRANSACTION_LIMIT = 100;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A single write's condition failed. */
export const isConditionalCheckFailure = (error: unknown) => (error as Error)?.name === 'ConditionalCheckFailedException';

/** DynamoDB's reason per item of a cancelled transaction (`None` for the items that were fine), or undefined. */
export function cancellationCodes(error: unknown): string[] | undefined {
  if ((error as Error)?.name !== 'TransactionCanceledException') return undefined;
  return (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons?.map((r) => r.Code ?? 'None') ?? [];
}

/** Cancelled only because another transaction held an item at that moment: worth trying again as it was. */
export function isTransactionConflict(error: unknown) {
  const codes = cancellationCodes(error);
  return Boolean(codes?.includes('TransactionConflict') && codes.every((c) => c === 'None' || c === 'TransactionConflict'));
}

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
