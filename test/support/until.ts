/**
 * Reads until the value is what the test waits for, or the time is up; answers the last value read, so the
 * test's own assertion says what was wrong.
 */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
