import type { BudgetRelease } from '#lib/domain/money/ports.ts';
import {
  LOST_OUTCOME,
  type BlockClaim,
  type BlockLedger,
  type BlockProgress,
  type ClaimLease,
  type PositionOutcome,
  type RecipientBlock,
  type RecipientOutcome,
  type RecordedOutcomes,
} from '#lib/domain/sends/ports.ts';
import { copy } from '../copy.ts';
import { dispatchFigures, type PerformanceMark } from '#lib/domain/sends/figures.ts';
import type { MemorySendTable } from './send-table.ts';

export class MemoryBlockLedger implements BlockLedger {
  constructor(private readonly table: MemorySendTable) {}

  async claimBlock(sendId: string, block: RecipientBlock, lease: ClaimLease, nowMs: number): Promise<BlockClaim> {
    const id = `${sendId}|${block.first}`;
    const existing = this.table.blocks.get(id);
    if (!existing) {
      if (block.variant) this.table.blockVariants.set(id, block.variant);
      this.table.blocks.set(id, {
        state: 'claimed',
        holder: lease.holder,
        untilMs: lease.untilMs,
        sendable: block.sendable,
        size: block.size,
        recorded: new Map(),
        launchedTo: 0,
      });
      return { claimed: new Map() };
    }
    if (existing.state === 'settled') return 'done';
    if (existing.state === 'claimed' && existing.holder === lease.holder) return { claimed: new Map(existing.recorded) };
    if (existing.state === 'claimed' && (existing.untilMs ?? 0) > nowMs) return 'busy';
    // Handed back, or its holder died: what it launched without a recorded answer may have gone, never again.
    if (existing.state === 'claimed')
      for (let offset = 0; offset < existing.launchedTo; offset++)
        if (!existing.recorded.has(offset)) existing.recorded.set(offset, LOST_OUTCOME);
    Object.assign(existing, { state: 'claimed', holder: lease.holder, untilMs: lease.untilMs });
    return { claimed: new Map(existing.recorded) };
  }
  private heldUnder(sendId: string, block: RecipientBlock, lease: ClaimLease) {
    const existing = this.table.blocks.get(`${sendId}|${block.first}`);
    return existing?.state === 'claimed' && existing.holder === lease.holder && existing.untilMs === lease.untilMs ? existing : undefined;
  }
  async recordProgress(sendId: string, block: RecipientBlock, lease: ClaimLease, progress: BlockProgress) {
    const existing = this.heldUnder(sendId, block, lease);
    if (!existing) return false;
    existing.recorded = new Map(copy([...progress.outcomes]));
    existing.launchedTo = progress.launchedTo;
    this.table.progressWrites++;
    return true;
  }
  async handBack(sendId: string, block: RecipientBlock, lease: ClaimLease, outcomes: RecordedOutcomes) {
    const existing = this.heldUnder(sendId, block, lease);
    if (!existing) return;
    Object.assign(existing, { state: 'open', holder: undefined, untilMs: undefined, recorded: new Map(copy([...outcomes])) });
  }
  async settleBlock(
    sendId: string,
    block: RecipientBlock,
    outcomes: PositionOutcome[],
    lease: ClaimLease,
    release?: BudgetRelease,
    mark?: PerformanceMark,
  ) {
    const existing = this.heldUnder(sendId, block, lease);
    if (!existing) return;
    this.table.budgets?.settle(release);
    existing.state = 'settled';
    existing.outcomes = copy(outcomes);
    for (const outcome of outcomes) this.table.add(sendId, outcome);
    // Its figures on the send and its template's day, as the settlement's transaction adds them (decisions §33).
    if (mark) {
      this.table.addFigures(sendId, dispatchFigures(outcomes, mark).adds, () => mark.template);
      if (mark.variant) this.table.blockVariants.set(`${sendId}|${block.first}`, mark.variant);
    }
  }
  async beginJob(sendId: string, job: number) {
    const id = `${sendId}|${job}`;
    if (!this.table.jobs.has(id)) this.table.jobs.set(id, 'begun');
    return this.table.jobs.get(id)!;
  }
  async settleJob(sendId: string, job: number, recipients: number, outcome: RecipientOutcome, release?: BudgetRelease) {
    const id = `${sendId}|${job}`;
    if (this.table.jobs.has(id)) return false;
    this.table.budgets?.settle(release);
    this.table.jobs.set(id, 'settled');
    this.table.jobOutcomes.set(id, copy(outcome));
    for (let i = 0; i < recipients; i++) this.table.add(sendId, outcome);
    return true;
  }
}
