/**
 * A discrete-event clock for simulations of many thousands of tasks (issue 33): as test/support/event-clock.ts
 * (time moves only when every task waits, to the earliest sleeper), with its sleepers in a binary heap and every
 * sleeper due at the same moment woken together, so a step costs log n, not a sort of every sleeper.
 */
interface Sleeper {
  at: number;
  order: number;
  wake: () => void;
}

const before = (a: Sleeper, b: Sleeper) => a.at < b.at || (a.at === b.at && a.order < b.order);

/** Lets every promise job queued so far run, and the jobs they queue in turn. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class SimClock {
  private current = Date.parse('2026-11-26T10:00:00Z');
  private order = 0;
  private readonly heap: Sleeper[] = [];
  readonly start = this.current;

  now() {
    return this.current;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => this.push({ at: this.current + Math.max(0, ms), order: this.order++, wake }));
  }

  /** Drives the clock until `task` settles or `untilMs` of virtual time pass (then what still waits is left). */
  async run<T>(task: Promise<T>, untilMs: number): Promise<void> {
    let done = false;
    task.then(
      () => {
        done = true;
      },
      (error) => {
        done = true;
        throw error;
      },
    );
    const end = this.current + untilMs;
    for (;;) {
      await settle();
      if (done || this.heap.length === 0) return;
      const at = this.heap[0].at;
      if (at > end) return;
      this.current = Math.max(this.current, at);
      while (this.heap.length > 0 && this.heap[0].at === at) this.pop().wake();
    }
  }

  private push(sleeper: Sleeper) {
    const heap = this.heap;
    heap.push(sleeper);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private pop(): Sleeper {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop() as Sleeper;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && before(heap[left], heap[least])) least = left;
        if (right < heap.length && before(heap[right], heap[least])) least = right;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least], heap[i]];
        i = least;
      }
    }
    return top;
  }
}
