import type { BudgetRelease } from '#lib/domain/money/ports.ts';
import type { ReservationReturns } from '#lib/domain/sends/ports.ts';
import type { MemorySendTable } from './send-table.ts';

/** A failed send's whole reservation given back once: the mark on the send and the release together. */
export class MemoryReservationReturns implements ReservationReturns {
  constructor(private readonly table: MemorySendTable) {}

  async returnWhole(sendId: string, release: BudgetRelease | undefined, at: string) {
    const send = this.table.sends.get(sendId);
    if (!send) return 'no_send' as const;
    if (send.reservation_returned_at) return 'already' as const;
    send.reservation_returned_at = at;
    this.table.budgets?.settle(release);
    return 'returned' as const;
  }
}
