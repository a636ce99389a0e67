import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SyncLeaseStore, SyncProgress, SyncRunResult, SyncState } from '#lib/domain/templates/ports.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '#lib/adapters/dynamo/table.ts';
import type { ServiceTable } from '../client.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

const SK = SORT.syncLease;

/**
 * The sync lease: one item per client, taken with a conditional Put that succeeds only when no lease exists
 * or the existing one has expired. DynamoDB's TTL deletes expired leases eventually (and DynamoDB Local never),
 * so the expiry is compared here rather than trusted to TTL.
 */
export class DynamoSyncLeaseStore implements SyncLeaseStore {
  constructor(private readonly table: ServiceTable) {}

  async acquire(clientId: number, leaseId: string, nowMs: number, ttlMs: number) {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            pk: keys.client(clientId),
            sk: SK,
            entity: 'sync_lease',
            lease_id: leaseId,
            started_at: new Date(nowMs).toISOString(),
            [TTL_ATTRIBUTE]: Math.ceil((nowMs + ttlMs) / 1000),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #exp < :now',
          ExpressionAttributeNames: { '#exp': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':now': Math.floor(nowMs / 1000) },
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async holds(clientId: number, leaseId: string, nowMs: number) {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SK }, ConsistentRead: true }),
    );
    return result.Item?.lease_id === leaseId && Number(result.Item?.[TTL_ATTRIBUTE]) >= Math.floor(nowMs / 1000);
  }

  /**
   * Deletes the lease if this run still holds it and, in the same transaction, records the run's result, so
   * a finished run is never left holding the lease nor loses its outcome.
   */
  async release(clientId: number, leaseId: string, lastRun?: SyncRunResult) {
    const deleteLease = {
      TableName: this.table.name,
      Key: { pk: keys.client(clientId), sk: SK },
      ConditionExpression: 'lease_id = :id',
      ExpressionAttributeValues: { ':id': leaseId },
    };
    try {
      if (!lastRun) await this.table.client.send(new DeleteCommand(deleteLease));
      else {
        const record = {
          TableName: this.table.name,
          Item: { pk: keys.client(clientId), sk: SORT.syncLastRun, entity: 'sync_last_run', ...lastRun },
        };
        await this.table.client.send(new TransactWriteCommand({ TransactItems: [{ Delete: deleteLease }, { Put: record }] }));
      }
    } catch (error) {
      // Someone else holds it now (ours expired): theirs must stay; our result is still worth keeping.
      const name = (error as Error).name;
      if (name !== 'ConditionalCheckFailedException' && name !== 'TransactionCanceledException') throw error;
      if (lastRun)
        await this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: { pk: keys.client(clientId), sk: SORT.syncLastRun, entity: 'sync_last_run', ...lastRun },
          }),
        );
    }
  }

  async report(clientId: number, leaseId: string, progress: SyncProgress) {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.client(clientId), sk: SK },
          UpdateExpression: 'SET progress = :p',
          ConditionExpression: 'lease_id = :id',
          ExpressionAttributeValues: { ':p': progress, ':id': leaseId },
        }),
      );
    } catch (error) {
      // The lease is no longer this run's: its progress is nobody's to show.
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  /** The lease and the last run sort side by side under the client (SYNC_LAST_RUN, SYNC_LEASE): one Query. */
  async state(clientId: number, nowMs: number): Promise<SyncState> {
    const result = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sync)',
        ExpressionAttributeValues: { ':pk': keys.client(clientId), ':sync': 'SYNC_' },
        ConsistentRead: true,
      }),
    );
    const items = result.Items ?? [];
    const lease = items.find((item) => item.sk === SK);
    const last = items.find((item) => item.sk === SORT.syncLastRun);
    const state: SyncState = { lastRun: null };
    if (last) {
      const { pk: _pk, sk: _sk, entity: _entity, ...run } = last;
      state.lastRun = run as SyncRunResult;
    }
    if (lease && Number(lease[TTL_ATTRIBUTE]) >= Math.floor(nowMs / 1000)) {
      state.running = { started_at: String(lease.started_at), ...(lease.progress && { progress: lease.progress as SyncProgress }) };
    }
    return state;
  }
}
