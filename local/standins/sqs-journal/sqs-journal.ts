import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { LocalServer } from '../local-server.ts';
import { serveJournaling } from '../whole-proxy.ts';
import { DurableLog } from './durable-log.ts';

/**
 * What the journal records of the queues (decisions §16, issue 23): a message accepted, one deleted, one the
 * server moved to a dead-letter queue (seen when received there), a queue purged.
 */
export type JournalEntry =
  | { op: 'sent'; queue: string; id: string; body: string; at: number; delay?: number }
  | { op: 'deleted'; id: string }
  | { op: 'moved'; id: string; queue: string }
  | { op: 'purged'; queue: string };

/** A message the journal says is still on a queue: sent, not deleted. */
export interface LiveMessage {
  queue: string;
  body: string;
  /** Seconds it still waits before it is visible (a delayed send not yet due). */
  delay: number;
}

/** The messages a journal leaves on the queues, in the order they were sent. */
export function liveMessages(entries: JournalEntry[], nowMs: number): LiveMessage[] {
  const live = new Map<string, Extract<JournalEntry, { op: 'sent' }>>();
  for (const entry of entries) {
    if (entry.op === 'sent') live.set(entry.id, entry);
    else if (entry.op === 'deleted') live.delete(entry.id);
    else if (entry.op === 'moved') {
      const message = live.get(entry.id);
      if (message) live.set(entry.id, { ...message, queue: entry.queue });
    } else for (const [id, message] of live) if (message.queue === entry.queue) live.delete(id);
  }
  return [...live.values()].map((m) => ({
    queue: m.queue,
    body: m.body,
    delay: Math.max(0, Math.ceil((m.at + (m.delay ?? 0) * 1000 - nowMs) / 1000)),
  }));
}

/** The parts of SQS calls and answers (AWS JSON 1.0) the journal reads. */
interface SqsCall {
  QueueUrl?: string;
  MessageBody?: string;
  DelaySeconds?: number;
  ReceiptHandle?: string;
  Entries?: { Id: string; MessageBody?: string; DelaySeconds?: number; ReceiptHandle?: string }[];
}
interface SqsAnswer {
  MessageId?: string;
  Successful?: { Id: string; MessageId?: string }[];
  Messages?: { MessageId: string; ReceiptHandle: string }[];
}

const queueNameOf = (queueUrl: unknown) =>
  String(queueUrl ?? '')
    .split('/')
    .pop() ?? '';

/**
 * A proxy in front of the SQS-compatible server that makes its queues durable: every message the server
 * accepts and every delete is in the journal (on disk) before the caller gets the answer, so a crash at any
 * moment loses nothing acknowledged. The next start sends back what the journal leaves (`restoreJournal`):
 * messages received and not deleted become visible again at once, as after their visibility timeout. Receive
 * counts start over. Clients use the proxy's URL (its answers name queues by it).
 */
export class SqsJournal {
  private local?: LocalServer;
  /** Receipt handles of messages handed out, to their message ids: a delete names only the handle. */
  private handles = new Map<string, string>();
  /** Each message's latest handle, so a message received again does not leave its old one behind. */
  private handleOf = new Map<string, string>();
  /** Which queue each message is on, to notice one the server moved to its dead-letter queue. */
  private queueOf = new Map<string, string>();
  url = '';

  /** Set once the earlier run's messages are back (`useLog`): the queues take no message before. */
  private log?: DurableLog<JournalEntry>;

  constructor(private readonly target: string) {}

  async start(host: string) {
    this.local = await serveJournaling(this.target, host, {
      // The server names its queues by its own address: clients are given the journal's instead.
      rewrite: (text) => text.replaceAll(`${this.target}/`, `${this.url}/`),
      record: (target, body, answer) => this.record(target, body, Buffer.from(answer)),
      failure: { contentType: 'application/x-amz-json-1.0', type: 'InternalError' },
    });
    this.url = this.local.url;
    return this.url;
  }

  async stop() {
    await this.local?.stop();
    await this.log?.close();
  }

  /** The journal from now on: the earlier run's messages, under the ids the server gave them again. */
  useLog(log: DurableLog<JournalEntry>) {
    this.log = log;
  }

