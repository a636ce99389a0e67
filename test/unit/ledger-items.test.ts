import type { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { ledgerWrites } from '#lib/adapters/dynamo/money/ledger-items.ts';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import type { TransactItem } from '#lib/adapters/dynamo/transactions.ts';

/**
 * The DynamoDB ledger's late charges (decisions §30), in process: the items the status transaction writes
 * (ledgerWrites), applied to a table of plain objects as DynamoDB's ADD applies them, and read back through the
 * adapter's own Queries.
 */
const WABA = '100200300';
const OWNER = { waba_id: WABA, client_id: 7, did: '5215550001' };
const NOW = Date.parse('2026-11-20T12:00:00Z');
const tally = (messages: number, micros: number) => ({ messages, billable: messages, micros });

/** A table of items by `<pk> <sk>`: each Update's SET and ADD applied; Queries answered by key range. */
function plainTable() {
  const items = new Map<string, Record<string, unknown>>();
  const apply = (write: TransactItem) => {
    const { UpdateExpression, ExpressionAttributeNames = {}, ExpressionAttributeValues = {} } = write.Update!;
    const Key = write.Update!.Key as { pk: string; sk: string };
    const item = items.get(`${Key.pk} ${Key.sk}`) ?? { ...Key };
    const [set, add] = String(UpdateExpression).replace(/^SET /, '').split(' ADD ');
    const nameOf = (token: string) => (token.startsWith('#') ? ExpressionAttributeNames[token] : token);
    for (const part of set.split(', ')) {
      const [name, value] = part.split(' = ');
      item[nameOf(name)] = ExpressionAttributeValues[value];
    }
    for (const part of add.split(', ')) {
      const [name, value] = part.split(' ');
      item[nameOf(name)] = Number(item[nameOf(name)] ?? 0) + Number(ExpressionAttributeValues[value]);
    }
    items.set(`${Key.pk} ${Key.sk}`, item);
  };
  const send = async (command: QueryCommand) => {
    const values = command.input.ExpressionAttributeValues as Record<string, string>;
    const Items = [...items.values()].filter(
      (i) => i.pk === values[':pk'] && String(i.sk) >= values[':from'] && String(i.sk) <= values[':to'],
    );
    return { Items };
  };
  const table = { name: 'service', client: { send } } as unknown as ServiceTable;
  return { items, apply, table };
}

describe('late charges on the DynamoDB ledger (decisions §30)', () => {
  it('writes each day as before, marks a closed month’s days late, and files them on one item more', () => {
    // Prepare: on 20 November, charges of 30 and 31 October (October closed on 3 November) and of 20 November
    const days = new Map([
      ['2026-10-30', new Map([['Mexico|marketing|USD', tally(2, 87_200)]])],
      ['2026-10-31', new Map([['Mexico|marketing|USD', tally(1, 43_600)]])],
      ['2026-11-20', new Map([['Mexico|marketing|USD', tally(5, 218_000)]])],
    ]);
    // Act
    const late = ledgerWrites('service', OWNER, days, NOW);
    const onTime = ledgerWrites('service', OWNER, new Map([...days].slice(2)), NOW);
    // Assess: three day items and one item filed under November; none more when nothing is late
    expect(late.map((w) => w.Update?.Key?.sk)).toEqual([
      'DAY#2026-10-30#5215550001#marketing',
      'DAY#2026-10-31#5215550001#marketing',
      'DAY#2026-11-20#5215550001#marketing',
      'LATE#2026-11#5215550001',
    ]);
    expect(onTime).toHaveLength(1);
    expect(Object.values(late[0].Update?.ExpressionAttributeNames ?? {})).toContain('LN|Mexico|USD');
    expect(Object.values(late[2].Update?.ExpressionAttributeNames ?? {}).some((n) => n.startsWith('L'))).toBe(false);
  });

  it('reads the days with their late part, and the late charges under the month they were filed in, naming their month', async () => {
    // Prepare
    const { apply, table } = plainTable();
    const ledger = new DynamoCostLedger(table);
    const october30 = new Map([['2026-10-30', new Map([['Mexico|marketing|USD', tally(2, 87_200)]])]]);
    for (const write of ledgerWrites('service', OWNER, october30, Date.parse('2026-10-30T18:00:00Z'))) apply(write);
    for (const write of ledgerWrites('service', OWNER, october30, NOW)) apply(write);
    // Act
    const days = await ledger.charges([WABA], 7, '2026-10-30', '2026-10-30');
    const filed = await ledger.adjustments([WABA], 7, '2026-11', '2026-11');
    const elsewhere = await ledger.adjustments([WABA], 7, '2026-10', '2026-10');
    // Assess: the day keeps every charge (usage and reconciliation unchanged), half of it late (on any shard)
    const sum = (figure: (e: (typeof days)[number]) => number | undefined) => days.reduce((total, e) => total + (figure(e) ?? 0), 0);
    expect([sum((e) => e.messages), sum((e) => e.micros)]).toEqual([4, 174_400]);
    expect([sum((e) => e.late?.messages), sum((e) => e.late?.billable), sum((e) => e.late?.micros)]).toEqual([2, 2, 87_200]);
    expect(filed).toEqual([
      {
        month: '2026-11',
        of_month: '2026-10',
        did: OWNER.did,
        market: 'Mexico',
        category: 'marketing',
        currency: 'USD',
        messages: 2,
        billable: 2,
        micros: 87_200,
      },
    ]);
    expect(elsewhere).toEqual([]);
  });
});
