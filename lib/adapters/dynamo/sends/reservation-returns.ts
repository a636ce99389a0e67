import type { BudgetRelease } from '#lib/domain/money/ports.ts';
import type { ReservationReturns } from '#lib/domain/sends/ports.ts';
import type { ServiceTable } from '../client.ts';
import { releaseUpdate } from '../money/budget-store.ts';
import { keys, SORT } from '../table.ts';
import { cancellationCodes } from '../transactions.ts';
import { transact } from './send-items.ts';

/**
 * A failed send's whole reservation given back once (decisions §30): `reservation_returned_at` set on the send
 * item on condition it is absent, and the budget's release, in one transaction; a second asker's condition fails.
 */
export class DynamoReservationReturns implements ReservationReturns {
  constructor(private readonly table: ServiceTable) {}

  async returnWhole(sendId: string, release: BudgetRelease | undefined, at: string) {
    try {
      await transact(this.table, () => [
        {
          Update: {
            TableName: this.table.name,
            Key: { pk: keys.send(sendId), sk: SORT.send },
            UpdateExpression: 'SET reservation_returned_at = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reservation_returned_at)',
            ExpressionAttributeValues: { ':at': at },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        ...releaseUpdate(this.table.name, release),
      ]);
      return 'returned' as const;
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string; Item?: unknown }[] }).CancellationReasons;
      if (cancellationCodes(error)?.[0] !== 'ConditionalCheckFailed') throw error;
      return reasons?.[0]?.Item ? ('already' as const) : ('no_send' as const);
    }
  }
}