  /** The journal entries of one answered call (AWS JSON 1.0, as the SDK speaks it); awaited before answering. */
  private async record(target: string, requestBody: Buffer, answerBody: Buffer) {
    const action = target.replace(/^AmazonSQS\./, '');
    if (!['SendMessage', 'SendMessageBatch', 'ReceiveMessage', 'DeleteMessage', 'DeleteMessageBatch', 'PurgeQueue'].includes(action))
      return;
    const input = JSON.parse(requestBody.toString() || '{}') as SqsCall;
    const output = JSON.parse(answerBody.toString() || '{}') as SqsAnswer;
    const queue = queueNameOf(input.QueueUrl);
    const entries: JournalEntry[] = [];
    const at = Date.now();
    const sent = (id: string | undefined, message: { MessageBody?: string; DelaySeconds?: number }) =>
      entries.push({
        op: 'sent',
        queue,
        id: id ?? '',
        body: message.MessageBody ?? '',
        at,
        ...(message.DelaySeconds && { delay: message.DelaySeconds }),
      });
    if (action === 'SendMessage') sent(output.MessageId, input);
    if (action === 'SendMessageBatch') {
      const byId = new Map((input.Entries ?? []).map((e) => [e.Id, e]));
      for (const ok of output.Successful ?? []) {
        const message = byId.get(ok.Id);
        if (message) sent(ok.MessageId, message);
      }
    }
    if (action === 'ReceiveMessage')
      for (const m of output.Messages ?? []) {
        const previous = this.handleOf.get(m.MessageId);
        if (previous) this.handles.delete(previous);
        this.handles.set(m.ReceiptHandle, m.MessageId);
        this.handleOf.set(m.MessageId, m.ReceiptHandle);
        if (this.queueOf.get(m.MessageId) !== queue) entries.push({ op: 'moved', id: m.MessageId, queue });
      }
    const deleted = (handle: string | undefined) => {
      const id = handle && this.handles.get(handle);
      if (!id) return;
      this.handles.delete(handle);
      this.handleOf.delete(id);
      entries.push({ op: 'deleted', id });
    };
    if (action === 'DeleteMessage') deleted(input.ReceiptHandle);
    if (action === 'DeleteMessageBatch') {
      const handleById = new Map((input.Entries ?? []).map((e) => [e.Id, e.ReceiptHandle]));
      for (const ok of output.Successful ?? []) deleted(handleById.get(ok.Id));
    }
    if (action === 'PurgeQueue') entries.push({ op: 'purged', queue });
    for (const entry of entries) {
      if (entry.op === 'sent' || entry.op === 'moved') this.queueOf.set(entry.id, entry.queue);
      if (entry.op === 'deleted') this.queueOf.delete(entry.id);
    }
    // A message received again from its own queue adds nothing: only changes are written.
    if (entries.length > 0 && !this.log) throw new Error('the journal is not open yet');
    await Promise.all(entries.map((e) => this.log?.append(e)));
  }

  /** Notes the queues of messages sent back at a start, so their later receives are not taken for moves. */
  knowQueues(messages: { id: string; queue: string }[]) {
    for (const m of messages) this.queueOf.set(m.id, m.queue);
  }
}

/**
 * Sends back what an earlier run's journal leaves on the queues (straight to the server, in batches of 10) and
 * starts the journal afresh with them under their new ids; answers how many. A crash before the new journal is
 * in place leaves the old one, read again at the next start.
 */
export async function restoreJournal(
  file: string,
  sqs: SQSClient,
  urlOf: (queueName: string) => string | undefined,
): Promise<{ log: DurableLog<JournalEntry>; restored: { id: string; queue: string }[] }> {
  const live = liveMessages(DurableLog.read<JournalEntry>(file), Date.now());
  const entries: JournalEntry[] = [];
  const at = Date.now();
  for (let i = 0; i < live.length; ) {
    const queue = live[i].queue;
    const batch: LiveMessage[] = [];
    while (i < live.length && live[i].queue === queue && batch.length < 10) batch.push(live[i++]);
    const url = urlOf(queue);
    if (!url) continue;
    const answer = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: batch.map((m, j) => ({
          Id: String(j),
          MessageBody: m.body,
          ...(m.delay > 0 && { DelaySeconds: Math.min(900, m.delay) }),
        })),
      }),
    );
    for (const ok of answer.Successful ?? []) {
      const m = batch[Number(ok.Id)];
      entries.push({ op: 'sent', queue, id: ok.MessageId ?? '', body: m.body, at, ...(m.delay > 0 && { delay: Math.min(900, m.delay) }) });
    }
  }
  const log = DurableLog.rewrite(file, entries);
  return { log, restored: entries.map((e) => ({ id: (e as { id: string }).id, queue: (e as { queue: string }).queue })) };
}
