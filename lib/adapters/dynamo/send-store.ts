import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryState } from '#lib/domain/delivery.ts';
import type { DispatchJob } from '#lib/domain/dispatch-job.ts';
import { inParallel } from '#lib/domain/parallel.ts';
import { NO_COUNTS } from '#lib/domain/send-status.ts';
import type {
  BlockClaim,
  BlockProgress,
  ClaimLease,
  DeliveryResult,
  DeliveryUpdate,
  PositionOutcome,
  RecipientBlock,
  RecipientBlockRef,
  RecipientOutcome,
  RecordedOutcomes,
  SendCounts,
  SendRecord,
  SendStore,
  StoredRecipient,
} from '#lib/domain/ports.ts';
import { LOST_OUTCOME } from '#lib/domain/ports.ts';
import type { ServiceTable } from './client.ts';
import { putAll } from './batch-write.ts';
import { batchGet, queryAll, queryFirst, stripKeys } from './directory-store.ts';
import { keys, SEND_COUNT_SHARDS, SEND_PARTS, SORT, TTL_ATTRIBUTE } from './table.ts';
import { cancellationCodes, isConditionalCheckFailure, isTransactionConflict, type TransactItem } from './transactions.ts';

/** Blocks and message states are kept this long after the send (then TTL removes them): longer than any send's TTL. */
const RECIPIENT_DAYS = 35;
const COUNT_FIELDS = ['duplicates_removed', 'expired', 'sent', 'failed', 'delivered', 'read', 'cancelled'] as const;
/** A count shard's error tally: `error:<code>` (the count) and `title:<code>`, one attribute each. */
const ERROR = 'error:';
const TITLE = 'title:';
/**
 * Items per status transaction (DynamoDB takes 100): the messages' states, each block's latest item
 * (its messages' states for the listing) and the count shard.
 */
const ITEMS_PER_WRITE = 100;
/** Tries of one write against concurrent writes (a count shard held by another transaction, a state moved). */
const TRIES = 8;

/** A position's partition: a multiplicative hash, so neighbouring blocks and messages land on different keys. */
const partOf = (position: number) => (Math.imul(position + 1, 2654435761) >>> 0) % SEND_PARTS;
const blockKey = (sendId: string, first: number) => ({ pk: keys.sendPart(sendId, partOf(first)), sk: keys.sendBlock(first) });
const messageKey = (sendId: string, index: number) => ({ pk: keys.sendPart(sendId, partOf(index)), sk: keys.sendMessage(index) });
const recipientsKey = (sendId: string, first: number) => ({ pk: keys.sendPart(sendId, partOf(first)), sk: keys.sendRecipients(first) });
const latestKey = (sendId: string, first: number) => ({ pk: keys.sendPart(sendId, partOf(first)), sk: keys.sendLatest(first) });
/** A message's latest delivery state on its block's latest item, by its offset in the block. */
const deliveryAttribute = (offset: number) => `d${offset}`;
/** A failure code's title on a block's latest item. */
const titleAttribute = (code: string) => `t${code}`;

/**
 * A delivery state in a few bytes: `r` (read, so delivered), `v` (delivered) or `f<code>` (failed after
 * acceptance), then `@` and when it was applied, in seconds base 36.
 */
function encodeLatest(state: DeliveryState, atMs: number) {
  const what = state.read ? 'r' : state.delivered ? 'v' : state.failed ? `f${state.failed.code}` : 's';
  return `${what}@${Math.floor(atMs / 1000).toString(36)}`;
}

function decodeLatest(encoded: string, titles: (code: string) => string | undefined): { state: DeliveryState; at: string } {
  const [what, at] = encoded.split('@');
  const state: DeliveryState =
    what === 'r'
      ? { delivered: true, read: true }
      : what === 'v'
        ? { delivered: true }
        : what.startsWith('f')
          ? { failed: { code: what.slice(1), title: titles(what.slice(1)) ?? what.slice(1) } }
          : {};
  return { state, at: new Date(Number.parseInt(at, 36) * 1000).toISOString() };
}
const expiry = (nowMs: number) => Math.ceil(nowMs / 1000) + RECIPIENT_DAYS * 86_400;

