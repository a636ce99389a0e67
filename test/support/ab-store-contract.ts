import { describe, expect, it } from 'vitest';
import type { AbSend, TestDecision } from '#lib/domain/sends/ab/ab-send.ts';
import type { TestDecisions } from '#lib/domain/sends/ab/ports.ts';
import type { RecipientLists, SendRecord, SendRecords } from '#lib/domain/sends/ports.ts';
import { NO_COUNTS } from '#lib/domain/sends/send-status.ts';

/**
 * What every store of A/B sends keeps (decisions §33), on the in-memory adapters (test/unit/) and the DynamoDB ones
 * on DynamoDB Local (test/http/): a test's decision and its rest's release set once (the first stays, a second
 * decision answers the first), and each block's variant and its recipients' places as asked.
 */
export interface AbParts {
  sends: SendRecords;
  decisions: TestDecisions;
  recipientLists: RecipientLists;
}

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

const ab: AbSend = {
  seed: 'ab1|7|a@en_US|b@en_US',
  variants: [
    { name: 'a', language: 'en_US', template_id: '1', weight: 1, recipients: 1 },
    { name: 'b', language: 'en_US', template_id: '2', weight: 1, recipients: 1 },
  ],
  test: {
    share: 0.5,
    wait_seconds: 600,
    metric: 'read',
    decide_at: '2026-11-29T10:10:00.000Z',
    test_recipients: 2,
    rest_recipients: 2,
    rest_first: 2,
    rest_job: 3,
  },
};

const decision = (winner: number): TestDecision => ({
  winner,
  decided_at: '2026-11-29T10:10:00.000Z',
  metric: 'read',
  rule: 'best_rate',
  significant: false,
  reason: `variant ${winner} won`,
  variants: [
    { variant: 0, sent: 1, delivered: 1, read: 1 - winner, replied: 0, rate: 1 - winner, interval: [0, 1] },
    { variant: 1, sent: 1, delivered: 1, read: winner, replied: 0, rate: winner, interval: [0, 1] },
  ],
});

export function abStoreContract(name: string, makeStore: () => AbParts | Promise<AbParts>) {
  describe(`${name}: the A/B send store contract`, () => {
    const begun = async (store: AbParts, withAb: AbSend | null = ab) => {
      const send: SendRecord = {
        send_id: `contract-ab-${unique()}`,
        client_id: 7,
        did: '1',
        template: { name: 'a', language: 'en_US' },
        status: 'queuing',
        created_at: new Date().toISOString(),
        total: 4,
        jobs: 3,
        counts: { ...NO_COUNTS },
        ...(withAb && { ab: withAb }),
      };
      await store.sends.begin(send);
      await store.sends.settle(send, 'queued');
      return send.send_id;
    };

    it('keeps a test’s first decision: a second one answers it and changes nothing', async () => {
      // Prepare
      const store = await makeStore();
      const sendId = await begun(store);
      // Act
      const first = await store.decisions.decide(sendId, decision(1));
      const second = await store.decisions.decide(sendId, decision(0));
      const kept = await store.sends.get(sendId);
      // Assess
      expect(first).toEqual(decision(1));
      expect(second).toEqual(decision(1));
      expect(kept?.ab?.test?.decision).toEqual(decision(1));
      expect(kept?.ab?.variants).toEqual(ab.variants);
    });

    it('keeps the first release of a test’s rest, and decides nothing for a send without a test', async () => {
      // Prepare
      const store = await makeStore();
      const sendId = await begun(store);
      const plain = await begun(store, null);
      // Act
      await store.decisions.markRestReleased(sendId, '2026-11-29T10:10:01.000Z');
      await store.decisions.markRestReleased(sendId, '2026-11-29T10:20:00.000Z');
      const refused = await store.decisions.decide(plain, decision(0)).catch((error: unknown) => error);
      // Assess
      expect((await store.sends.get(sendId))?.ab?.test?.rest_released_at).toBe('2026-11-29T10:10:01.000Z');
      expect(refused).toBeInstanceOf(Error);
      expect((await store.sends.get(plain))?.ab).toBeUndefined();
    });

    it('keeps each block’s variant and its recipients’ places as asked', async () => {
      // Prepare
      const store = await makeStore();
      const sendId = await begun(store);
      const block = (first: number, job: number) => ({ ref: { first, size: 2, job }, to: ['1', '2'], repeats: [undefined, undefined] });
      // Act
      await store.recipientLists.recordRecipients(
        sendId,
        [
          { ...block(0, 1), ab: { variant: 1, asked: [3, 0] } },
          { ...block(2, 3), ab: { asked: [2, 1] } },
        ],
        new Date().toISOString(),
      );
      const read = await store.recipientLists.recipients(sendId, [
        { first: 0, size: 2, job: 1 },
        { first: 2, size: 2, job: 3 },
      ]);
      // Assess
      expect(read.map((r) => [r.index, r.ab])).toEqual([
        [0, { variant: 1, asked: 3 }],
        [1, { variant: 1, asked: 0 }],
        [2, { asked: 2 }],
        [3, { asked: 1 }],
      ]);
    });
  });
}
