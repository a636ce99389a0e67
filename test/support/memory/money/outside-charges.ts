import type { OutsideCharge, OutsideCharges } from '#lib/domain/money/ports.ts';
import type { MemorySendTable } from '../sends/send-table.ts';
import type { MemoryCostLedger } from './cost-ledger.ts';

/** Charges of messages sent elsewhere (decisions §30), in memory: once a message, on the ledger and the portfolio's tiers. */
export class MemoryOutsideCharges implements OutsideCharges {
  /** The messages charged, by `<waba>|<message id>`. */
  readonly charged = new Map<string, OutsideCharge>();

  constructor(
    private readonly ledger: Pick<MemoryCostLedger, 'charge'>,
    private readonly volumes?: Pick<MemorySendTable, 'monthVolumes'>,
  ) {}

  async charge(charge: OutsideCharge) {
    const key = `${charge.waba_id}|${charge.message_id}`;
    if (this.charged.has(key)) return false;
    this.charged.set(key, structuredClone(charge));
    this.ledger.charge(charge.waba_id, charge.client_id, charge.entry, undefined, charge.statementZone);
    if (charge.tierVolume && this.volumes) {
      const volume = `${charge.tierVolume.portfolio ?? charge.waba_id}|${charge.tierVolume.month}|${charge.tierVolume.key}`;
      this.volumes.monthVolumes.set(volume, (this.volumes.monthVolumes.get(volume) ?? 0) + 1);
    }
    return true;
  }
}
