import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { LocalQueue } from './sqs.ts';

/**
 * What `npm start` keeps between runs (decisions §16), in one folder: DynamoDB Local's files, the Graph
 * emulator's state and the queues' messages. The folder remembers which fixture its data came from; another
 * fixture, or `FRESH=true`, starts from that fixture afresh.
 */
export interface DataDir {
  root: string;
  dynamoPath: string;
  graphFile: string;
  queuesFile: string;
  /** True when nothing was kept: the fixture is loaded. */
  fresh: boolean;
}

const writeAtomically = (file: string, text: string) => {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
};

export function prepareDataDir(root: string, fixturePath: string, forceFresh: boolean): DataDir {
  const marker = join(root, 'fixture.json');
  const fixture = { path: fixturePath, sha256: createHash('sha256').update(readFileSync(fixturePath)).digest('hex') };
  const kept = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as typeof fixture) : undefined;
  const fresh = forceFresh || kept?.sha256 !== fixture.sha256;
  if (fresh) rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'dynamodb'), { recursive: true });
  writeAtomically(marker, JSON.stringify(fixture));
  return { root, dynamoPath: join(root, 'dynamodb'), graphFile: join(root, 'graph.json'), queuesFile: join(root, 'queues.json'), fresh };
}

export function saveJson(file: string, value: unknown) {
  writeAtomically(file, JSON.stringify(value));
}

export function loadJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

type Queues = Record<string, LocalQueue>;
interface KeptMessage {
  queue: string;
  body: string;
}

/**
 * Takes every visible message out of every queue (workers stopped, and what they were retrying made visible
 * again first) and writes them to the file; the next start sends them back. Receive counts start over.
 */
export async function saveQueues(sqs: SQSClient, queues: Queues, dlqs: Queues, file: string) {
  const kept: KeptMessage[] = [];
  for (const [key, queue] of [...Object.entries(queues), ...Object.entries(dlqs).map(([k, q]) => [`${k}:dlq`, q] as const)]) {
    for (;;) {
      const received = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, VisibilityTimeout: 300, WaitTimeSeconds: 0 }),
      );
      const messages = received.Messages ?? [];
      if (messages.length === 0) break;
      kept.push(...messages.map((m) => ({ queue: key, body: m.Body ?? '' })));
    }
  }
  saveJson(file, kept);
  return kept.length;
}

export async function restoreQueues(sqs: SQSClient, queues: Queues, dlqs: Queues, file: string) {
  const kept = loadJson<KeptMessage[]>(file) ?? [];
  for (let i = 0; i < kept.length; i += 10) {
    const batch = kept.slice(i, i + 10);
    const byQueue = new Map<string, KeptMessage[]>();
    for (const m of batch) byQueue.set(m.queue, [...(byQueue.get(m.queue) ?? []), m]);
    for (const [key, messages] of byQueue) {
      const queue = key.endsWith(':dlq') ? dlqs[key.slice(0, -4)] : queues[key];
      if (!queue) continue;
      await sqs.send(
        new SendMessageBatchCommand({ QueueUrl: queue.url, Entries: messages.map((m, j) => ({ Id: String(j), MessageBody: m.body })) }),
      );
    }
  }
  rmSync(file, { force: true });
  return kept.length;
}
