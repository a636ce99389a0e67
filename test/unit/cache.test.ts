import { describe, expect, it } from 'vitest';
import { Cache } from '#lib/adapters/cache.ts';

/** A cache on a clock the test moves. */
function cacheAt(maxEntries: number, maxAgeMs: number) {
  const clock = { ms: 0 };
  return { clock, cache: new Cache<string, number>({ maxEntries, maxAgeMs, now: () => clock.ms }) };
}

describe('Cache: what an adapter keeps, bounded in size and age (lib/adapters/cache.ts)', () => {
  it('keeps an entry until it is maxAgeMs old', () => {
    // Prepare
    const { clock, cache } = cacheAt(10, 1_000);
    cache.set('a', 1);
    // Act
    clock.ms = 999;
    const young = cache.get('a');
    clock.ms = 1_000;
    const old = cache.get('a');
    // Assess
    expect([young, old]).toEqual([1, undefined]);
    expect(cache.size).toBe(0);
  });

  it('lets the least recently used entry go when full', () => {
    // Prepare
    const { cache } = cacheAt(2, Number.POSITIVE_INFINITY);
    cache.set('a', 1);
    cache.set('b', 2);
    // Act: a is used, so b is the least recently used when c comes
    cache.get('a');
    cache.set('c', 3);
    // Assess
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    expect(cache.size).toBe(2);
  });

  it('reads once for callers at the same time, and again after a failed read', async () => {
    // Prepare
    const cache = new Cache<string, Promise<number>>({ maxEntries: 10, maxAgeMs: 60_000 });
    let reads = 0;
    const failing = () => {
      reads += 1;
      return Promise.reject(new Error('unreachable'));
    };
    const answering = () => {
      reads += 1;
      return Promise.resolve(7);
    };
    // Act
    const [first, second] = [cache.getOrRead('k', answering), cache.getOrRead('k', answering)];
    const shared = await Promise.all([first, second]);
    const failed = await cache.getOrRead('f', failing).catch((error: Error) => error.message);
    await Promise.resolve();
    const again = await cache.getOrRead('f', answering);
    // Assess
    expect(shared).toEqual([7, 7]);
    expect(failed).toBe('unreachable');
    expect(again).toBe(7);
    expect(reads).toBe(3);
  });

  it('forgets an entry or everything when told, and refuses to keep nothing', () => {
    // Prepare
    const { cache } = cacheAt(10, 1_000);
    cache.set('a', 1);
    cache.set('b', 2);
    // Act
    cache.delete('a');
    const afterDelete = [cache.get('a'), cache.get('b')];
    cache.clear();
    // Assess
    expect(afterDelete).toEqual([undefined, 2]);
    expect(cache.size).toBe(0);
    expect(() => new Cache({ maxEntries: 0, maxAgeMs: 1 })).toThrow('at least one');
  });
});
