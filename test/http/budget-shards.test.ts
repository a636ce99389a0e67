import { TransactWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgetMoveUpdate } from '#lib/adapters/dynamo/money/budget-store.ts';
import { keys } from '#lib/adapters/dynamo/table.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, tokens } from '../support/api.ts';
import { seedDirectory, useStackTable } from '../support/seed.ts';

/**
 * A client's settled month on shards of their own partition keys (issue 54, docs/data-model.md), on the running
 * local stack's DynamoDB: what a status transaction adds lands on `BUDGET#<client>#<NN>`, never on the client's key,
 * and a month settled before (its shards under `CLIENT#<client>`) still counts in `GET /v1/clients/{id}/budget`.
 */
const CLIENT = 681;
const month = () => new Date().toISOString().slice(0, 7);

beforeAll(async () => {
  await seedDirectory({ clients: [{ client_id: CLIENT, client_name: 'Budget shards' }], wabas: [], channels: [] });
  const put = await call('PUT', `/v1/clients/${CLIENT}/budget`, { token: await tokens.bsp(), body: { monthly_amount: 100 } });
  expect(put.status).toBe(200);
});

describe('a client’s settled month on shards of its own keys (issue 54)', () => {
  it('writes a settlement on a shard key of its own, and counts a shard kept under the client’s key before', async () => {
    // Prepare: 1.25 spent on a shard as the status path writes it now, 2.50 on one as it was kept before issue 54
    useStackTable();
    const table = serviceTable();
    const move = budgetMoveUpdate(table.name, CLIENT, month(), { spent: 1_250_000 });
    await table.client.send(new TransactWriteCommand({ TransactItems: [move] }));
    await table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: { pk: keys.client(CLIENT), sk: keys.budgetShardBefore54(month(), 3), entity: 'budget_settled', spent_micros: 2_500_000 },
      }),
    );
    // Act
    const budget = await call('GET', `/v1/clients/${CLIENT}/budget`, { token: await tokens.bsp() });
    // Assess
    expect(move.Update?.Key?.pk).toMatch(new RegExp(`^BUDGET#${CLIENT}#[0-3][0-9]$`));
    expect(move.Update?.Key?.sk).toBe(`BUDGET#${month()}`);
    expect(budget.status).toBe(200);
    expect(budget.body).toMatchObject({ client_id: CLIENT, spent: 3.75, remaining: 96.25 });
  });
});
