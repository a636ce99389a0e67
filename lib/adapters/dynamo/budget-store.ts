import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BudgetStore } from '#lib/domain/ports/costs.ts';
import type { ServiceTable } from './client.ts';
import { keys, SORT } from './table.ts';
import { isConditionalCheckFailure } from './transactions.ts';

/**
 * Budgets under their client (decisions §24): the budget (`BUDGET`) and each month's reservations
 * (`BUDGET#<yyyy-mm>`, a sum in micro-dollars). A send reserves with one conditional ADD: of two sends at once
 * only those that fit pass. A month item takes a write a send, far from any item's limit.
 */
export class DynamoBudgetStore implements BudgetStore {
  constructor(private readonly table: ServiceTable) {}

  async get(clientId: number) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SORT.budget }, ConsistentRead: true }),
    );
    return Item && typeof Item.monthly_micros === 'number'
      ? { monthly_micros: Item.monthly_micros, updated_at: String(Item.updated_at) }
      : null;
  }

  async set(clientId: number, monthlyMicros: number | null, at: string) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: keys.client(clientId),
          sk: SORT.budget,
          entity: 'budget',
          ...(monthlyMicros !== null && { monthly_micros: monthlyMicros }),
          updated_at: at,
        },
      }),
    );
  }

  async reserved(clientId: number, month: string) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: keys.budgetMonth(month) }, ConsistentRead: true }),
    );
    return Number(Item?.reserved_micros ?? 0);
  }

  async reserve(clientId: number, month: string, micros: number, limitMicros: number) {
    const room = limitMicros - micros;
    if (room < 0) return null;
    try {
      const { Attributes } = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.client(clientId), sk: keys.budgetMonth(month) },
          UpdateExpression: 'SET entity = :entity ADD reserved_micros :micros',
          ConditionExpression: 'attribute_not_exists(reserved_micros) OR reserved_micros <= :room',
          ExpressionAttributeValues: { ':entity': 'budget_month', ':micros': micros, ':room': room },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(Attributes?.reserved_micros ?? micros);
    } catch (error) {
      if (isConditionalCheckFailure(error)) return null;
      throw error;
    }
  }

  async release(clientId: number, month: string, micros: number) {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: { pk: keys.client(clientId), sk: keys.budgetMonth(month) },
        UpdateExpression: 'ADD reserved_micros :back',
        ExpressionAttributeValues: { ':back': -micros },
      }),
    );
  }
}