type Tally = { add: Partial<SendCounts>; errors: Map<string, { title: string; count: number }> };

/** What outcomes add to a send's counts and errors (repeats were counted when the send was accepted). */
function tally(outcomes: PositionOutcome[]): Tally {
  const add: Partial<SendCounts> = {};
  const errors = new Map<string, { title: string; count: number }>();
  for (const outcome of outcomes) {
    if (outcome.kind === 'duplicate') continue;
    if (outcome.kind === 'sent') add.sent = (add.sent ?? 0) + 1;
    else if (outcome.kind === 'expired') add.expired = (add.expired ?? 0) + 1;
    else if (outcome.kind === 'cancelled') add.cancelled = (add.cancelled ?? 0) + 1;
    else {
      add.failed = (add.failed ?? 0) + 1;
      const known = errors.get(outcome.code) ?? { title: outcome.title, count: 0 };
      known.count += 1;
      errors.set(outcome.code, known);
    }
  }
  return { add, errors };
}

/**
 * An addition to one of the send's count shards (each write picks one at random, so concurrent writers rarely
 * meet on one item). Counts and error codes are attribute names (`#a0`), never part of the expression text.
 */
function countUpdate(tableName: string, sendId: string, { add, errors }: Tally): TransactItem {
  const adds: string[] = [];
  const sets: string[] = ['entity = :entity'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':entity': 'send_counts' };
  let n = 0;
  const addTo = (attribute: string, amount: number) => {
    names[`#a${n}`] = attribute;
    values[`:a${n}`] = amount;
    adds.push(`#a${n} :a${n}`);
    n++;
  };
  for (const [field, amount] of Object.entries(add)) if (amount) addTo(field, amount);
  for (const [code, { title, count }] of errors) {
    names[`#t${n}`] = `${TITLE}${code}`;
    values[`:t${n}`] = title;
    sets.push(`#t${n} = :t${n}`);
    addTo(`${ERROR}${code}`, count);
  }
  return {
    Update: {
      TableName: tableName,
      Key: { pk: keys.send(sendId), sk: keys.sendCounts(Math.floor(Math.random() * SEND_COUNT_SHARDS)) },
      UpdateExpression: `SET ${sets.join(', ')}${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A block's outcomes as stored: one short string per position (`s<message id>`, `f<code>`, `e`, `c`, `d<first>`). */
function encode(outcome: PositionOutcome) {
  if (outcome.kind === 'sent') return `s${outcome.message_id}`;
  if (outcome.kind === 'failed') return `f${outcome.code}`;
  if (outcome.kind === 'duplicate') return `d${outcome.of}`;
  return outcome.kind === 'cancelled' ? 'c' : 'e';
}

/** A stored outcome as the domain's (`titles` holds each failure code's title). */
function decode(encoded: string, titles: Record<string, string>): PositionOutcome {
  const rest = encoded.slice(1);
  if (encoded[0] === 's') return { kind: 'sent', message_id: rest };
  if (encoded[0] === 'f') return { kind: 'failed', code: rest, title: titles[rest] ?? rest };
  if (encoded[0] === 'd') return { kind: 'duplicate', of: Number(rest) };
  return encoded === 'c' ? { kind: 'cancelled' } : { kind: 'expired' };
}

/** A claimed block's recorded answers (`got`, by offset; failures' titles in `got_titles`). */
function recordedOf(item: Record<string, unknown>): Map<number, PositionOutcome> {
  const got = (item.got ?? {}) as Record<string, string>;
  const titles = (item.got_titles ?? {}) as Record<string, string>;
  return new Map(Object.entries(got).map(([offset, encoded]) => [Number(offset), decode(encoded, titles)]));
}

/** Recorded answers as the update's `:got` and `:titles` values. */
function gotOf(outcomes: RecordedOutcomes) {
  const got: Record<string, string> = {};
  const titles: Record<string, string> = {};
  for (const [offset, outcome] of outcomes) {
    got[String(offset)] = encode(outcome);
    if (outcome.kind === 'failed') titles[outcome.code] = outcome.title;
  }
  return { ':got': got, ':titles': titles };
}

/** The message id a block's outcome holds for a position, when its message was sent. */
const sentMessageOf = (encoded: unknown) => (typeof encoded === 'string' && encoded.startsWith('s') ? encoded.slice(1) : undefined);

/**
 * Sends by id, and a client's queued sends newest first on gsi1 (docs/data-model.md). A send's blocks (claim,
 * then outcomes) and its messages' delivery states are items spread over SEND_PARTS partitions; its counts are
 * the send item's plus SEND_COUNT_SHARDS shards beside it, each written by whole blocks and batches of statuses.
 */
export class DynamoSendStore implements SendStore {
  constructor(private readonly table: ServiceTable) {}

  async begin(send: SendRecord) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: keys.send(send.send_id),
          sk: SORT.send,
          entity: 'send',
          ...send,
          counts: { ...NO_COUNTS, ...send.counts },
          error_counts: {},
          error_titles: {},
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  /** `queued` also puts the send in its client's list and counts it there, together. */
  async settle(send: SendRecord, status: 'queued' | 'abandoned') {
    const sendId = send.send_id;
    const condition = {
      ConditionExpression: '#s = :queuing',
      ExpressionAttributeNames: { '#s': 'status' },
    };
    if (status === 'abandoned') {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET #s = :s',
          ...condition,
          ExpressionAttributeValues: { ':s': status, ':queuing': 'queuing' },
        }),
      );
      return;
    }
    // Concurrent sends of one client meet on its count: a conflict is tried again.
    await this.transact(() => [
      {
        Update: {
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET #s = :s, gsi1pk = :gpk, gsi1sk = :gsk',
          ...condition,
          ExpressionAttributeValues: {
            ':s': status,
            ':queuing': 'queuing',
            ':gpk': keys.clientSends(send.client_id),
            ':gsk': keys.sendOrder(send.created_at, sendId),
          },
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: { pk: keys.client(send.client_id), sk: SORT.sendCount },
          UpdateExpression: 'ADD #n :one',
          ExpressionAttributeNames: { '#n': 'sends' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ]);
  }

  /** The send and its count shards: one Query of the send's partition (they sort as `SEND…`). */
  async get(sendId: string) {
    const result = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :send)',
        ExpressionAttributeValues: { ':pk': keys.send(sendId), ':send': SORT.send },
        ConsistentRead: true,
      }),
    );
    const items = result.Items ?? [];
    const send = items.find((item) => item.sk === SORT.send);
    return send
      ? toSend(
          send,
          items.filter((item) => item.sk !== SORT.send),
        )
      : null;
  }

  /** One page: reads the page's items and the ones before it on the index, the client's count, and each send's counts. */
  async list(clientId: number, page: { offset: number; size: number }) {
    const count = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SORT.sendCount } }),
    );
    const total = Number(count.Item?.sends ?? 0);
    // A page past the end reads nothing more, however many sends the client has.
    if (page.offset >= total) return { sends: [], total };
    const items = await queryFirst(
      this.table,
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.clientSends(clientId) },
        ScanIndexForward: false,
        ProjectionExpression: 'pk',
      },
      page.offset + page.size,
    );
    const ids = items.slice(page.offset).map((item) => String(item.pk).slice('SEND#'.length));
    const sends = await inParallel(ids, 10, (id) => this.get(id));
    return { sends: sends.filter((s): s is SendRecord => s !== null), total };
  }

  /**
   * One conditional Put claims a block; a block taken already is resolved by what its item says. A claimed
   * block's item holds its holder's progress (`got`: the answers recorded so far by offset, their failures'
   * titles in `got_titles`; `launched`: the offset its launches may have reached), so a block handed back or
   * taken over from a dead holder goes on from there.
   */
  async claimBlock(sendId: string, block: RecipientBlock, lease: ClaimLease, nowMs: number): Promise<BlockClaim> {
    const Key = blockKey(sendId, block.first);
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
            holder: lease.holder,
            lease_until: lease.untilMs,
            launched: 0,
            [TTL_ATTRIBUTE]: expiry(nowMs),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { claimed: new Map() };
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const existing = (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key, ConsistentRead: true }))).Item;
      if (!existing) throw new Error('a claimed block vanished');
      if (existing.state === 'settled' || existing.state === 'lost') return 'done';
      const recorded = recordedOf(existing);
      if (existing.state === 'claimed' && existing.holder === lease.holder) return { claimed: recorded };
      if (existing.state === 'claimed' && Number(existing.lease_until) > nowMs) return 'busy';
      // Handed back, or its holder's time ran out: taken over. What a dead holder launched without a recorded
      // answer may have gone out, so it is never sent again (a claim from before progress was kept: all of it).
      if (existing.state === 'claimed') {
        const launched = existing.launched === undefined ? Number(existing.size) : Number(existing.launched);
        for (let offset = 0; offset < launched; offset++) if (!recorded.has(offset)) recorded.set(offset, LOST_OUTCOME);
      }
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
        return { claimed: recorded };
      } catch (error) {
        if (!isConditionalCheckFailure(error)) throw error;
      }
    }
    return 'busy';
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

  async settleBlock(sendId: string, block: RecipientBlock, outcomes: PositionOutcome[], lease: ClaimLease) {
    await this.settleAs(sendId, block, outcomes, lease);
  }

  /**
   * The block's outcomes and their counts in one transaction, on condition the block is still claimed under
   * this lease; false when it is not (settled meanwhile). A lost block counts `sendable` failures whatever its
   * outcomes say of repeats: the claim knew which positions were repeats.
   */
  private async settleAs(sendId: string, block: RecipientBlock, outcomes: PositionOutcome[], lease: ClaimLease) {
    const counted = tally(outcomes);
    const titles = Object.fromEntries(outcomes.flatMap((o) => (o.kind === 'failed' ? [[o.code, o.title]] : [])));
    try {
      await this.transact(() => [
        {
          Update: {
            TableName: this.table.name,
            Key: blockKey(sendId, block.first),
            UpdateExpression:
              'SET #state = :state, outcomes = :outcomes, titles = :titles, settled_at = :at REMOVE holder, got, got_titles, launched',
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
            },
          },
        },
        ...(Object.keys(counted.add).length > 0 ? [countUpdate(this.table.name, sendId, counted)] : []),
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

  async settleJob(sendId: string, job: number, recipients: number, outcome: RecipientOutcome) {
    try {
      await this.transact(() => [
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
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  /** One item per block (spread over the send's parts), written in batches before the send is `queued`. */
  async recordRecipients(sendId: string, blocks: { ref: RecipientBlockRef; to: string[]; repeats: (number | undefined)[] }[], at: string) {
    await putAll(
      this.table,
      blocks.map(({ ref, to, repeats }) => ({
        ...recipientsKey(sendId, ref.first),
        entity: 'send_recipients',
        first: ref.first,
        to,
        repeats: Object.fromEntries(repeats.flatMap((of, offset) => (of === undefined ? [] : [[String(offset), of]]))),
        recorded_at: at,
        [TTL_ATTRIBUTE]: expiry(Date.parse(at)),
      })),
    );
  }

  /**
   * Each block's recipients, block and latest items, and each job's item (a job settled whole has no blocks),
   * in one BatchGet: three items a block and one a job.
   */
  async recipients(sendId: string, blocks: RecipientBlockRef[]): Promise<StoredRecipient[]> {
    const read = await batchGet(this.table, recipientItemKeys(sendId, blocks));
    const found = new Map(read.map((item) => [`${item.pk}|${item.sk}`, item]));
    const at = (key: { pk: string; sk: string }) => found.get(`${key.pk}|${key.sk}`);
    const stored: StoredRecipient[] = [];
    for (const ref of blocks) {
      const list = at(recipientsKey(sendId, ref.first));
      if (!list) continue;
      const block = at(blockKey(sendId, ref.first));
      const latest = at(latestKey(sendId, ref.first)) ?? {};
      const job = at({ pk: keys.send(sendId), sk: keys.sendJob(ref.job) });
      const repeats = (list.repeats ?? {}) as Record<string, number>;
      const outcomes = (block?.outcomes ?? []) as string[];
      const titles = (block?.titles ?? {}) as Record<string, string>;
      (list.to as string[]).forEach((to, offset) => {
        const encoded = latest[deliveryAttribute(offset)];
        const delivery = typeof encoded === 'string' ? decodeLatest(encoded, (code) => latest[titleAttribute(code)] as string) : undefined;
        const repeat = repeats[String(offset)];
        let outcome: PositionOutcome | undefined;
        let settledAt: string | undefined;
        if (repeat !== undefined) outcome = { kind: 'duplicate', of: repeat };
        else if (block?.state === 'settled') outcome = decode(String(outcomes[offset]), titles);
        else if (block?.state === 'lost') outcome = LOST_OUTCOME;
        else if (!block && job?.state === 'settled')
          outcome =
            job.outcome === 'failed'
              ? { kind: 'failed', code: String(job.code ?? 'unknown'), title: String(job.title ?? job.code ?? 'unknown') }
              : { kind: job.outcome as 'expired' | 'cancelled' };
        if (outcome && repeat === undefined) settledAt = String((block ?? job)?.settled_at ?? list.recorded_at);
        stored.push({
          index: ref.first + offset,
          to,
          ...(outcome && { outcome }),
          updated_at: delivery?.at ?? settledAt ?? String(list.recorded_at),
          ...(delivery && { delivery: delivery.state }),
        });
      });
    }
    return stored;
  }

  async cancel(sendId: string, at: string) {
    await this.setOnce(sendId, 'cancelled_at', at);
  }

  /** One item a job (at most 204,000 bytes as JSON, within DynamoDB's 400 KB), 25 a request. */
  async holdJobs(sendId: string, jobs: DispatchJob[]) {
    await putAll(
      this.table,
      jobs.map((job) => ({ pk: keys.send(sendId), sk: keys.sendHeldJob(job.job), entity: 'send_held_job', job: JSON.stringify(job) })),
    );
  }

  async heldJobs(sendId: string) {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :held)',
      ExpressionAttributeValues: { ':pk': keys.send(sendId), ':held': 'HELD_JOB#' },
      ConsistentRead: true,
    });
    return items.map((item) => JSON.parse(String(item.job)) as DispatchJob);
  }

  async markReleased(sendId: string, at: string) {
    await this.setOnce(sendId, 'released_at', at);
  }

  /** Sets an attribute of the send item unless it is set already (the first value stays). */
  private async setOnce(sendId: string, attribute: 'cancelled_at' | 'released_at' | 'stopped', value: unknown) {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET #a = :v',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#a)',
          ExpressionAttributeNames: { '#a': attribute },
          ExpressionAttributeValues: { ':v': value },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async isCancelled(sendId: string) {
    const result = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: { pk: keys.send(sendId), sk: SORT.send },
        ProjectionExpression: 'cancelled_at',
        ConsistentRead: true,
      }),
    );
    return result.Item?.cancelled_at !== undefined;
  }

  async stop(sendId: string, reason: { code: string; title: string }) {
    await this.setOnce(sendId, 'stopped', reason);
  }

  /**
   * Reports grouped by message, up to MESSAGES_PER_WRITE messages per transaction: each message's state is
   * written on condition of the version read, with one count shard for them all. A transaction cancelled by a
   * state that moved meanwhile is read and tried again; its reports then change only what is still new.
   */
  async applyDeliveries(sendId: string, updates: DeliveryUpdate[]): Promise<DeliveryResult[]> {
    const results: DeliveryResult[] = new Array(updates.length);
    const byMessage = new Map<number, number[]>();
    for (const [i, update] of updates.entries()) byMessage.set(update.index, [...(byMessage.get(update.index) ?? []), i]);
    const blocks = new Map<number, Record<string, unknown> | undefined>();
    for (const chunk of transactionsOf(byMessage, updates)) {
      for (let attempt = 1; ; attempt++) {
        // The blocks not read yet (a settled block never changes) and the messages' states, in one read.
        const unread = [...new Set(chunk.flatMap((index) => byMessage.get(index)!.map((i) => updates[i].block)))].filter(
          (b) => !blocks.has(b),
        );
        const read = await batchGet(
          this.table,
          [...unread.map((first) => blockKey(sendId, first)), ...chunk.map((index) => messageKey(sendId, index))],
          true,
        );
        const states = new Map<number, Record<string, unknown>>();
        for (const item of read) {
          if (item.entity === 'send_block')
            blocks.set(Number(item.first), item.state === 'claimed' || item.state === 'open' ? { state: 'claimed' } : item);
          else states.set(Number(item.index), item);
        }
        for (const first of unread) if (!blocks.has(first)) blocks.set(first, undefined);
        const writes: TransactItem[] = [];
        const counted: Tally = { add: {}, errors: new Map() };
        /** Each block's latest states to write on its latest item, by offset. */
        const latest = new Map<number, Map<number, DeliveryState>>();
        for (const index of chunk) {
          const stored = states.get(index);
          let state = (stored?.delivery ?? {}) as DeliveryState;
          let moved = false;
          for (const i of byMessage.get(index)!) {
            const update = updates[i];
            const block = blocks.get(update.block);
            if (!block) results[i] = 'unknown';
            else if (block.state === 'claimed') results[i] = 'unsettled';
            else if (sentMessageOf((block.outcomes as unknown[] | undefined)?.[index - update.block]) !== update.messageId)
              results[i] = 'unknown';
            else {
              const change = update.change(state);
              results[i] = change ? 'applied' : 'unchanged';
              if (!change) continue;
              state = change.next;
              moved = true;
              if (!latest.has(update.block)) latest.set(update.block, new Map());
              latest.get(update.block)!.set(index - update.block, state);
              for (const [field, n] of Object.entries(change.counts))
                counted.add[field as keyof SendCounts] = (counted.add[field as keyof SendCounts] ?? 0) + n;
              for (const e of change.errors) {
                const known = counted.errors.get(e.code) ?? { title: e.title, count: 0 };
                known.count += e.count;
                counted.errors.set(e.code, known);
              }
            }
          }
          if (!moved) continue;
          const version = Number(stored?.v ?? 0);
          writes.push({
            Put: {
              TableName: this.table.name,
              Item: {
                ...messageKey(sendId, index),
                entity: 'send_message',
                index,
                delivery: state,
                v: version + 1,
                [TTL_ATTRIBUTE]: expiry(Date.now()),
              },
              ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : '#v = :seen',
              ...(version > 0 && { ExpressionAttributeNames: { '#v': 'v' }, ExpressionAttributeValues: { ':seen': version } }),
            },
          });
        }
        if (writes.length === 0) break;
        for (const [first, states] of latest) writes.push(latestStatesUpdate(this.table.name, latestKey(sendId, first), states));
        try {
          await this.transact(() => [...writes, countUpdate(this.table.name, sendId, counted)]);
          break;
        } catch (error) {
          // Another report of one of these messages was applied meanwhile: read them again.
          if (!cancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= TRIES) throw error;
        }
      }
    }
    return results;
  }

  /**
   * One transaction, its items made again for each try (a count update picks another shard), tried again with
   * backoff and jitter while it is cancelled only by concurrent transactions; any other failure is thrown.
   */
  private async transact(items: () => TransactItem[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.table.client.send(new TransactWriteCommand({ TransactItems: items() }));
        return;
      } catch (error) {
        if (!isTransactionConflict(error) || attempt >= TRIES) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** attempt));
      }
    }
  }
}

/** The items that hold these blocks' recipients: each block's recipients, block and latest items, and their jobs'. */
export function recipientItemKeys(sendId: string, blocks: RecipientBlockRef[]) {
  const jobs = [...new Set(blocks.map((b) => b.job))];
  return [
    ...blocks.flatMap((b) => [recipientsKey(sendId, b.first), blockKey(sendId, b.first), latestKey(sendId, b.first)]),
    ...jobs.map((job) => ({ pk: keys.send(sendId), sk: keys.sendJob(job) })),
  ];
}

/**
 * Status reports' messages in transactions of at most ITEMS_PER_WRITE items: each message's state, each of
 * their blocks' latest items, and the count shard.
 */
function transactionsOf(byMessage: Map<number, number[]>, updates: DeliveryUpdate[]): number[][] {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  let blocks = new Set<number>();
  for (const [index, reports] of byMessage) {
    const added = [...new Set(reports.map((i) => updates[i].block))].filter((b) => !blocks.has(b));
    if (chunk.length > 0 && chunk.length + 1 + blocks.size + added.length + 1 > ITEMS_PER_WRITE) {
      chunks.push(chunk);
      chunk = [];
      blocks = new Set();
    }
    chunk.push(index);
    for (const b of reports.map((i) => updates[i].block)) blocks.add(b);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Messages' latest delivery states on their block's latest item, one attribute each, and failures' titles. */
function latestStatesUpdate(tableName: string, Key: { pk: string; sk: string }, states: Map<number, DeliveryState>): TransactItem {
  const names: Record<string, string> = { '#ttl': TTL_ATTRIBUTE };
  const now = Date.now();
  const values: Record<string, unknown> = { ':ttl': expiry(now) };
  const sets = [...states].map(([offset, state], n) => {
    names[`#d${n}`] = deliveryAttribute(offset);
    values[`:d${n}`] = encodeLatest(state, now);
    return `#d${n} = :d${n}`;
  });
  const failures = new Map([...states.values()].flatMap((state) => (state.failed ? [[state.failed.code, state.failed.title]] : [])));
  [...failures].forEach(([code, title], n) => {
    names[`#t${n}`] = titleAttribute(code);
    values[`:t${n}`] = title;
    sets.push(`#t${n} = :t${n}`);
  });
  return {
    Update: {
      TableName: tableName,
      Key,
      UpdateExpression: `SET ${sets.join(', ')}, #ttl = :ttl`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The stored send as the domain's send: the counts the send item holds (sends recorded before the count
 * shards kept them there) plus every shard's, and the error tally as a list.
 */
function toSend(item: Record<string, unknown>, shards: Record<string, unknown>[]): SendRecord {
  const { counts, error_counts, error_titles, gsi1pk: _p, gsi1sk: _s, ...rest } = stripKeys<Record<string, unknown>>(item) ?? {};
  const total: SendCounts = { ...NO_COUNTS, ...(counts as Partial<SendCounts>) };
  const tallies = new Map(Object.entries((error_counts ?? {}) as Record<string, number>));
  const titles = new Map(Object.entries((error_titles ?? {}) as Record<string, string>));
  for (const shard of shards) {
    for (const field of COUNT_FIELDS) total[field] += Number(shard[field] ?? 0);
    for (const [name, value] of Object.entries(shard)) {
      if (name.startsWith(ERROR)) tallies.set(name.slice(ERROR.length), (tallies.get(name.slice(ERROR.length)) ?? 0) + Number(value));
      else if (name.startsWith(TITLE)) titles.set(name.slice(TITLE.length), String(value));
    }
  }
  return {
    ...(rest as unknown as SendRecord),
    counts: total,
    errors: [...tallies.entries()]
      // A failure taken back (the message was delivered after all) leaves its code at 0.
      .filter(([, count]) => count > 0)
      .map(([code, count]) => ({ code, title: titles.get(code) ?? code, count }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}
