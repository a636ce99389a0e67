import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ledgerWrites } from '#lib/adapters/dynamo/money/ledger-items.ts';
import { rekeyLedgerItems } from '#lib/adapters/dynamo/money/ledger-rekey.ts';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import { LEDGER, ledgerEntryKey } from '#lib/adapters/dynamo/sends/send-items.ts';
import { keys } from '#lib/adapters/dynamo/table.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, meterOf, tokens } from '../support/api.ts';
import { seedDirectory, useStackTable, waba } from '../support/seed.ts';

/**
 * Money reads keyed by client (decisions §32, issue 52 item 4), on the running local stack's table: clients 668 and
 * 669 share WABA w668. Client 669 sends on 200 days, 668 on 12; a usage read of 366 days by 668 reads 668's ledger
 * items, never 669's. Items written before the ledger was keyed by client move to each client's partitions.
 */
const table = serviceTable();
const [MINE, THEIRS] = [668, 669];
const WABA = 'w668';
const DAY_MS = 86_400_000;
const dayBefore = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const MY_DAYS = Array.from({ length: 12 }, (_, i) => dayBefore(i * 30));
const THEIR_DAYS = Array.from({ length: 200 }, (_, i) => dayBefore(i));
const MEXICO = ledgerEntryKey({ market: 'Mexico', category: 'utility', currency: 'USD' });

/** A day's charge of one message on a client's number, as the status path writes it. */
const charge = (clientId: number, day: string, micros: number) =>
  table.client.send(
    new TransactWriteCommand({
      TransactItems: ledgerWrites(
        table.name,
        { waba_id: WABA, client_id: clientId, did: `52${clientId}0001` },
        new Map([[day, new Map([[MEXICO, { messages: 1, billable: 1, micros }]])]]),
        Date.now(),
      ) as never,
    }),
  );

beforeAll(async () => {
  useStackTable();
  await seedDirectory({
    clients: [MINE, THEIRS].map((client_id) => ({ client_id, client_name: `Ledger ${client_id}` })),
    wabas: [waba(WABA, [])],
    channels: [MINE, THEIRS].map((client_id) => ({ wa_id: `52${client_id}0001`, client_id, waba_id: WABA })),
  });
  for (const day of MY_DAYS) await charge(MINE, day, 1_000);
  for (const day of THEIR_DAYS) await charge(THEIRS, day, 7_000);
}, 120_000);

describe('the cost ledger keyed by client (decisions §32)', () => {
  it('reads only the caller’s items for a usage range of 366 days on a WABA it shares', async () => {
    // Act
    const usage = await call('GET', `/v1/usage?client_id=${MINE}&from=${dayBefore(365)}&to=${dayBefore(0)}&group_by=day`, {
      token: await tokens.bsp(),
    });
    const meter = await meterOf(usage);
    // Assess: 668's 12 messages, none of 669's; its items read, not 669's 200 (a directory read or two beside)
    expect(usage.status).toBe(200);
    const rows = usage.body.data as { messages: number; amount: number }[];
    expect(rows.reduce((sum, row) => sum + row.messages, 0)).toBe(MY_DAYS.length);
    expect(Math.round(rows.reduce((sum, row) => sum + row.amount, 0) * 1e6)).toBe(MY_DAYS.length * 1_000);
    console.info(`ledger by client: a 366-day usage read took ${meter.itemsRead} items in ${meter.operations.length} requests`);
    expect(meter.itemsRead).toBeLessThanOrEqual(MY_DAYS.length + 10);
  });

  it('moves an item written before the ledger was keyed by client to each client’s partition, once', async () => {
    // Prepare: an older item of WABA w668x's number day holding both clients' figures
    const old = {
      pk: keys.ledger('w668x', 3),
      sk: keys.ledgerNumberDay('2026-01-15', '5266800001'),
      entity: 'ledger_day',
      day: '2026-01-15',
      waba_id: 'w668x',
      did: '5266800001',
      [`${LEDGER.messages}${MINE}|${MEXICO}`]: 2,
      [`${LEDGER.billable}${MINE}|${MEXICO}`]: 2,
      [`${LEDGER.micros}${MINE}|${MEXICO}`]: 2_000,
      [`${LEDGER.messages}${THEIRS}|${MEXICO}`]: 5,
      [`${LEDGER.billable}${THEIRS}|${MEXICO}`]: 5,
      [`${LEDGER.micros}${THEIRS}|${MEXICO}`]: 35_000,
    };
    // A table of this test's own: the migration scans its whole table, and the stack's is every test's.
    const own = { client: table.client, name: `rekey-${Date.now()}` };
    await new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' }).send(
      new CreateTableCommand({
        TableName: own.name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk'].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    await own.client.send(new PutCommand({ TableName: own.name, Item: old }));
    const ledger = new DynamoCostLedger(own);
    // Act
    const first = await rekeyLedgerItems(own);
    const again = await rekeyLedgerItems(own);
    // Assess: each client reads its own figures from its own partition; a second run moves nothing
    expect(first).toEqual({ items: 1, parts: 2 });
    expect(again).toEqual({ items: 0, parts: 0 });
    const mine = await ledger.charges(['w668x'], MINE, '2026-01-15', '2026-01-15');
    const theirs = await ledger.charges(['w668x'], THEIRS, '2026-01-15', '2026-01-15');
    expect(mine.map((e) => [e.messages, e.micros])).toEqual([[2, 2_000]]);
    expect(theirs.map((e) => [e.messages, e.micros])).toEqual([[5, 35_000]]);
    const both = await ledger.wabaDay('w668x', [MINE, THEIRS], '2026-01-15');
    expect(both.map((e) => e.client_id).sort()).toEqual([MINE, THEIRS]);
  });
});
