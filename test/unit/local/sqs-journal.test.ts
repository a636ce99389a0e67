import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DurableLog } from '../../../local/standins/sqs-journal/durable-log.ts';
import { type JournalEntry, liveMessages } from '../../../local/standins/sqs-journal/sqs-journal.ts';

const folder = mkdtempSync(join(tmpdir(), 'tms-journal-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the queues journal (local stack, issue 23)', () => {
  it('leaves what was sent and not deleted, on the queue it was last seen on, in order', () => {
    // Prepare
    const entries: JournalEntry[] = [
      { op: 'sent', queue: 'dispatch', id: 'a', body: 'A', at: 0 },
      { op: 'sent', queue: 'dispatch', id: 'b', body: 'B', at: 0 },
      { op: 'sent', queue: 'meta', id: 'c', body: 'C', at: 0 },
      { op: 'sent', queue: 'meta', id: 'd', body: 'D', at: 0 },
      { op: 'deleted', id: 'a' },
      { op: 'moved', id: 'b', queue: 'dispatch-dlq' },
      { op: 'purged', queue: 'meta' },
      { op: 'sent', queue: 'meta', id: 'e', body: 'E', at: 0, delay: 60 },
    ];
    // Act
    const live = liveMessages(entries, 20_000);
    // Assess: a deleted one gone, a moved one on its dead-letter queue, a purge empties its queue, a delay runs on
    expect(live).toEqual([
      { queue: 'dispatch-dlq', body: 'B', delay: 0 },
      { queue: 'meta', body: 'E', delay: 40 },
    ]);
  });

  it('reads every whole line of a log a crash cut short, and resolves an append once it is on disk', async () => {
    // Prepare: two lines written, a third cut in the middle
    const file = join(folder, 'cut.jsonl');
    const log = new DurableLog<{ n: number }>(file);
    await Promise.all([log.append({ n: 1 }), log.append({ n: 2 })]);
    await log.close();
    appendFileSync(file, '{"n":');
    // Act
    const read = DurableLog.read<{ n: number }>(file);
    // Assess
    expect(read).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
