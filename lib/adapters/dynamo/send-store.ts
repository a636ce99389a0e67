import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryChange, DeliveryState } from '#lib/domain/delivery.ts';
import type { ClaimLease, ClaimStatus, RecipientClaim, RecipientOutcome, SendCounts, SendRecord, SendStore } from '#lib/domain/ports.ts';
import { inParallel } from '#lib/domain/parallel.ts';
import type { ServiceTable } from './client.ts';
import { queryFirst, stripKeys } from './directory-store.ts';
import { keys, SORT, TTL_ATTRIBUTE } from './table.ts';
import { cancellationCodes, isConditionalCheckFailure, type TransactItem, transactWrite } from './transactions.ts';

/** Claims and recipients are kept this long after the send (then TTL removes them): longer than any send's TTL. */
const RECIPIENT_DAYS = 35;
/** Claims written at once by one block. */
const CLAIM_PARALLELISM = 16;
const ZERO_COUNTS: SendCounts = { duplicates_removed: 0, expired: 0, sent: 0, failed: 0, delivered: 0, read: 0 };

/**
 * A send's numbers, one update: adds outcomes to the counts and the error tally. Codes become attribute names
 * (`#e0`), never part of the expression text.
 */
function countUpdate(
  tableName: string,
  sendId: string,
  add: Partial<SendCounts>,
  errors: Map<string, { title: string; count: number }>,
): TransactItem {
  const sets: string[] = [];
  const names: Record<string, string> = { '#c': 'counts' };
  const values: Record<string, unknown> = { ':zero': 0 };
  for (const [field, n] of Object.entries(add)) {
    if (!n) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = n;
    sets.push(`#c.#${field} = if_not_exists(#c.#${field}, :zero) + :${field}`);
  }
  if (errors.size > 0) Object.assign(names, { '#ec': 'error_counts', '#et': 'error_titles' });
  [...errors.entries()].forEach(([code, { title, count }], i) => {
    names[`#e${i}`] = code;
    values[`:e${i}`] = count;
    values[`:t${i}`] = title;
    sets.push(`#ec.#e${i} = if_not_exists(#ec.#e${i}, :zero) + :e${i}`, `#et.#e${i} = :t${i}`);
  });
  return {
    Update: {
      TableName: tableName,
      Key: { pk: keys.send(sendId), sk: SORT.send },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** What outcomes add to a send's counts and errors. */
function tally(outcomes: RecipientOutcome[]) {
  const add: Partial<SendCounts> = {};
  const errors = new Map<string, { title: string; count: number }>();
  for (const outcome of outcomes) {
    if (outcome.kind === 'sent') add.sent = (add.sent ?? 0) + 1;
    else if (outcome.kind === 'expired') add.expired = (add.expired ?? 0) + 1;
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
 * Sends by id, and a client's queued sends newest first on gsi1 (docs/data-model.md). Each recipient of a send
 * is an item under the send (`RECIPIENT#<digits>`, or `RECIPIENT##<position>` when duplicates are allowed):
 * claimed with a conditional Put before its message goes out, settled with the send's counts in one
 * transaction after.
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
          counts: ZERO_COUNTS,
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
    await transactWrite(this.table, [
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

  async get(sendId: string) {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.send(sendId), sk: SORT.send }, ConsistentRead: true }),
    );
    return result.Item ? toSend(result.Item) : null;
  }

  /** One page: reads the page's items and the ones before it on the index, and the client's count. */
  async list(clientId: number, page: { offset: number; size: number }) {
    const items = await queryFirst(
      this.table,
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.clientSends(clientId) },
        ScanIndexForward: false,
      },
      page.offset + page.size,
    );
    const count = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SORT.sendCount } }),
    );
    return { sends: items.slice(page.offset).map(toSend), total: Number(count.Item?.sends ?? 0) };
  }

  /**
   * Each claim is its own conditional Put, CLAIM_PARALLELISM at a time: independent writes (half the cost of
   * a transaction's), and a claim that exists already costs only itself. A key twice in one block is put
   * once; the later one is resolved as a duplicate afterwards.
   */
  async claim(sendId: string, claims: RecipientClaim[], lease: ClaimLease, nowMs: number): Promise<ClaimStatus[]> {
    const expires = Math.ceil(nowMs / 1000) + RECIPIENT_DAYS * 86_400;
    const firstOfKey = new Map<string, number>();
    for (const [i, claim] of claims.entries()) if (!firstOfKey.has(claim.key)) firstOfKey.set(claim.key, i);
    const statuses = await inParallel(claims, CLAIM_PARALLELISM, async (claim, i): Promise<ClaimStatus | undefined> => {
      if (firstOfKey.get(claim.key) !== i) return undefined;
      try {
        await this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: {
              pk: keys.send(sendId),
              sk: keys.sendRecipient(claim.key),
              entity: 'send_recipient',
              index: claim.index,
              state: 'claimed',
              holder: lease.holder,
              lease_until: lease.untilMs,
              [TTL_ATTRIBUTE]: expires,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return 'claimed';
      } catch (error) {
        if (isConditionalCheckFailure(error)) return undefined;
        throw error;
      }
    });
    // Those taken already (a redelivered block: all of them) are resolved as many at a time as they were put.
    return inParallel(claims, CLAIM_PARALLELISM, async (claim, i) => statuses[i] ?? this.resolveTaken(sendId, claim, lease, nowMs));
  }

  /** A recipient key that exists already: the same position from an earlier delivery, or a duplicate. */
  private async resolveTaken(sendId: string, claim: RecipientClaim, lease: ClaimLease, nowMs: number): Promise<ClaimStatus> {
    const key = { pk: keys.send(sendId), sk: keys.sendRecipient(claim.key) };
    const existing = (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }))).Item;
    if (!existing) throw new Error('a claimed recipient vanished');
    if (existing.index !== claim.index) {
      try {
        await transactWrite(this.table, [
          {
            Put: {
              TableName: this.table.name,
              Item: { pk: keys.send(sendId), sk: keys.sendDuplicate(claim.index), entity: 'send_duplicate', of: existing.index },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          countUpdate(this.table.name, sendId, { duplicates_removed: 1 }, new Map()),
        ]);
      } catch (error) {
        if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
      }
      return 'duplicate';
    }
    if (existing.state !== 'claimed') return 'done';
    if (existing.holder === lease.holder) return 'claimed';
    if (Number(existing.lease_until) > nowMs) return 'busy';
    // Its holder's time ran out before it settled: the message may have gone out, so it is never sent again.
    const lost: RecipientOutcome = {
      kind: 'failed',
      code: 'outcome_unknown',
      title: 'The dispatcher stopped before it learned the outcome',
    };
    try {
      await this.settleOne(sendId, claim, lost, { holder: existing.holder, untilMs: existing.lease_until });
      return 'lost';
    } catch (error) {
      if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) return 'done';
      throw error;
    }
  }

  async record(sendId: string, outcomes: { claim: RecipientClaim; outcome: RecipientOutcome }[], lease: ClaimLease) {
    for (let start = 0; start < outcomes.length; start += 99) {
      const chunk = outcomes.slice(start, start + 99);
      const { add, errors } = tally(chunk.map((o) => o.outcome));
      try {
        await this.table.client.send(
          new TransactWriteCommand({
            TransactItems: [
              ...chunk.map(({ claim, outcome }) => this.settleItem(sendId, claim, outcome, lease)),
              countUpdate(this.table.name, sendId, add, errors),
            ],
          }),
        );
      } catch (error) {
        if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
        // A claim was settled meanwhile as lost (its lease ran out): settle the others one by one.
        for (const { claim, outcome } of chunk) {
          await this.settleOne(sendId, claim, outcome, lease).catch((e) => {
            if (!cancellationCodes(e)?.includes('ConditionalCheckFailed')) throw e;
          });
        }
      }
    }
  }

  private settleItem(sendId: string, claim: RecipientClaim, outcome: RecipientOutcome, lease: ClaimLease): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: { pk: keys.send(sendId), sk: keys.sendRecipient(claim.key) },
        UpdateExpression: 'SET #state = :state, #detail = :detail REMOVE holder',
        ConditionExpression: '#state = :claimed AND holder = :holder AND lease_until = :until',
        ExpressionAttributeNames: { '#state': 'state', '#detail': 'detail' },
        ExpressionAttributeValues: {
          ':state': outcome.kind,
          ':detail': outcome.kind === 'sent' ? outcome.message_id : outcome.kind === 'failed' ? outcome.code : '-',
          ':claimed': 'claimed',
          ':holder': lease.holder,
          ':until': lease.untilMs,
        },
      },
    };
  }

  private async settleOne(sendId: string, claim: RecipientClaim, outcome: RecipientOutcome, lease: ClaimLease) {
    const { add, errors } = tally([outcome]);
    await transactWrite(this.table, [this.settleItem(sendId, claim, outcome, lease), countUpdate(this.table.name, sendId, add, errors)]);
  }

  /** A send recorded by a version without counts (before the dispatcher) gets them before its first outcome. */
  private async ensureCounts(sendId: string) {
    await this.table.client
      .send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET #c = if_not_exists(#c, :zero), #ec = if_not_exists(#ec, :none), #et = if_not_exists(#et, :none)',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#c)',
          ExpressionAttributeNames: { '#c': 'counts', '#ec': 'error_counts', '#et': 'error_titles' },
          ExpressionAttributeValues: { ':zero': ZERO_COUNTS, ':none': {} },
        }),
      )
      .catch((error) => {
        if (!isConditionalCheckFailure(error)) throw error;
      });
  }

  async beginJob(sendId: string, job: number) {
    await this.ensureCounts(sendId);
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
    await this.ensureCounts(sendId);
    const { add, errors } = tally(Array.from({ length: recipients }, () => outcome));
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: { pk: keys.send(sendId), sk: keys.sendJob(job), entity: 'send_job', state: 'settled', outcome: outcome.kind },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        countUpdate(this.table.name, sendId, add, errors),
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) return false;
      throw error;
    }
  }

  /**
   * The recipient item keeps the message's delivery state and a version; the state moves with the send's counts
   * in one transaction conditioned on the version read, so two reports of one message never both count.
   */
  async applyDelivery(sendId: string, recipientKey: string, messageId: string, change: (state: DeliveryState) => DeliveryChange | null) {
    const key = { pk: keys.send(sendId), sk: keys.sendRecipient(recipientKey) };
    for (let attempt = 1; ; attempt++) {
      const item = (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }))).Item;
      if (!item) return 'unknown';
      if (item.state === 'claimed') return 'unsettled';
      if (item.state !== 'sent' || item.detail !== messageId) return 'unknown';
      const version = Number(item.delivery_version ?? 0);
      const moved = change((item.delivery ?? {}) as DeliveryState);
      if (!moved) return 'unchanged';
      const errors = new Map(moved.errors.map((e) => [e.code, { title: e.title, count: e.count as number }]));
      try {
        await transactWrite(this.table, [
          {
            Update: {
              TableName: this.table.name,
              Key: key,
              UpdateExpression: 'SET delivery = :next, delivery_version = :v',
              ConditionExpression: version === 0 ? 'attribute_not_exists(delivery_version)' : 'delivery_version = :seen',
              ExpressionAttributeValues: { ':next': moved.next, ':v': version + 1, ...(version > 0 && { ':seen': version }) },
            },
          },
          countUpdate(this.table.name, sendId, moved.counts, errors),
        ]);
        return 'applied';
      } catch (error) {
        if (!cancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= DELIVERY_TRIES) throw error;
      }
    }
  }

  async stop(sendId: string, reason: { code: string; title: string }) {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: { pk: keys.send(sendId), sk: SORT.send },
          UpdateExpression: 'SET stopped = :r',
          ConditionExpression: 'attribute_not_exists(stopped)',
          ExpressionAttributeValues: { ':r': reason },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }
}

/** Tries of a delivery report against concurrent reports of the same message. */
const DELIVERY_TRIES = 8;

/** The stored item as the domain's send: its counts, and its error tally as a list. */
function toSend(item: Record<string, unknown>): SendRecord {
  const { counts, error_counts, error_titles, gsi1pk: _p, gsi1sk: _s, ...rest } = stripKeys<Record<string, unknown>>(item) ?? {};
  const tallies = (error_counts ?? {}) as Record<string, number>;
  const titles = (error_titles ?? {}) as Record<string, string>;
  return {
    ...(rest as unknown as SendRecord),
    counts: { ...ZERO_COUNTS, ...(counts as Partial<SendCounts>) },
    errors: Object.entries(tallies)
      // A failure taken back (the message was delivered after all) leaves its code at 0.
      .filter(([, count]) => count > 0)
      .map(([code, count]) => ({ code, title: titles[code] ?? code, count }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}
