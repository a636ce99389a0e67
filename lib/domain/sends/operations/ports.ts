import type { ReservationWatch } from '../../money/ports.ts';

// The ports of a send's operations after its acceptance (its cancel, release and reservation's end).

/**
 * Reservations' watches (decisions §30: reservations always end), each written with its reservation
 * (BudgetStore.reserve) and looked at from its due time by the hourly EndReservations job.
 */
export interface ReservationWatches {
  /** The watches due by `now`, the longest due first, at most `limit`. */
  due(now: string, limit: number): Promise<ReservationWatch[]>;
  /** Looked at again from `dueAt`. */
  refile(watch: ReservationWatch, dueAt: string): Promise<void>;
  /** Its reservation ended otherwise: nothing more to look at. */
  forget(watch: ReservationWatch): Promise<void>;
  /**
   * A send never recorded (its acceptance crashed or failed before): the whole reservation given back and the
   * watch dropped in one write, on condition the watch is still there; false when it was not (given back already).
   */
  returnUnrecorded(watch: ReservationWatch): Promise<boolean>;
}
