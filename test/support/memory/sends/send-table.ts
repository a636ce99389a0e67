import { type MessageState, failureCount } from '#lib/domain/shared/message-status.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { PositionOutcome, RecipientBlockRef, RecipientOutcome, SendCounts, SendRecord } from '#lib/domain/sends/ports.ts';
import type { DispatchJob, RecipientParams } from '#lib/domain/sends/dispatch-job.ts';
import type { MemoryBudgetStore } from '../money/budget-store.ts';
import type { Figure, FigureAdd, MessageReply, TemplateOfFigures } from '#lib/domain/sends/figures.ts';

/**
 * The sends' items as the table holds them, shared by the in-memory adapters of the sends' ports (one a file,
 * as lib/adapters/dynamo/sends/): what one part writes, another reads, as on the table.
 */
export class MemorySendTable {
  /** The budgets whose months the settlements move, as the table's transactions do (decisions §27). */
  constructor(readonly budgets?: MemoryBudgetStore) {}

  readonly sends = new Map<string, SendRecord>();
  /** Progress records written (a write of the block's item each, in the table). */
  progressWrites = 0;
  /** Blocks by `<send>|<first>`: as the DynamoDB adapter's block items. */
  readonly blocks = new Map<
    string,
    {
      state: 'claimed' | 'open' | 'settled';
      holder?: string;
      untilMs?: number;
      sendable: number;
      size: number;
      outcomes?: PositionOutcome[];
      /** While claimed or open: the answers recorded so far by offset, and the offset launches may have reached. */
      recorded: Map<number, PositionOutcome>;
      launchedTo: number;
    }
  >();
  /** Sent messages' delivery states by `<send>|<index>`. */
  readonly messages = new Map<string, MessageState>();
  /** Messages whose reserved part was given back at their TTL's end, by `<send>|<index>` (the table's mark). */
  readonly ttlReturned = new Set<string>();
  /** Set to make the writes of a send's acceptance fail (storage down). */
  failing = false;
  /** Recipients kept at acceptance by `<send>|<block first>`, with each message's latest state and when. */
  readonly recipientLists = new Map<
    string,
    {
      ref: RecipientBlockRef;
      to: (string | undefined)[];
      user_ids?: (string | undefined)[];
      repeats: (number | undefined)[];
      suppressed?: number[];
      params?: (RecipientParams | undefined)[];
      ab?: { variant?: number; asked?: number[] };
      at: string;
      latest: Map<number, { state: MessageState; at: string }>;
    }
  >();
  /** Events written with a pause or its end (the table's outbox items). */
  readonly events: ServiceEvent[] = [];
  /** Scheduled sends' held jobs, by send. */
  readonly held = new Map<string, DispatchJob[]>();
  /** Billable messages counted toward volume tiers: `<portfolio>|<month>|<market>|<category>` → messages (decisions §31). */
  readonly monthVolumes = new Map<string, number>();
  /** The cost ledger as the table keeps it: `<waba>|<day>|<client>|<did>|<market>|<category>` → charges. */
  readonly ledger: Record<string, { messages: number; billable: number; micros: number }> = {};
  /**
   * Charges applied after their month closed (decisions §30), also in `ledger`: by the month they are filed under
   * and their ledger key, `<month>|<waba>|<day>|<client>|<did>|<market>|<category>` → charges.
   */
  readonly lateLedger: Record<string, { messages: number; billable: number; micros: number }> = {};
  /** When the table's writes are applied (a test in virtual time sets it): where a late charge is filed. */
  clock: () => number = () => Date.now();
  readonly jobs = new Map<string, 'begun' | 'settled'>();
  /** The outcome of each job settled whole, by `<send>|<job>`. */
  readonly jobOutcomes = new Map<string, RecipientOutcome>();
  /** Each send's figures (decisions §33), as its count shards sum them: `<variant>|<day>|<figure>` → the add. */
  readonly figures = new Map<string, Map<string, FigureAdd>>();
  /** A client's templates' figures by day: `<client>|<day>|<waba>|<name>|<language>` → figure → sum. */
  readonly templateDays = new Map<string, Map<Figure, number>>();
  /** Each template day's currencies of cost and price, by the same key. */
  readonly templateDayCurrencies = new Map<string, { currency?: string; price_currency?: string }>();
  /** When each message was delivered (Meta's time), by `<send>|<index>`: the latest item's `a<offset>`. */
  readonly deliveredAt = new Map<string, number>();
  /** What each message's person answered, by `<send>|<index>`: the block's reply item. */
  readonly replies = new Map<string, MessageReply>();
  /** A number's sends' recipients by person: `<did>|<person key>` → each message, oldest send first. */
  readonly replyIndex = new Map<string, { send_id: string; block: number; index: number; at: string }[]>();
  /** Block variants other than 0, by `<send>|<first>` (the block item's `variant`). */
  readonly blockVariants = new Map<string, number>();

  /** Adds figures to a send's and to their templates' days, as the count shard and template day items take them. */
  addFigures(sendId: string, adds: readonly FigureAdd[], templateOf: (variant: number) => TemplateOfFigures | undefined) {
    const sums = this.figures.get(sendId) ?? new Map<string, FigureAdd>();
    for (const add of adds) {
      const key = `${add.variant}|${add.day}|${add.figure}`;
      const known = sums.get(key) ?? { ...add, n: 0 };
      known.n += add.n;
      sums.set(key, known);
      const template = templateOf(add.variant);
      if (!template) continue;
      const day = `${template.client_id}|${add.day}|${template.waba_id}|${template.name}|${template.language}`;
      const figures = this.templateDays.get(day) ?? new Map<Figure, number>();
      figures.set(add.figure, (figures.get(add.figure) ?? 0) + add.n);
      this.templateDays.set(day, figures);
      if ((add.figure === 'cost' || add.figure === 'price') && template.currency)
        this.templateDayCurrencies.set(day, { currency: template.currency, price_currency: template.price_currency });
    }
    this.figures.set(sendId, sums);
  }

  /** Adds to a send's counts and its errors, as the send item's atomic counters do. */
  count(sendId: string, counts: Partial<SendCounts>, errors: { code: string; title: string; count: number }[]) {
    const send = this.sends.get(sendId)!;
    for (const [field, n] of Object.entries(counts)) send.counts![field as keyof SendCounts] += n;
    for (const { code, title, count } of errors) {
      const known = send.errors!.find((e) => e.code === code);
      if (known) known.count += count;
      else send.errors!.push({ code, title, count });
    }
    // As the DynamoDB adapter's tally: a sum that may dip below zero (a status taking back a failure its claimed
    // block adds later); a code shows while its sum is above zero (MemorySendRecords.get).
    send.errors = send.errors!.filter((e) => e.count !== 0);
  }

  /** Counts one position's outcome on its send (repeats and suppressed recipients were counted at acceptance). */
  add(sendId: string, outcome: PositionOutcome) {
    if (outcome.kind === 'duplicate' || outcome.kind === 'suppressed') return;
    if (outcome.kind === 'failed')
      this.count(sendId, { [failureCount(outcome.code)]: 1 }, [{ code: outcome.code, title: outcome.title, count: 1 }]);
    else this.count(sendId, { [outcome.kind]: 1, ...(outcome.kind === 'sent' && outcome.held && { held: 1 }) }, []);
  }
}
