import { MARK_STEP } from './tuning.ts';

/**
 * A block's progress records (issue 33). Before a holder launches past its last record, it records its answers so
 * far and the offset it may launch up to next, every MARK_STEP positions (tuning.ts); the next record is begun half a step
 * early, so a launch seldom waits for the write. After a crash only the launches since each open block's last
 * record, and the answers then awaited (what was in flight), are `outcome_unknown`. Waiting for those answers
 * before each record would bound them too, but an upstream answering in a second would then cap a number at
 * MARK_STEP messages a second. About 9 writes of the block's item per block of 90.
 */
export class ProgressRecords {
  /** Offsets below this may have been launched, as recorded on the block. */
  private mark = 0;
  /** The next record, written while the launches before it go on. */
  private ahead: { to: number; written: Promise<boolean> } | undefined;

  /** `record(launchedTo)` writes the holder's answers so far and that offset; false when the block is no longer its. */
  constructor(
    private readonly size: number,
    private readonly record: (launchedTo: number) => Promise<boolean>,
  ) {}

  /** Before launching the position at `offset` of the block: false when the block is no longer this holder's. */
  async mayLaunch(offset: number): Promise<boolean> {
    if (!this.ahead && offset >= this.mark - MARK_STEP / 2) {
      const to = Math.min(this.size, Math.max(this.mark, offset) + MARK_STEP);
      const written = this.record(to);
      // Awaited below when the launches reach it; an early failure must not go unhandled meanwhile.
      written.catch(() => undefined);
      this.ahead = { to, written };
    }
    if (offset >= this.mark && this.ahead) {
      if (!(await this.ahead.written)) return false;
      this.mark = this.ahead.to;
      this.ahead = undefined;
    }
    return true;
  }
}
