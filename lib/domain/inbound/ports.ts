import type { NotifiedChange } from './notifications.ts';

/**
 * Meta's message statuses on their way to the worker (issue 54, docs/high-tier.md §3): a stream, each change put
 * under its `stream_key`, read in order within a key. Resolves once every change is kept (acknowledged to Meta
 * after it); fails when any was refused.
 */
export interface StatusStream {
  put(changes: NotifiedChange[]): Promise<void>;
}
