import type { OutsideCharge, OutsideCharges } from '#lib/domain/money/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';
import { cancellationCodes } from '../transactions.ts';
import { expiry, ledgerEntryKey, monthVolumeUpdate, transact } from '../sends/send-items.ts';
import { ledgerWrites } from './ledger-items.ts';

/**
 * Charges of messages sent elsewhere on a client's number (decisions §30): one item a message, by Meta's id, put
 * on condition it is new, with the message's ledger entry (filed late too where its month closed: ledger-items.ts)
 * and volume in the same transaction, so a status that comes twice charges once. The item outlives any message's statuses (RECIPIENT_DAYS).
 */
export class DynamoOutsideCharges implements OutsideCharges {
  constructor(private readonly table: ServiceTable) {}

  async charge({ message_id, waba_id, client_id, entry, tierVolume, statementZone }: OutsideCharge) {
    const { name } = this.table;
    const now = Date.now();
    const tally = { messages: entry.messages, billable: entry.billable, micros: entry.micros, price: entry.price_micros };
    try {
      await transact(this.table, () => [
        {
          Put: {
            TableName: name,
            Item: {
              pk: keys.outsideMessage(waba_id, message_id),
              sk: SORT.outsideMessage,
              entity: 'outside_message',
              client_id,
              entry,
              [TTL_ATTRIBUTE]: expiry(now),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...ledgerWrites(
          name,
          { waba_id, client_id, did: entry.did },
          new Map([[entry.day, new Map([[ledgerEntryKey(entry), tally]])]]),
          now,
          statementZone,
        ),
        ...(tierVolume ? [monthVolumeUpdate(name, tierVolume.portfolio ?? waba_id, tierVolume.month, new Map([[tierVolume.key, 1]]))] : []),
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }
}
