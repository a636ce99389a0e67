import { describe, expect, it } from 'vitest';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { DynamoReservationReturns } from '#lib/adapters/dynamo/sends/reservation-returns.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { useStackTable } from '../support/seed.ts';

useStackTable();
const table = serviceTable();

/** A send that reserved `micros` of client 598's month and failed before its jobs were queued. */
const failedSend = (sendId: string, micros: number): SendRecord => ({
  send_id: sendId,
  client_id: 598,
  did: '598001',
  template: { name: 'welcome', language: 'en_US' },
  status: 'queuing',
  created_at: '2026-11-28T10:00:00.000Z',
  total: 10,
  jobs: 1,
  reservation: { month: '2026-11', micros } as never,
});

describe('a failed send’s reservation given back once, on DynamoDB (decisions §30)', () => {
  it('returns it whole the first time, never again, and not for a send it does not know', async () => {
    // Prepare: 5,000 micros reserved for the send
    const [sends, budgets, returns] = [new DynamoSendRecords(table), new DynamoBudgetStore(table), new DynamoReservationReturns(table)];
    const sendId = `returns-${Date.now()}`;
    await sends.begin(failedSend(sendId, 5_000));
    await budgets.reserve(598, '2026-11', 5_000);
    const release = { client_id: 598, month: '2026-11', micros: 5_000 };
    const before = await budgets.month(598, '2026-11');
    // Act
    const first = await returns.returnWhole(sendId, release, '2026-11-28T10:01:00.000Z');
    const again = await returns.returnWhole(sendId, release, '2026-11-28T10:02:00.000Z');
    const unknown = await returns.returnWhole(`${sendId}-none`, release, '2026-11-28T10:02:00.000Z');
    // Assess: released once, the mark on the send
    const after = await budgets.month(598, '2026-11');
    expect([first, again, unknown]).toEqual(['returned', 'already', 'no_send']);
    expect(after.released - before.released).toBe(5_000);
    expect((await sends.get(sendId)) as unknown as { reservation_returned_at?: string }).toMatchObject({
      reservation_returned_at: '2026-11-28T10:01:00.000Z',
    });
  });
});
