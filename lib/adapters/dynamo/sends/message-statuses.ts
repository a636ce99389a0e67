import type { DeliveryState } from '#lib/domain/shared/message-status.ts';
import type { DeliveryResult, DeliveryStatuses, DeliveryUpdate, SendCounts } from '#lib/domain/sends/ports.ts';
import { dayOf } from '#lib/domain/money/pricing/rate-card.ts';
import { addMove, type BudgetMoves, type SendReservation } from '#lib/domain/money/pricing/reservation.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { budgetMoveUpdate } from '../money/budget-store.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';
import { cancellationCodes, type TransactItem } from '../transactions.ts';
import {
  blockKey,
  deliveryAttribute,
  encodeLatest,
  expiry,
  ITEMS_PER_WRITE,
  latestKey,
  messageKey,
  acceptedStateOf,
  isOutcomeOf,
  type ChargeTally,
  ledgerKey,
  ledgerUpdate,
  monthVolumeUpdate,
  type Tally,
  TRIES,
  titleAttribute,
  transact,
  countUpdate,
} from './send-items.ts';

/**
 * The delivery statuses of a send's messages (decisions §13): each message's state on its own item, versioned,
 * its latest on its block's latest item for the listing, and the send's counts on a count shard.
 */
export class DynamoDeliveryStatuses implements DeliveryStatuses {
  constructor(private readonly table: ServiceTable) {}

  /**
   * Reports grouped by message, up to MESSAGES_PER_WRITE messages per transaction: each message's state is
   * written on condition of the version read, with one count shard for them all. A transaction cancelled by a
   * state that moved meanwhile is read and tried again; its reports then change only what is still new.
   */
  async accountOf(sendId: string) {
    if (!owners.has(sendId)) {
      const { Item } = await this.table.client.send(
        new GetCommand({ TableName: this.table.name, Key: { pk: keys.send(sendId), sk: SORT.send } }),
      );
      if (!Item) return undefined;
      rememberOwner(sendId, ownerOf(Item));
    }
    const owner = owners.get(sendId);
    return owner && { client_id: owner.client_id, ...(owner.reservation && { reservation: owner.reservation }) };
  }

