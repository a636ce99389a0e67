import type { FigureAdd } from '#lib/domain/sends/figures.ts';
import type { SendFigures, SendPerformances } from '#lib/domain/sends/performance/ports.ts';
import type { ServiceTable } from '../client.ts';
import { figuresOfItem } from './performance-items.ts';
import { sendWithShards, toSend } from './send-records.ts';

/**
 * A send's figures (decisions §33) with the send: its item and its 32 count shards in one Query, as a send's status
 * is read, whatever the number of its messages (a send of 10,000 reads the same 33 items as a send of 10).
 */
export class DynamoSendPerformances implements SendPerformances {
  constructor(private readonly table: ServiceTable) {}

  async read(sendId: string): Promise<SendFigures | null> {
    const read = await sendWithShards(this.table, sendId);
    if (!read) return null;
    return { send: toSend(read.item, read.shards), figures: summed(read.shards.flatMap(figuresOfItem)) };
  }
}

/** Figures of several shards, one sum a variant, day and figure. */
export function summed(adds: FigureAdd[]): FigureAdd[] {
  const sums = new Map<string, FigureAdd>();
  for (const add of adds) {
    const key = `${add.variant}|${add.day}|${add.figure}`;
    const known = sums.get(key) ?? { ...add, n: 0 };
    known.n += add.n;
    sums.set(key, known);
  }
  return [...sums.values()];
}
