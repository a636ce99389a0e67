// Template syncs: their lease and progress (decisions §7).

/** How a sync run ended (decisions §14). */
export interface SyncRunResult {
  started_at: string;
  finished_at: string;
  result: 'succeeded' | 'failed';
  templates_seen: number;
  changes: number;
  error?: string;
}

/** How far a running sync got (decisions §14). */
export interface SyncProgress {
  wabas_done: number;
  wabas_total: number;
  pages: number;
  templates_seen: number;
  changes: number;
}

/** A client's sync as its lease and last run show it: `running` while an unexpired lease is held. */
export interface SyncState {
  running?: { started_at: string; progress?: SyncProgress };
  lastRun: SyncRunResult | null;
}

/** The one-sync-at-a-time lease per client: a conditional write with an expiry (decisions §4). */
export interface SyncLeaseStore {
  acquire(clientId: number, leaseId: string, nowMs: number, ttlMs: number): Promise<boolean>;
  holds(clientId: number, leaseId: string, nowMs: number): Promise<boolean>;
  /** Keeps the run's progress on its lease (only while the lease is this run's; otherwise nothing happens). */
  report(clientId: number, leaseId: string, progress: SyncProgress): Promise<void>;
  /** Gives the lease back (only its holder can); with a run's result, records it as the client's last run. */
  release(clientId: number, leaseId: string, lastRun?: SyncRunResult): Promise<void>;
  /** The running sync (an unexpired lease) and the last finished run, in one read. */
  state(clientId: number, nowMs: number): Promise<SyncState>;
}
