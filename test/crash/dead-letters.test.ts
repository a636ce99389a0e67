import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteMessageCommand, GetQueueUrlCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { dlqName, type QueueDef, QUEUES } from '#lib/manifest/queues.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';
import { until } from '../support/until.ts';

/**
 * A dispatch job the dispatcher gave up on (issue 23): on a stack of the test's own whose dispatcher does not
 * run, the send's job is moved from its queue to the dead-letter queue, as SQS does after its last receive.
 */
/** Moves the one message on a queue to its dead-letter queue, as SQS does after its last receive. */
async function giveUp(stack: ChildStack, queue: QueueDef) {
  const endpoint = /SQS-compatible server on (\S+)/.exec(stack.log)?.[1] as string;
  const sqs = new SQSClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const urlOf = async (name: string) => (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl as string;
  const [from, to] = [await urlOf(queue.name), await urlOf(dlqName(queue))];
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: from, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
  expect(Messages).toHaveLength(1);
  await sqs.send(new SendMessageCommand({ QueueUrl: to, MessageBody: Messages[0].Body as string }));
  await sqs.send(new DeleteMessageCommand({ QueueUrl: from, ReceiptHandle: Messages[0].ReceiptHandle as string }));
}

describe('a dispatch job in the dead-letter queue', () => {
  it('leaves no send sending: its recipients are settled dispatch_abandoned and the send completes', async () => {
    // Prepare: a send of 200 whose job waits on the dispatch queue
    const folder = mkdtempSync(join(tmpdir(), 'tms-dlq-'));
    const stack = await startChildStack(folder, { FRESH: 'true', AUTO_STATUSES: '', SKIP_WORKERS: 'DispatchMessages' });
    try {
      const auth = { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' };
      const recipients = Array.from({ length: 200 }, (_, i) => ({ to: `5277${String(i).padStart(6, '0')}`, params: { body: [`P-${i}`] } }));
      const accepted = await fetch(`${stack.base}/template/messages/5215550001`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          did: '5215550001',
          type: 'template',
          channel: 'MSGCHAN',
          template: { name: 'order_update', language: 'en_US' },
          recipients,
        }),
      });
      expect(accepted.status).toBe(200);
      const { send_id: sendId } = (await accepted.json()) as { send_id: string };
      // Act: the job given up on
      await giveUp(stack, QUEUES.dispatch);
      const status = await until(
        async () => (await (await fetch(`${stack.base}/sends/${sendId}`, { headers: auth })).json()) as Record<string, any>,
        (s) => s.status === 'completed',
        60_000,
        250,
      );
      // Assess: completed, every recipient failed as abandoned, nothing sent
      expect(status).toMatchObject({ status: 'completed', total: 200, sent: 0, failed: 200, pending: 0 });
      expect(status.errors).toEqual([expect.objectContaining({ code: 'dispatch_abandoned', count: 200 })]);
      const sent = (await (await fetch(`${stack.graphUrl}/_emulator/sent?phone_number_id=110001`)).json()) as { sent: unknown[] };
      expect(sent.sent).toHaveLength(0);
    } finally {
      await stack.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a sync job in the dead-letter queue', () => {
  it('frees the client’s lease and records the run failed, saying it was given up on', async () => {
    // Prepare: a sync whose job waits on its queue (no sync worker runs)
    const folder = mkdtempSync(join(tmpdir(), 'tms-dlq-'));
    const stack = await startChildStack(folder, { FRESH: 'true', AUTO_STATUSES: '', SKIP_WORKERS: 'SyncTemplatesWorker' });
    try {
      const auth = { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' };
      const sync = (method: string) =>
        fetch(`${stack.base}/templates/sync-from-meta`, { method, headers: auth, body: method === 'POST' ? '{}' : undefined });
      expect((await sync('POST')).status).toBe(200);
      // Act: the job given up on
      await giveUp(stack, QUEUES.sync);
      const status = await until(
        async () => (await (await sync('GET')).json()) as Record<string, any>,
        (s) => s.last_run !== undefined,
        60_000,
        250,
      );
      // Assess: idle, the run failed as abandoned, and a new sync may start
      expect(status).toMatchObject({ state: 'idle', last_run: { result: 'failed', error: expect.stringContaining('sync_abandoned') } });
      expect((await sync('POST')).status).toBe(200);
    } finally {
      await stack.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
