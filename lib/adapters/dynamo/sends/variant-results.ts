import { isRestJob, type VariantFigures } from '#lib/domain/sends/ab/ab-send.ts';
import type { VariantResults } from '#lib/domain/sends/ab/ports.ts';
import { blocksOf } from '#lib/domain/sends/operations/send-recipients.ts';
import type { ServiceTable } from '../client.ts';
import { DynamoRecipientLists } from './recipient-lists.ts';
import { DynamoSendRecords } from './send-records.ts';

/** Blocks read a BatchGet (four items each, DynamoDB's 100 a request). */
const BLOCKS_A_READ = 24;

/**
 * Each variant's figures of a send from its recipients as stored (decisions §33): sent, delivered and read per
 * variant of its test share's blocks (one send's test: at most 112 blocks, a few reads, once a send). Replies and
 * clicks are not on the recipients: they count 0 here.
 */
export class RecipientVariantResults implements VariantResults {
  private readonly sends: DynamoSendRecords;
  private readonly lists: DynamoRecipientLists;

  constructor(table: ServiceTable) {
    this.sends = new DynamoSendRecords(table);
    this.lists = new DynamoRecipientLists(table);
  }

  async figuresOf(sendId: string, variants: number): Promise<VariantFigures[]> {
    const figures = Array.from({ length: variants }, (_, variant) => ({ variant, sent: 0, delivered: 0, read: 0, replied: 0 }));
    const send = await this.sends.get(sendId);
    if (!send) return figures;
    const blocks = blocksOf(send).filter((block) => !isRestJob(send.ab, block.job));
    for (let i = 0; i < blocks.length; i += BLOCKS_A_READ) {
      for (const r of await this.lists.recipients(sendId, blocks.slice(i, i + BLOCKS_A_READ))) {
        const f = r.ab?.variant === undefined ? undefined : figures[r.ab.variant];
        if (!f || r.outcome?.kind !== 'sent') continue;
        f.sent += 1;
        if (r.delivery?.delivered || r.delivery?.read) f.delivered += 1;
        if (r.delivery?.read) f.read += 1;
      }
    }
    return figures;
  }
}
