import type { JobQueue } from '#lib/domain/shared/ports.ts';
import { copy } from '../copy.ts';

/** A queue that keeps what it was sent, or refuses everything when told to. */
export class MemoryJobQueue implements JobQueue {
  readonly sent: Record<string, unknown>[] = [];
  /** Whose work each message is (its group: the tenant and its lane), in the order sent. */
  readonly groups: (string | undefined)[] = [];
  failing = false;

  async send(messages: Record<string, unknown>[], group?: string) {
    if (this.failing) throw new Error('queue unreachable');
    this.sent.push(...copy(messages));
    this.groups.push(...messages.map(() => group));
  }
}
