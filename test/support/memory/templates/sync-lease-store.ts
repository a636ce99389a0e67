import type { SyncLeaseStore, SyncProgress, SyncRunResult, SyncState } from '#lib/domain/templates/ports.ts';
import { copy } from '../copy.ts';

export class MemorySyncLeaseStore implements SyncLeaseStore {
  readonly leases = new Map<number, { leaseId: string; expiresAtMs: number; startedAt: string; progress?: SyncProgress }>();

  async acquire(clientId: number, leaseId: string, nowMs: number, ttlMs: number) {
    const current = this.leases.get(clientId);
    if (current && current.expiresAtMs >= nowMs) return false;
    this.leases.set(clientId, { leaseId, expiresAtMs: nowMs + ttlMs, startedAt: new Date(nowMs).toISOString() });
    return true;
  }
  async holds(clientId: number, leaseId: string, nowMs: number) {
    const current = this.leases.get(clientId);
    return current?.leaseId === leaseId && current.expiresAtMs >= nowMs;
  }
  readonly lastRuns = new Map<number, SyncRunResult>();

  async release(clientId: number, leaseId: string, lastRun?: SyncRunResult) {
    if (this.leases.get(clientId)?.leaseId === leaseId) this.leases.delete(clientId);
    if (lastRun) this.lastRuns.set(clientId, copy(lastRun));
  }
  async report(clientId: number, leaseId: string, progress: SyncProgress) {
    const current = this.leases.get(clientId);
    if (current?.leaseId === leaseId) current.progress = copy(progress);
  }
  async state(clientId: number, nowMs: number): Promise<SyncState> {
    const lease = this.leases.get(clientId);
    const lastRun = copy(this.lastRuns.get(clientId) ?? null);
    if (!lease || lease.expiresAtMs < nowMs) return { lastRun };
    return { lastRun, running: { started_at: lease.startedAt, ...(lease.progress && { progress: copy(lease.progress) }) } };
  }
}
