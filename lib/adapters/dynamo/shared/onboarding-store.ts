import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Onboarding } from '#lib/domain/shared/onboarding-record.ts';
import type { DirectoryWriter, OnboardedDirectory, OnboardingStore } from '#lib/domain/shared/ports.ts';
import { parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import type { ServiceTable } from '../client.ts';
import { putAll } from '../batch-write.ts';
import { DynamoKnownCurrencies } from '../money/known-currencies.ts';
import { keys, SORT } from '../table.ts';
import { directoryItems } from './directory-import.ts';
import { stripKeys } from '../queries.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/** Onboardings (issue 55): `ONBOARDING#<code hash>` / `ONBOARDING`, each write conditioned on the `rev` read. */
export class DynamoOnboardingStore implements OnboardingStore {
  constructor(private readonly table: ServiceTable) {}

  private key(id: string) {
    return { pk: keys.onboarding(id), sk: SORT.onboarding };
  }

  async get(onboardingId: string) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.key(onboardingId), ConsistentRead: true }),
    );
    return stripKeys<Onboarding>(Item);
  }

  async create(onboarding: Onboarding) {
    return this.put({ ...onboarding }, 'attribute_not_exists(pk)', {});
  }

  async save(onboarding: Onboarding) {
    return this.put({ ...onboarding, rev: onboarding.rev + 1 }, 'rev = :rev', { ':rev': onboarding.rev });
  }

  private async put(onboarding: Onboarding, condition: string, values: Record<string, unknown>) {
    const item = { ...this.key(onboarding.onboarding_id), entity: 'onboarding', ...JSON.parse(JSON.stringify(onboarding)) };
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: item,
          ConditionExpression: condition,
          ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }
}

/**
 * Adds an onboarded WABA to the directory with the import's own items (decisions §8: `directoryItems`), the client's
 * item left as it is, and keeps its currency and timezone where the status path reads them (decisions §31).
 */
export class DynamoDirectoryWriter implements DirectoryWriter {
  constructor(private readonly table: ServiceTable) {}

  async addOnboarded(entry: OnboardedDirectory) {
    const file = parseDirectoryFile({ clients: [entry.client], wabas: [entry.waba], channels: entry.channels });
    const items = directoryItems(file).filter((item) => item.entity !== 'client');
    await putAll(this.table, items);
    await new DynamoKnownCurrencies(this.table).put(entry.waba.waba_id, entry.currency, new Date().toISOString(), entry.timezone_id);
  }
}
