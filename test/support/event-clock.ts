/**
 * A discrete-event clock (issue 32): time moves only when every task is waiting, to the earliest sleeper's
 * time, and sleepers wake in time order (ties in the order they slept). Nothing waits for real time, so a test of
 * time-dependent logic is exact and repeatable whatever the machine's load.
 *
 * - `sleep(ms)` waits `ms` of virtual time;
 * - `stall(ms)` is a stall of the whole process: no task runs for `ms`, then each wakes as late as it is;
 * - `late(extra)` is one invocation's clock whose timers fire `extra()` ms late (a stall of that invocation only);
 * - `run(task)` drives the clock until the task is done (and every sleeper it left is spent or abandoned).
 */
interface Sleeper {
  at: number;
  order: number;
  wake: () => void;
}

export interface TaskClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Lets every promise job queued so far run, and the jobs they queue in turn (no timer, no I/O is awaited). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class EventClock implements TaskClock {
  private current: number;
  private order = 0;
  private readonly sleepers: Sleeper[] = [];
  /** Stalls to happen at given times: at `at` the whole process stops for `ms`. */
  private readonly stalls: { at: number; ms: number }[] = [];

  constructor(start = Date.parse('2026-11-26T10:00:00Z')) {
    this.current = start;
  }

  now() {
    return this.current;
  }

  sleep(ms: number): Promise<void> {
    return this.sleepUntil(this.current + Math.max(0, ms));
  }

  private sleepUntil(at: number): Promise<void> {
    return new Promise((wake) => {
      this.sleepers.push({ at, order: this.order++, wake });
    });
  }

  /** A stall of the whole process at virtual time `at` (from the start of `run`'s clock), `ms` long. */
  stallAt(at: number, ms: number) {
    this.stalls.push({ at, ms });
    this.stalls.sort((a, b) => a.at - b.at);
  }

  /** A clock for one invocation whose every timer fires `extra()` ms late: that invocation alone stalls. */
  late(extra: () => number): TaskClock {
    return { now: () => this.current, sleep: (ms) => this.sleepUntil(this.current + Math.max(0, ms) + Math.max(0, extra())) };
  }

  /**
   * Drives the clock until `task` settles: whenever every task waits, time moves to the earliest sleeper (or to
   * the end of a stall due before it) and wakes it. Rejects when the task waits on nothing the clock can wake.
   */
  async run<T>(task: Promise<T>, limitMs = 3_600_000): Promise<T> {
    let done = false;
    let outcome: { value?: T; error?: unknown } = {};
    task.then(
      (value) => {
        done = true;
        outcome = { value };
      },
      (error) => {
        done = true;
        outcome = { error };
      },
    );
    const end = this.current + limitMs;
    for (;;) {
      await settle();
      if (done) break;
      if (this.sleepers.length === 0) throw new Error('the task waits on nothing the clock can wake');
      this.sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
      const next = this.sleepers[0];
      const stall = this.stalls[0];
      if (stall && stall.at <= next.at) {
        // The process stops: time passes with nobody running, then each sleeper due meanwhile wakes late.
        this.stalls.shift();
        this.current = Math.max(this.current, stall.at) + stall.ms;
        continue;
      }
      this.sleepers.shift();
      this.current = Math.max(this.current, next.at);
      if (this.current > end) throw new Error(`the task ran past ${limitMs} ms of virtual time`);
      next.wake();
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value as T;
  }
}
