import { type MessageState, failureCount } from '#lib/domain/shared/message-status.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { PositionOutcome, RecipientBlockRef, RecipientOutcome, SendCounts, SendRecord } from '#lib/domain/sends/ports.ts';
import type { DispatchJob, RecipientParams } from '#lib/domain/sends/dispatch-job.ts';
import type { MemoryBudgetStore } from '../money/budget-store.ts';

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
