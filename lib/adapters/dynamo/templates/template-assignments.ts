import type { ActiveFlip, ActiveWrite, AssignmentChange, Deadline, TemplateAssignments } from '#lib/domain/templates/ports.ts';
import { flipInSharedTransactions } from './active-flips.ts';
import type { ServiceTable } from '../client.ts';
import {
  aggregateOf,
  chunked,
  RECORDS_PER_REWRITE,
  type RecordUpdate,
  readAssignmentsOf,
  rewrite,
  writeChange,
} from './template-writes.ts';

/** A client's channels and campaigns on its records of a template (decisions §11), each change one transaction. */
export class DynamoTemplateAssignments implements TemplateAssignments {
  constructor(private readonly table: ServiceTable) {}

  readAssignments(wabaId: string, templateId: string, clientId: number) {
    return readAssignmentsOf(this.table, wabaId, templateId, clientId);
  }

  /**
   * Enables or disables records (decisions §19: at most two items read per record). Every (client, template)'s
   * version item is read in one batch: it holds the entry and which records are active, so the flips move the
   * entry without reading the other records. The flips of several templates share a transaction (each record
   * on the `updated_at` read, each version item on its version), up to DynamoDB's 100 items; a transaction a
   * concurrent write cancelled is done again template by template from a fresh read of its records. Nothing is
   * begun when `deadline` says too little time is left: those flips answer `not_processed`, unwritten.
   */
  async setActive(flips: ActiveFlip[], now: string, deadline?: Deadline): Promise<ActiveWrite[]> {
    const { outcomes, alone, timeLeft } = await flipInSharedTransactions(this.table, flips, now, deadline);
    for (const indexes of alone) {
      if (!timeLeft()) break;
      const written = await this.rewriteActive(
        indexes.map((i) => flips[i]),
        now,
      );
      indexes.forEach((i, k) => {
        outcomes[i] = written[k];
      });
    }
    return outcomes;
  }

  /** One (client, template)'s flips from a fresh read of its records, in transactions of its records. */
  private async rewriteActive(flips: ActiveFlip[], now: string): Promise<ActiveWrite[]> {
    const outcomes = new Array<ActiveWrite>(flips.length);
    for (const indexes of chunked(
      flips.map((_, i) => i),
      RECORDS_PER_REWRITE,
    )) {
      const written = await rewrite(this.table, aggregateOf(flips[indexes[0]].record), (held) => {
        const update: RecordUpdate[] = [];
        const result = indexes.map((i): ActiveWrite => {
          const current = held.find((r) => r.id === flips[i].record.id);
          if (!current) return 'missing';
          if (current.active === flips[i].to) return 'changed_meanwhile';
          update.push({ before: current, after: { ...current, active: flips[i].to, updated_at: now } });
          return 'written';
        });
        return { update, result };
      });
      indexes.forEach((i, k) => {
        outcomes[i] = written[k];
      });
    }
    return outcomes;
  }

  /** One transaction (template-writes.ts writeChange): a concurrent change makes the whole request fail cleanly. */
  applyAssignments(change: AssignmentChange) {
    return writeChange(this.table, change, []);
  }
}
