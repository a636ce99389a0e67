import { describe, expect, it } from 'vitest';
import { bookTurn, followingBlock, prepareBlock, sharedBookingOf } from '#lib/domain/sends/dispatch/book.ts';
import { BLOCK, MAX_BACKLOG_MS, SLICE_MS } from '#lib/domain/sends/dispatch/tuning.ts';
import { jobOf, templateOf } from '../../../support/dispatch-jobs.ts';
import { recipientsOf, sendingWorld, takenRun } from '../../../support/sending-world.ts';

/** Booking a block (book.ts): claimed, the number's slots reserved, and whether the next one is booked beside it. */
describe('booking a block', () => {
  it('claims the block of a send of a few and books its slots whole, from the number’s next free slot', async () => {
    // Prepare: a UTILITY job of 5
    const { deps, sendTable, clock } = await sendingWorld(5);
    const run = await takenRun(deps, jobOf(recipientsOf(5)));
    // Act
    const block = await prepareBlock(deps, run, 0);
    // Assess
    expect(run.booking).toEqual({ shared: false });
    expect(block.toSend.map((p) => p.position)).toEqual([0, 1, 2, 3, 4]);
    expect(block).toMatchObject({ booked: 5, first: clock.now() });
    expect(sendTable.blocks.get('send-1|0')).toMatchObject({ state: 'claimed', holder: 'invocation-1' });
  });

  it('finds a block another invocation holds: nothing of it is this run’s, and the run ends held elsewhere', async () => {
    // Prepare
    const { deps, blocks, clock } = await sendingWorld(5);
    const run = await takenRun(deps, jobOf(recipientsOf(5)));
    await blocks.claimBlock('send-1', { first: 0, size: 5, sendable: 5 }, { holder: 'other', untilMs: clock.now() + 60_000 }, clock.now());
    // Act
    const block = await prepareBlock(deps, run, 0);
    // Assess
    expect(block).toMatchObject({ mine: [], busy: true, booked: 0 });
    expect(run.ending).toEqual({ why: 'held elsewhere' });
  });

  it('gives a campaign’s block back unsent when its number is not free within NEAR_MS (not its turn)', async () => {
    // Prepare: a MARKETING job of 200; the number booked 10 s ahead by others (100 slots 100 ms apart)
    const { deps, sendTable, clock } = await sendingWorld(200);
    const run = await takenRun(deps, jobOf(recipientsOf(200), { template: templateOf('MARKETING') }));
    await deps.pacer.reserve('110001', 100, 100, clock.now());
    const block = await prepareBlock(deps, run, 0);
    // Act
    const booked = await bookTurn(deps, run, block, sharedBookingOf(run, block, clock.now())!);
    // Assess
    expect(run.booking).toMatchObject({ shared: true, rank: 2 });
    expect(booked).toBe(false);
    expect(sendTable.blocks.get('send-1|0')?.state).toBe('open');
    expect(run.ending?.why).toBe('crowded');
  });

  it('books the next block beside this one; or ends the run crowded past MAX_BACKLOG_MS, or sliced past SLICE_MS', async () => {
    // Prepare: three runs of a 200-recipient job (two blocks)
    const { deps, clock } = await sendingWorld(200);
    const job = jobOf(recipientsOf(200));
    const free = await takenRun(deps, job);
    const crowded = await takenRun(deps, job);
    const sliced = await takenRun(deps, job);
    sliced.startedAt = clock.now() - SLICE_MS;
    const block = await prepareBlock(deps, free, 0);
    // Act
    const next = await followingBlock(deps, free, block);
    followingBlock(deps, crowded, { ...block, first: clock.now() + MAX_BACKLOG_MS + 1 });
    followingBlock(deps, sliced, block);
    // Assess
    expect(next?.start).toBe(BLOCK);
    expect(free.ending).toBeUndefined();
    expect(crowded.ending?.why).toBe('crowded');
    expect(sliced.ending).toEqual({ why: 'sliced' });
  });
});
