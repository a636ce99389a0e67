import { describe, expect, it } from 'vitest';
import type { ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';

/** A transaction cancelled only because another write held an item at that moment, as DynamoDB throws it. */
const conflict = () =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
  });

/** A table whose client answers reads with nothing and fails the first `conflicts` transactions. */
function tableFailing(conflicts: number) {
  const sent: string[] = [];
  const client = {
    send: async (command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      if (command.constructor.name === 'TransactWriteCommand' && conflicts-- > 0) throw conflict();
      return { Responses: {}, UnprocessedKeys: {} };
    },
  };
  return { table: { client, name: 'service' } as unknown as ServiceTable, sent };
}

describe('a reservation with its watch (decisions §30) when sends of one client reserve at once', () => {
  it('is tried again while only a concurrent write cancels its transaction, never answered as a failure', async () => {
    // Prepare: two conflicts, then the transaction passes
    const { table, sent } = tableFailing(2);
    const watch = { send_id: 's-1', client_id: 7, month: '2026-11', micros: 5_000, due_at: '2026-11-28T10:20:00.000Z' };
    // Act
    const committed = await new DynamoBudgetStore(table).reserve(7, '2026-11', 5_000, 100_000, watch);
    // Assess
    expect(committed).toBe(5_000);
    expect(sent.filter((name) => name === 'TransactWriteCommand')).toHaveLength(3);
  });
});
