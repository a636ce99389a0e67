import type { TestDecision } from '#lib/domain/sends/ab/ab-send.ts';
import type { TestDecisions } from '#lib/domain/sends/ab/ports.ts';
import { copy } from '../copy.ts';
import type { MemorySendTable } from './send-table.ts';

/** A test-first send's decision and its rest's release on the send (decisions §33): each set once, the first stays. */
export class MemoryTestDecisions implements TestDecisions {
  constructor(private readonly table: MemorySendTable) {}

  async decide(sendId: string, decision: TestDecision) {
    const test = this.table.sends.get(sendId)?.ab?.test;
    if (!test) throw new Error(`send ${sendId} has no test to decide`);
    test.decision ??= copy(decision);
    return copy(test.decision);
  }
  async markRestReleased(sendId: string, at: string) {
    const test = this.table.sends.get(sendId)?.ab?.test;
    if (test && !test.rest_released_at) test.rest_released_at = at;
  }
}
