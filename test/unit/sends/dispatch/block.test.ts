import { describe, expect, it } from 'vitest';
import { launchBlock, recordWhenAnswered, sendingBlock } from '#lib/domain/sends/dispatch/block.ts';
import { prepareBlock } from '#lib/domain/sends/dispatch/book.ts';
import { jobOf } from '../../../support/dispatch-jobs.ts';
import { recipientsOf, sendingWorld, takenRun } from '../../../support/sending-world.ts';

/** A block sent (block.ts): launched at its slots, recorded, and settled or handed back once its answers are in. */
describe('a block sent', () => {
  it('starts from the outcomes it has: what an earlier holder recorded, and its repeats', () => {
    // Prepare: the block at 90 of three positions; the first recorded sent by an earlier holder, the third a repeat of 5
    const sent = { kind: 'sent' as const, message_id: 'wamid.1' };
    const prepared = {
      block: { first: 90, size: 3, sendable: 2 },
      mine: [{ position: 90 }, { position: 91 }, { position: 92, repeat: 5 }],
      lease: { holder: 'invocation-1', untilMs: 0 },
      recorded: new Map([[0, sent]]),
      busy: false,
      start: 90,
      toSend: [{ position: 91 }],
      first: 0,
      booked: 0,
    };
    // Act
    const block = sendingBlock(prepared);
    // Assess
    expect([...block.outcomes]).toEqual([
      [90, sent],
      [92, { kind: 'duplicate', of: 5 }],
    ]);
    expect(block.ending).toBe('settle');
  });

  it('launches each recipient and settles the block with their answers in one write', async () => {
    // Prepare
    const { deps, sendTable, calls } = await sendingWorld(5);
    const run = await takenRun(deps, jobOf(recipientsOf(5)));
    const block = sendingBlock(await prepareBlock(deps, run, 0));
    // Act
    await launchBlock(deps, run, block);
    await recordWhenAnswered(deps, run, block);
    // Assess
    expect(calls).toHaveLength(5);
    expect(sendTable.blocks.get('send-1|0')?.state).toBe('settled');
    expect(sendTable.blocks.get('send-1|0')?.outcomes?.map((o) => o.kind)).toEqual(Array(5).fill('sent'));
  });

  it('fails a stopped send’s recipients with the stop, launching none', async () => {
    // Prepare: the template was disabled once the block was booked
    const { deps, sendTable, calls } = await sendingWorld(5);
    const run = await takenRun(deps, jobOf(recipientsOf(5)));
    const block = sendingBlock(await prepareBlock(deps, run, 0));
    run.stopped = { code: '132016', title: 'The template is disabled' };
    // Act
    await launchBlock(deps, run, block);
    await recordWhenAnswered(deps, run, block);
    // Assess
    expect(calls).toEqual([]);
    expect(sendTable.blocks.get('send-1|0')?.outcomes).toEqual(
      Array(5).fill({ kind: 'failed', code: '132016', title: 'The template is disabled' }),
    );
  });

  it('hands the block back unsent when the template is paused before it launches', async () => {
    // Prepare
    const { deps, sendTable, calls, clock } = await sendingWorld(5);
    const run = await takenRun(deps, jobOf(recipientsOf(5)));
    const block = sendingBlock(await prepareBlock(deps, run, 0));
    run.pausedUntil = clock.now() + 60_000;
    // Act
    await launchBlock(deps, run, block);
    await recordWhenAnswered(deps, run, block);
    // Assess
    expect(block.ending).toBe('hand back');
    expect(calls).toEqual([]);
    expect(sendTable.blocks.get('send-1|0')).toMatchObject({ state: 'open', holder: undefined });
  });
});
