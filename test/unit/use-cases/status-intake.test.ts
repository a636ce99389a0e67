import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyedStatuses } from '#lib/adapters/meta/status-keys.ts';
import { changesOfNotification, notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { acceptNotification } from '#lib/domain/inbound/meta-notifications.ts';
import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { messageReference, statusStreamKey } from '#lib/domain/shared/message-status.ts';

/**
 * The webhook intake (issue 54, docs/high-tier.md §3): a message status goes on the statuses' stream under a
 * partition key by its kind (a `read` its send's, the others their send's and block's), every other notification
 * on the queue; the endpoint answers once both hold them.
 */
const SEND = 'a1b2c3d4-0000-4000-8000-000000000001';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
const status = (id: string, kind: string, block: number, index: number) => ({
  id,
  status: kind,
  timestamp: '1767225600',
  recipient_id: '5215550100001',
  biz_opaque_callback_data: messageReference(SEND, block, index),
});
const notification = (...changes: { field: string; value: unknown }[]) =>
  JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '100200300', time: 1767225600, changes }] });

/** A stream and a queue that keep what they are given. */
function keeping() {
  const streamed: NotifiedChange[] = [];
  const queued: Record<string, unknown>[] = [];
  return {
    streamed,
    queued,
    deps: {
      statuses: { put: async (changes: NotifiedChange[]) => void streamed.push(...changes) },
      queue: { send: async (messages: Record<string, unknown>[]) => void queued.push(...messages) },
      log: silent,
    },
  };
}

describe('the webhook intake’s statuses (issue 54)', () => {
  it('keys a `read` by its send and a `delivered` by its send and block, each status a record of its own', async () => {
    // Prepare: one POST with a delivered and a read of messages in block 90, and a read in block 180
    const raw = notification({
      field: 'messages',
      value: {
        messaging_product: 'whatsapp',
        statuses: [status('wamid.1', 'delivered', 90, 95), status('wamid.2', 'read', 90, 96), status('wamid.3', 'read', 180, 200)],
      },
    });
    const { streamed, queued, deps } = keeping();
    // Act
    const answer = await acceptNotification(deps, keyedStatuses(changesOfNotification(raw).changes), 'req-1');
    // Assess: three records, the reads under one key whatever their block, the delivered under its block's
    expect(answer).toEqual({ success: true, changes: 3 });
    expect(queued).toEqual([]);
    expect(streamed.map((change) => change.stream_key)).toEqual([`send:${SEND}:90`, `send:${SEND}`, `send:${SEND}`]);
    expect(streamed.map((change) => (change.value as { statuses: { id: string }[] }).statuses.map((s) => s.id))).toEqual([
      ['wamid.1'],
      ['wamid.2'],
      ['wamid.3'],
    ]);
    expect(streamed.every((change) => change.correlation_id === 'req-1')).toBe(true);
    // Each record reads back as the notification it was
    expect(streamed.flatMap(notificationsOf).map((n) => (n as { message_id: string }).message_id)).toEqual([
      'wamid.1',
      'wamid.2',
      'wamid.3',
    ]);
  });

  it('queues every other notification, and keys a status of a message sent elsewhere by its message', async () => {
    // Prepare: a template's quality change, a person's message, and a status without the service's reference
    const raw = notification(
      {
        field: 'message_template_quality_update',
        value: { previous_quality_score: 'UNKNOWN', new_quality_score: 'GREEN', message_template_id: 9001 },
      },
      { field: 'messages', value: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.in', from: '5215550100', type: 'text' }] } },
      { field: 'messages', value: { messaging_product: 'whatsapp', statuses: [{ id: 'wamid.x', status: 'sent', timestamp: '1' }] } },
    );
    const { streamed, queued, deps } = keeping();
    // Act
    await acceptNotification(deps, keyedStatuses(changesOfNotification(raw).changes));
    // Assess
    expect(queued.map((job) => job.field)).toEqual(['message_template_quality_update', 'messages']);
    expect(streamed.map((change) => change.stream_key)).toEqual(['message:wamid.x']);
  });

  it('gives every status of one block but its read one key, and every read of a send one key, whatever the message', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('sent', 'delivered', 'failed'),
        fc.nat({ max: 111 }),
        fc.nat({ max: 89 }),
        fc.nat({ max: 89 }),
        (kind, blockNumber, a, b) => {
          // Prepare: two messages of one block
          const block = blockNumber * 90;
          // Act
          const keys = [a, b].map((offset) => statusStreamKey(kind, messageReference(SEND, block, block + offset), `wamid.${offset}`));
          const reads = [a, b].map((offset) => statusStreamKey('read', messageReference(SEND, block + offset, block + offset), 'w'));
          // Assess
          expect(keys[0]).toBe(keys[1]);
          expect(keys[0]).toBe(`send:${SEND}:${block}`);
          expect(new Set(reads)).toEqual(new Set([`send:${SEND}`]));
        },
      ),
    );
  });
});
