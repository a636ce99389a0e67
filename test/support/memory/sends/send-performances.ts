import type { SendFigures, SendPerformances } from '#lib/domain/sends/performance/ports.ts';
import { copy } from '../copy.ts';
import { MemorySendRecords } from './send-records.ts';
import type { MemorySendTable } from './send-table.ts';

/** As the DynamoDB adapter: the send as its status reads it, with its figures summed. */
export class MemorySendPerformances implements SendPerformances {
  constructor(private readonly table: MemorySendTable) {}

  async read(sendId: string): Promise<SendFigures | null> {
    const send = await new MemorySendRecords(this.table).get(sendId);
    if (!send) return null;
    return { send, figures: copy([...(this.table.figures.get(sendId)?.values() ?? [])].filter(({ n }) => n !== 0)) };
  }
}
