import { type ChildProcess, spawn } from 'node:child_process';
import { CreateStreamCommand, DescribeStreamSummaryCommand, type KinesisClient } from '@aws-sdk/client-kinesis';
import { newStreamClient } from '#lib/adapters/kinesis/status-stream.ts';
import { STREAMS } from '#lib/manifest/queues.ts';
import type { StreamKey } from '#lib/manifest/needs.ts';
import { KinesisJournal, liveRecords, restoreStreams, type StreamJournalEntry } from '../standins/kinesis-journal.ts';
import { ROOT } from '../keys.ts';
import { DurableLog } from '../standins/sqs-journal/durable-log.ts';
import { freePort, type Stop, waitFor } from './network.ts';

export interface LocalStream {
  name: string;
  arn: string;
}

/**
 * kinesalite (npm, pure JavaScript) in a process of its own, its streams in memory (memdown), listening on this
 * machine only: it takes a stream's puts one at a time (a lock a stream), about 200 a second here, so in the
 * stack's own process a flood of Meta's statuses held up the API. It ends with its parent (its stdin closes).
 */
async function startKinesalite(host: string, port: number): Promise<ChildProcess> {
  const script = [
    "const server = require('kinesalite')({ createStreamMs: 0, deleteStreamMs: 0, updateStreamMs: 0, shardLimit: 50 });",
    `server.listen(${port}, ${JSON.stringify(host)}, () => process.stdout.write('ready\\n'));`,
    "process.stdin.on('end', () => process.exit(0)); process.stdin.resume();",
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`kinesalite exited (${code}) before it listened`)));
  });
  return child;
}

/**
 * A Kinesis-compatible server (kinesalite, a child process) with the stack's streams (lib/manifest/queues.ts
 * STREAMS) at their shards; with a journal file, behind the journal (local/standins/kinesis-journal.ts), which
 * makes their records survive a crash until the local event source has applied them.
 */
export async function startKinesis(
  host: string,
  journal?: { file: string; restore: boolean },
): Promise<{
  endpoint: string;
  kinesis: KinesisClient;
  streams: Record<StreamKey, LocalStream>;
  /** Records put back from the journal of an earlier run. */
  restored: number;
  /** Records the journal leaves unread now (at a stop: what the next start puts back). */
  kept(): number;
  /** A shard read up to a sequence number: written to the journal, when there is one. */
  checkpoint(stream: string, shard: string, seq: string): Promise<void>;
  stop: Stop;
}> {
  const port = await freePort(host);
  const server = await startKinesalite(host, port);
  const target = `http://${host}:${port}`;
  const proxy = journal && new KinesisJournal(target);
  const endpoint = proxy ? await proxy.start(host) : target;
  const direct = withEndpoint(target);
  const streams = {} as Record<StreamKey, LocalStream>;
  for (const [key, def] of Object.entries(STREAMS) as [StreamKey, (typeof STREAMS)[StreamKey]][]) {
    await direct.send(new CreateStreamCommand({ StreamName: def.name, ShardCount: def.shards }));
    const summary = async () => (await direct.send(new DescribeStreamSummaryCommand({ StreamName: def.name }))).StreamDescriptionSummary;
    await waitFor(
      `the ${def.name} stream`,
      async () => {
        if ((await summary())?.StreamStatus !== 'ACTIVE') throw new Error('not active yet');
      },
      10_000,
    );
    streams[key] = { name: def.name, arn: (await summary())?.StreamARN ?? '' };
  }
  let restored = 0;
  if (proxy && journal) {
    const fresh = journal.restore ? await restoreStreams(journal.file, direct) : undefined;
    proxy.useLog(fresh?.log ?? DurableLog.rewrite<StreamJournalEntry>(journal.file, []));
    restored = fresh?.restored ?? 0;
  }
  return {
    endpoint,
    kinesis: withEndpoint(endpoint),
    streams,
    restored,
    kept: () => (journal ? liveRecords(DurableLog.read<StreamJournalEntry>(journal.file)).length : 0),
    checkpoint: async (stream, shard, seq) => proxy?.checkpoint(stream, shard, seq),
    stop: async () => {
      await proxy?.stop();
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill();
        await exited;
      }
    },
  };
}

/** A client of the local server, as the functions' is (HTTP/1.1). */
const withEndpoint = (endpoint: string): KinesisClient => newStreamClient(endpoint);
