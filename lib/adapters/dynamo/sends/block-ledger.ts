import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BudgetRelease } from '#lib/domain/money/ports.ts';
import { releaseUpdate } from '../money/budget-store.ts';
import type {
  BlockClaim,
  BlockLedger,
  BlockProgress,
  ClaimLease,
  PositionOutcome,
  RecipientBlock,
  RecipientOutcome,
  RecordedOutcomes,
} from '#lib/domain/sends/ports.ts';
import { LOST_OUTCOME } from '#lib/domain/sends/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, TTL_ATTRIBUTE } from '../table.ts';
import { cancellationCodes, isConditionalCheckFailure } from '../transactions.ts';
import { blockKey, countUpdate, encode, expiry, gotOf, recordedOf, TRIES, tally, transact } from './send-items.ts';
import { dispatchFigures, type PerformanceMark } from '#lib/domain/sends/figures.ts';
import { templateDayUpdates } from './performance-items.ts';

/**
 * A send's blocks, spread over SEND_PARTS partitions: claimed before anything of them is sent, their progress
 * recorded as they launch, settled with their outcomes and the send's counts in one transaction.
 */
export class DynamoBlockLedger implements BlockLedger {
  constructor(private readonly table: ServiceTable) {}

  /**
   * One conditional Put claims a block; a block taken already is resolved by what its item says. A claimed
   * block's item holds its holder's progress (`got`: the answers recorded so far by offset, their failures'
   * titles in `got_titles`; `launched`: the offset its launches may have reached), so a block handed back or
   * taken over from a dead holder goes on from there.
   */
  async claimBlock(sendId: string, block: RecipientBlock, lease: ClaimLease, nowMs: number): Promise<BlockClaim> {
    const Key = blockKey(sendId, block.first);
    if (await this.claimUntaken(Key, block, lease, nowMs)) return { claimed: new Map() };
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const existing = (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key, ConsistentRead: true }))).Item;
      if (!existing) throw new Error('a claimed block vanished');
      if (existing.state === 'settled' || existing.state === 'lost') return 'done';
      const recorded = recordedOf(existing);
      if (existing.state === 'claimed' && existing.holder === lease.holder) return { claimed: recorded };
      if (existing.state === 'claimed' && Number(existing.lease_until) > nowMs) return 'busy';
      if (existing.state === 'claimed') markLost(recorded, existing);
      if (await this.takeOver(Key, existing, lease, recorded)) return { claimed: recorded };
    }
    return 'busy';
  }

  /** The first claim of a block: one conditional Put of its item (false: its item is there already). */
  private async claimUntaken(Key: { pk: string; sk: string }, block: RecipientBlock, lease: ClaimLease, nowMs: number) {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...Key,
            entity: 'send_block',
            first: block.first,
            state: 'claimed',
            size: block.size,
            sendable: block.sendable,
            // An A/B send's variant but 0 (decisions §33): a status of its messages counts under it even before the settle.
            ...(block.variant && { variant: block.variant }),
            holder: lease.holder,
            lease_until: lease.untilMs,
            launched: 0,
            [TTL_ATTRIBUTE]: expiry(nowMs),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      return false;
    }
  }

  /**
   * A block handed back, or whose holder's time ran out, taken over with what was recorded of it, on condition
   * it is still as read (false: another took it first).
   */
  private async takeOver(
    Key: { pk: string; sk: string },
    existing: Record<string, unknown>,
    lease: ClaimLease,
    recorded: RecordedOutcomes,
  ) {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key,
          UpdateExpression: 'SET #state = :claimed, holder = :holder, lease_until = :until, got = :got, got_titles = :titles',
          ConditionExpression:
            existing.state === 'open' ? '#state = :open' : '#state = :claimed AND holder = :was AND lease_until = :wasUntil',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':claimed': 'claimed',
            ':holder': lease.holder,
            ':until': lease.untilMs,
            ...gotOf(recorded),
            ...(existing.state === 'open' ? { ':open': 'open' } : { ':was': existing.holder, ':wasUntil': existing.lease_until }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      return false;
    }
  }

  async recordProgress(sendId: string, block: RecipientBlock, lease: ClaimLease, progress: BlockProgress) {
    return this.whileHeld(sendId, block, lease, 'SET got = :got, got_titles = :titles, launched = :launched', {
      ...gotOf(progress.outcomes),
      ':launched': progress.launchedTo,
    });
  }

  async handBack(sendId: string, block: RecipientBlock, lease: ClaimLease, outcomes: RecordedOutcomes) {
    await this.whileHeld(sendId, block, lease, 'SET #state = :open, got = :got, got_titles = :titles REMOVE holder, lease_until', {
      ...gotOf(outcomes),
      ':open': 'open',
    });
  }

  /** One update of a block on condition it is still claimed under this lease; false when it is not. */
  private async whileHeld(sendId: string, block: RecipientBlock, lease: ClaimLease, update: string, values: Record<string, unknown>) {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: blockKey(sendId, block.first),
          UpdateExpression: update,
          ConditionExpression: '#state = :claimed AND holder = :holder AND lease_until = :until',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ...values, ':claimed': 'claimed', ':holder': lease.holder, ':until': lease.untilMs },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      return false;
    }
  }

  async settleBlock(
    sendId: string,
    block: RecipientBlock,
    outcomes: PositionOutcome[],
    lease: ClaimLease,
    release?: BudgetRelease,
    mark?: PerformanceMark,
  ) {
    await this.settleAs(sendId, block, outcomes, lease, release, mark);
  }

  /**
   * The block's outcomes and their counts in one transaction, on condition the block is still claimed under
   * this lease; false when it is not (settled meanwhile). A lost block counts `sendable` failures whatever its
   * outcomes say of repeats: the claim knew which positions were repeats.
   */
  private async settleAs(
    sendId: string,
    block: RecipientBlock,
    outcomes: PositionOutcome[],
    lease: ClaimLease,
    release?: BudgetRelease,
    mark?: PerformanceMark,
  ) {
    // Its figures (decisions §33): on the same count shard, and on its template's day (one item more).
    const figures = mark ? dispatchFigures(outcomes, mark).adds : [];
    const counted = { ...tally(outcomes), figures };
    const titles = Object.fromEntries(outcomes.flatMap((o) => (o.kind === 'failed' ? [[o.code, o.title]] : [])));
    try {
      await transact(this.table, () => [
        {
          Update: {
            TableName: this.table.name,
            Key: blockKey(sendId, block.first),
            // A variant other than the send's one template is kept on the block: its statuses count there (decisions §33).
            UpdateExpression: `SET #state = :state, outcomes = :outcomes, titles = :titles, settled_at = :at${mark?.variant ? ', variant = :variant' : ''} REMOVE holder, got, got_titles, launched`,
            ConditionExpression: '#state = :claimed AND holder = :holder AND lease_until = :until',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':state': 'settled',
              ':outcomes': outcomes.map(encode),
              ':titles': titles,
              ':at': new Date().toISOString(),
              ':claimed': 'claimed',
              ':holder': lease.holder,
              ':until': lease.untilMs,
              ...(mark?.variant ? { ':variant': mark.variant } : {}),
            },
          },
        },
        ...(Object.keys(counted.add).length > 0 ? [countUpdate(this.table.name, sendId, counted)] : []),
        ...(mark ? templateDayUpdates(this.table.name, figures, () => mark.template) : []),
        // What will never be delivered gives its reservation back (decisions §27), with the outcomes that say so.
        ...releaseUpdate(this.table.name, release),
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  async beginJob(sendId: string, job: number) {
    const result = await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: { pk: keys.send(sendId), sk: keys.sendJob(job) },
        UpdateExpression: 'SET #state = if_not_exists(#state, :begun), entity = :entity',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':begun': 'begun', ':entity': 'send_job' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes?.state === 'settled' ? 'settled' : 'begun';
  }

  async settleJob(sendId: string, job: number, recipients: number, outcome: RecipientOutcome, release?: BudgetRelease) {
    try {
      await transact(this.table, () => [
        {
          Put: {
            TableName: this.table.name,
            Item: {
              pk: keys.send(sendId),
              sk: keys.sendJob(job),
              entity: 'send_job',
              state: 'settled',
              outcome: outcome.kind,
              ...(outcome.kind === 'failed' && { code: outcome.code, title: outcome.title }),
              settled_at: new Date().toISOString(),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        countUpdate(this.table.name, sendId, tally(Array.from({ length: recipients }, () => outcome))),
        ...releaseUpdate(this.table.name, release),
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }
}

/**
 * What a dead holder launched without a recorded answer may have gone out, so it is never sent again (a claim
 * from before progress was kept: all of it).
 */
function markLost(recorded: Map<number, PositionOutcome>, existing: Record<string, unknown>) {
  const launched = existing.launched === undefined ? Number(existing.size) : Number(existing.launched);
  for (let offset = 0; offset < launched; offset++) if (!recorded.has(offset)) recorded.set(offset, LOST_OUTCOME);
}