  async applyDeliveries(sendId: string, updates: DeliveryUpdate[], wabaId?: string): Promise<DeliveryResult[]> {
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
        // Whose the send is (its client and number: where its charges go), read with them the first time.
        const ownerUnknown = !owners.has(sendId);
        const read = await batchGet(
          this.table,
          [
            ...unread.map((first) => blockKey(sendId, first)),
            ...chunk.map((index) => messageKey(sendId, index)),
            ...(ownerUnknown ? [{ pk: keys.send(sendId), sk: SORT.send }] : []),
          ],
          true,
        );
        const states = new Map<number, Record<string, unknown>>();
        for (const item of read) {
          if (item.entity === 'send') rememberOwner(sendId, ownerOf(item));
          else if (item.entity === 'send_block')
            blocks.set(Number(item.first), item.state === 'claimed' || item.state === 'open' ? { state: 'claimed' } : item);
          else states.set(Number(item.index), item);
        }
        for (const first of unread) if (!blocks.has(first)) blocks.set(first, undefined);
        const writes: TransactItem[] = [];
        const counted: Tally = { add: {}, errors: new Map(), costs: new Map() };
        /** The charges for the client's ledger, by day, then market and category. */
        const charges = new Map<string, Map<string, ChargeTally>>();
        /** The billable messages that count toward a volume tier, by month, then market and category. */
        const tiered = new Map<string, Map<string, number>>();
        /** What settles of the client's months (decisions §27): spent by the month delivered, released by the reserved. */
        const moves: BudgetMoves = new Map();
        /** Each block's latest states to write on its latest item, by offset. */
        const latest = new Map<number, Map<number, DeliveryState>>();
        for (const index of chunk) {
          const stored = states.get(index);
          // No status applied yet: the state the message was accepted in (held by Meta, or not).
          let state = stored?.delivery as DeliveryState | undefined;
          let moved = false;
          for (const i of byMessage.get(index)!) {
            const update = updates[i];
            const block = blocks.get(update.block);
            if (!block) results[i] = 'unknown';
            else if (block.state === 'claimed') results[i] = 'unsettled';
            else if (!isOutcomeOf((block.outcomes as unknown[] | undefined)?.[index - update.block], update.messageId))
              results[i] = 'unknown';
            else {
              state ??= acceptedStateOf((block.outcomes as unknown[])[index - update.block], block.titles as Record<string, string>);
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
              if (change.settles && update.reserved) addMove(moves, update.reserved.month, { released: update.reserved.micros });
              if (change.charge) {
                const { pricing, micros } = change.charge;
                addMove(moves, dayOf(update.chargedAt ?? Date.now()).slice(0, 7), { spent: change.charge.budget_micros ?? micros });
                addCharge(counted.costs!, pricing.category, pricing.billable, micros, change.charge.price?.micros);
                const day = dayOf(update.chargedAt ?? Date.now());
                if (!charges.has(day)) charges.set(day, new Map());
                addCharge(charges.get(day)!, ledgerKey(change.charge), pricing.billable, micros, change.charge.price?.micros);
                if (update.tierVolume && micros > 0) {
                  const { month, key } = update.tierVolume;
                  if (!tiered.has(month)) tiered.set(month, new Map());
                  tiered.get(month)!.set(key, (tiered.get(month)!.get(key) ?? 0) + 1);
                }
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
        const owner = owners.get(sendId);
        if (wabaId && owner)
          for (const [day, entries] of charges) writes.push(ledgerUpdate(this.table.name, { waba_id: wabaId, ...owner }, day, entries));
        if (wabaId) for (const [month, counts] of tiered) writes.push(monthVolumeUpdate(this.table.name, wabaId, month, counts));
        if (owner)
          for (const [month, move] of moves)
            if (move.spent || move.released) writes.push(budgetMoveUpdate(this.table.name, owner.client_id, month, move));
        try {
          await transact(this.table, () => [...writes, countUpdate(this.table.name, sendId, counted)]);
          break;
        } catch (error) {
          // Another report of one of these messages was applied meanwhile: read them again.
          if (!cancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= TRIES) throw error;
        }
      }
    }
    return results;
  }
}

/**
 * Status reports' messages in transactions of at most ITEMS_PER_WRITE items, counting every item one holds
 * (decisions §26): each message's state, each of their blocks' latest items, the count shard, and a ledger
 * item for each day its charges fall on (a send has one number, so one ledger item a day) and for each month
 * whose volume tier they count toward.
 */
export function transactionsOf(byMessage: Map<number, number[]>, updates: DeliveryUpdate[]): number[][] {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  let blocks = new Set<number>();
  let days = new Set<string>();
  const itemsWith = (blockCount: number, dayCount: number) => chunk.length + 1 + blockCount + COUNT_ITEMS + dayCount;
  for (const [index, reports] of byMessage) {
    const ownBlocks = reports.map((i) => updates[i].block);
    const ownDays = reports.flatMap((i) => ledgerItemsOf(updates[i]));
    const newBlocks = new Set(ownBlocks.filter((b) => !blocks.has(b))).size;
    const newDays = new Set(ownDays.filter((d) => !days.has(d))).size;
    if (chunk.length > 0 && itemsWith(blocks.size + newBlocks, days.size + newDays) > ITEMS_PER_WRITE) {
      chunks.push(chunk);
      chunk = [];
      blocks = new Set();
      days = new Set();
    }
    chunk.push(index);
    for (const b of ownBlocks) blocks.add(b);
    for (const d of ownDays) days.add(d);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The send's count shard, in every status transaction. */
const COUNT_ITEMS = 1;

/**
 * The ledger and budget items a report may add to: its charge's day and month (the client's spent), its month's
 * volume where it is tier-counted, and the month its send reserved in (the reservation given back).
 */
const ledgerItemsOf = (update: DeliveryUpdate) => [
  ...(update.chargedAt === undefined
    ? []
    : [
        dayOf(update.chargedAt),
        `budget ${dayOf(update.chargedAt).slice(0, 7)}`,
        ...(update.tierVolume ? [`volume ${update.tierVolume.month}`] : []),
      ]),
  ...(update.reserved ? [`budget ${update.reserved.month}`] : []),
];

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

function addCharge(into: Map<string, ChargeTally>, key: string, billable: boolean, micros: number, price?: number) {
  const known = into.get(key) ?? { messages: 0, billable: 0, micros: 0 };
  known.messages += 1;
  if (billable) known.billable += 1;
  known.micros += micros;
  if (price !== undefined) known.price = (known.price ?? 0) + price;
  into.set(key, known);
}

/** Whose each send is and what it reserved, as read once: neither ever changes. */
const owners = new Map<string, SendOwner>();
const OWNERS_KEPT = 10_000;
type SendOwner = { client_id: number; did: string; reservation?: SendReservation };

const ownerOf = (item: Record<string, unknown>): SendOwner => ({
  client_id: Number(item.client_id),
  did: String(item.did),
  ...(item.reservation !== undefined && { reservation: item.reservation as SendReservation }),
});

function rememberOwner(sendId: string, owner: SendOwner) {
  if (owners.size >= OWNERS_KEPT) owners.delete(owners.keys().next().value as string);
  owners.set(sendId, owner);
}
