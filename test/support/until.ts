/**
 * Asks until `check` finds something (anything but undefined) and answers it; past the time, throws naming
 * what was awaited (`what` may describe the last state seen).
 */
export async function untilFound<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${typeof what === 'string' ? what : what()}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

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
