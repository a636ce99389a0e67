import { type DispatchResult, dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import type { MessageAnswer } from '#lib/domain/sends/dispatch/ports.ts';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import { laneOf, queueGroupOf } from '#lib/domain/sends/dispatch/lanes.ts';
import { MESSAGES_PER_SECOND } from '#lib/domain/sends/dispatch/throughput.ts';
import type { ThroughputLevel } from '#lib/domain/shared/ports.ts';
import { MemoryPacer } from '../../test/support/memory/sends/pacer.ts';
import { memorySends } from '../../test/support/memory/sends/sends.ts';
import type { MemoryBlockLedger } from '../../test/support/memory/sends/block-ledger.ts';
import type { MemorySendRecords } from '../../test/support/memory/sends/send-records.ts';
import { MemoryThroughputStore } from '../../test/support/memory/sends/throughput-store.ts';
import type { SimClock } from './clock.ts';

/**
 * The parts of AWS and Meta around the real dispatcher, as a simulation needs them (issue 33), each a model of
 * what the service relies on, no more:
 * - SQS: a standard queue with message groups (a fair queue: the group with the fewest messages in flight, then
 *   the fewest queued, goes first), visibility, and a job handed back after its delay;
 * - Lambda: an event source that starts an invocation per visible job while under its concurrency, which grows
 *   by about 300 a minute from 5 (or is there at once, for a service warmed up), up to the setting; a cold
 *   start of 300 ms for each new container; 50 s a run;
 * - DynamoDB: the in-memory stores behind a latency, with the write units each partition key takes a second
 *   counted (the pacing item per number; a send's partitions: its blocks and its count shards);
 * - Meta: each number at its level, 130429 beyond 1.1 × it in any rolling second, an answer in 80–180 ms.
 */
export interface WorldSettings {
  concurrency: number;
  dbLatencyMs: number;
  /** Invocations the event source adds a second (AWS: about 300 a minute); Infinity for a warmed-up service. */
  rampPerSecond: number;
  /** Jobs an invocation takes at once and dispatches side by side (lib/manifest/workers.ts, DispatchMessages). */
  batchSize: number;
  /** Every number's throughput level as Meta reports it (issue 54: HIGH); STANDARD when not given. */
  level?: ThroughputLevel;
}

const COLD_START_MS = 300;
const RUN_MS = 50_000;
const MEMORY_GB = 1;
/** Prices (us-east-1, 2025): Lambda per GB-second and per request, SQS per request, DynamoDB per write unit. */
const PRICE = { gbSecond: 0.0000166667, invocation: 0.2e-6, sqsRequest: 0.4e-6, writeUnit: 0.625e-6 };

interface QueuedJob {
  id: number;
  job: DispatchJob;
  group: string;
  visibleAt: number;
  inFlight: boolean;
}

/** The dispatch queue as a fair queue. */
class FairQueue {
  private readonly groups = new Map<string, QueuedJob[]>();
  private readonly inFlight = new Map<string, number>();
  private nextId = 0;
  requests = 0;

  send(job: DispatchJob, group: string, visibleAt: number) {
    this.requests++;
    const list = this.groups.get(group) ?? [];
    list.push({ id: this.nextId++, job, group, visibleAt, inFlight: false });
    this.groups.set(group, list);
  }

  receive(now: number): QueuedJob | undefined {
    let best: QueuedJob | undefined;
    let bestKey: [number, number, number] | undefined;
    for (const [group, list] of this.groups) {
      const ready = list.find((m) => !m.inFlight && m.visibleAt <= now);
      if (!ready) continue;
      const key: [number, number, number] = [this.inFlight.get(group) ?? 0, list.length, ready.id];
      if (
        !bestKey ||
        key[0] < bestKey[0] ||
        (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))
      ) {
        best = ready;
        bestKey = key;
      }
    }
    if (best) {
      this.requests++;
      best.inFlight = true;
      this.inFlight.set(best.group, (this.inFlight.get(best.group) ?? 0) + 1);
    }
    return best;
  }

  settle(message: QueuedJob, result: DispatchResult | 'failed', now: number) {
    this.requests++;
    this.inFlight.set(message.group, (this.inFlight.get(message.group) ?? 1) - 1);
    message.inFlight = false;
    if (result !== 'failed' && result.outcome === 'retry_later') message.visibleAt = now + result.afterSeconds * 1000;
    else if (result === 'failed') message.visibleAt = now + 300_000;
    else {
      const list = this.groups.get(message.group) ?? [];
      list.splice(list.indexOf(message), 1);
      if (list.length === 0) this.groups.delete(message.group);
    }
  }

  get size() {
    let n = 0;
    for (const list of this.groups.values()) n += list.length;
    return n;
  }
}

/**
 * A number's accepts in a rolling second: times come in order, so the oldest leave from the front (a HIGH number's
 * thousand a second are not filtered again at every accept).
 */
class RollingSecond {
  private times: number[] = [];
  private head = 0;

  /** How many came after `since`. */
  countAfter(since: number) {
    while (this.head < this.times.length && this.times[this.head] <= since) this.head++;
    if (this.head > 4096) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  push(at: number) {
    this.times.push(at);
  }
}

/** Write units per partition key per second, and the most any key took in one second. */
class WriteMeter {
  private readonly current = new Map<string, { second: number; units: number }>();
  hottest = { key: '', units: 0 };
  total = 0;

  add(key: string, units: number, now: number) {
    this.total += units;
    const second = Math.floor(now / 1000);
    const entry = this.current.get(key);
    const counted = entry && entry.second === second ? entry.units + units : units;
    this.current.set(key, { second, units: counted });
    if (counted > this.hottest.units) this.hottest = { key, units: counted };
  }
}

/** A store whose every call first waits the latency, and whose writes the meter counts by partition key. */
function metered<T extends object>(
  target: T,
  clock: SimClock,
  latencyMs: number,
  keysOf: (method: string, args: unknown[]) => [string, number][],
  meter: WriteMeter,
): T {
  return new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await clock.sleep(latencyMs);
        const result = await value.apply(object, args);
        for (const [key, units] of keysOf(String(name), args)) meter.add(key, units, clock.now());
        return result;
      };
    },
  });
}

/** Which partition a block's items are on (SEND_PARTS = 16 in the table; its count shards on the send's own). */
const partOf = (sendId: string, first: number) => `SENDPART#${sendId}#${Math.floor(first / 90) % 16}`;

export class World {
  readonly queue = new FairQueue();
  readonly meter = new WriteMeter();
  readonly store = memorySends();
  private readonly pacer = new MemoryPacer();
  private readonly levels = new MemoryThroughputStore();
  /** Launches per number per second (its peak at launch), refusals, first launch of each send. */
  private readonly perSecond = new Map<string, Map<number, number>>();
  private readonly recent = new Map<string, RollingSecond>();
  readonly firstLaunch = new Map<string, number>();
  /** Each send's messages launched so far, and when its last one went. */
  readonly launchedOf = new Map<string, { count: number; last: number }>();
  launches = 0;
  refusals = 0;
  invocations = 0;
  gbSeconds = 0;
  running = 0;
  mostRunning = 0;
  private warm = 0;
  private serial = 0;

  constructor(
    private readonly clock: SimClock,
    private readonly settings: WorldSettings,
  ) {}

  /** A send recorded as the API accepts it, and its jobs queued under its tenant. */
  async accept(send: SendRecord, jobs: DispatchJob[]) {
    await this.store.sends.begin(send);
    await this.store.sends.settle(send, 'queued');
    for (const job of jobs) this.queue.send(job, queueGroupOf(send.client_id, laneOf(job)), this.clock.now());
  }

  private readonly upstream = {
    sendMessage: async (phone: string, _message: Record<string, unknown>, reference: string): Promise<MessageAnswer> => {
      const now = this.clock.now();
      const window = this.recent.get(phone) ?? new RollingSecond();
      this.recent.set(phone, window);
      if (window.countAfter(now - 1000) >= this.levelRate * 1.1) {
        this.refusals++;
        await this.clock.sleep(80);
        return { kind: 'refused', code: '130429', title: 'Rate limit hit', retryable: true };
      }
      window.push(now);
      this.launches++;
      const seconds = this.perSecond.get(phone) ?? new Map<number, number>();
      const second = Math.floor(now / 1000);
      seconds.set(second, (seconds.get(second) ?? 0) + 1);
      this.perSecond.set(phone, seconds);
      const sendId = reference.split(':')[1];
      if (!this.firstLaunch.has(sendId)) this.firstLaunch.set(sendId, now);
      this.launchedOf.set(sendId, { count: (this.launchedOf.get(sendId)?.count ?? 0) + 1, last: now });
      await this.clock.sleep(80 + (this.serial++ % 100));
      return { kind: 'accepted', message_id: `wamid.${this.launches}` };
    },
    catalogOf: async () => 'catalog-1',
    throughputOf: async () => this.settings.level ?? 'STANDARD',
  };

  /** The highest launches in one second on any number, as a share of its level. */
  peakShare() {
    let peak = 0;
    for (const seconds of this.perSecond.values()) for (const n of seconds.values()) peak = Math.max(peak, n);
    return peak / this.levelRate;
  }

  /** The numbers' level in messages a second. */
  get levelRate() {
    return MESSAGES_PER_SECOND[this.settings.level ?? 'STANDARD'];
  }

  /**
   * Each number's launches a second from `fromSecond` of the run to its end (the steady state, after the start),
   * as a share of its level: the least, the most and the mean of them.
   */
  numberShares(fromSecond: number, toSecond: number) {
    const first = Math.floor(this.clock.start / 1000) + fromSecond;
    const last = Math.floor(this.clock.start / 1000) + toSecond;
    const shares = [...this.perSecond.values()].map((seconds) => {
      let launched = 0;
      for (const [second, n] of seconds) if (second >= first && second < last) launched += n;
      return launched / (last - first) / this.levelRate;
    });
    const mean = shares.reduce((sum, share) => sum + share, 0) / shares.length;
    return { least: Math.min(...shares), most: Math.max(...shares), mean, numbers: shares.length };
  }

  /** The event source: starts invocations while under its concurrency, every 10 ms of virtual time. */
  async serve(untilMs: number) {
    const sends = metered(this.store.sends, this.clock, this.settings.dbLatencyMs, () => [], this.meter);
    const blocks = metered(
      this.store.blocks,
      this.clock,
      this.settings.dbLatencyMs,
      (method, args) => {
        const [sendId, block] = args as [string, { first: number }];
        if (method === 'claimBlock' || method === 'recordProgress' || method === 'handBack') return [[partOf(sendId, block.first), 1]];
        if (method === 'settleBlock')
          return [
            [partOf(sendId, block.first), 2],
            [`SEND#${sendId}`, 2],
          ];
        if (method === 'beginJob') return [[`SEND#${sendId}`, 1]];
        return [];
      },
      this.meter,
    );
    const pacer = metered(
      this.pacer,
      this.clock,
      this.settings.dbLatencyMs,
      (method, args) => (method.startsWith('reserve') ? [[`PACING#${args[0]}`, 1]] : []),
      this.meter,
    );
    const end = this.clock.now() + untilMs;
    while (this.clock.now() < end) {
      const seconds = (this.clock.now() - this.clock.start) / 1000;
      const capacity = Math.min(this.settings.concurrency, 5 + Math.floor(seconds * this.settings.rampPerSecond));
      while (this.running < capacity) {
        const batch: QueuedJob[] = [];
        for (let message = this.queue.receive(this.clock.now()); message; ) {
          batch.push(message);
          message = batch.length < this.settings.batchSize ? this.queue.receive(this.clock.now()) : undefined;
        }
        if (batch.length === 0) break;
        void this.invoke(batch, { sends, blocks }, pacer);
      }
      await this.clock.sleep(10);
    }
  }

  /** One invocation: its jobs dispatched side by side, each settled on the queue as it ends. */
  private async invoke(batch: QueuedJob[], { sends, blocks }: { sends: MemorySendRecords; blocks: MemoryBlockLedger }, pacer: MemoryPacer) {
    this.running++;
    this.invocations++;
    this.mostRunning = Math.max(this.mostRunning, this.running);
    const started = this.clock.now();
    if (this.running > this.warm) {
      this.warm = this.running;
      await this.clock.sleep(COLD_START_MS);
    }
    const invocation = this.invocations;
    await Promise.all(
      batch.map(async (message, i) => {
        let result: DispatchResult | 'failed';
        try {
          result = await dispatchJob(
            {
              sends,
              blocks,
              pacer,
              levels: this.levels,
              upstream: this.upstream,
              log: silentLog,
              clock: this.clock,
              settings: DEFAULT_DISPATCH,
              holder: `invocation-${invocation}:${i}`,
              remainingMs: () => RUN_MS - (this.clock.now() - started),
            },
            message.job,
          );
        } catch {
          result = 'failed';
        }
        return { message, result };
      }),
    ).then((ended) => {
      for (const { message, result } of ended) this.queue.settle(message, result, this.clock.now());
    });
    this.gbSeconds += ((this.clock.now() - started) / 1000) * MEMORY_GB;
    this.running--;
  }

  /** What a million messages cost at these prices, from what this run used. */
  costPerMillion() {
    if (this.launches === 0) return 0;
    const dollars =
      this.gbSeconds * PRICE.gbSecond +
      this.invocations * PRICE.invocation +
      this.queue.requests * PRICE.sqsRequest +
      this.meter.total * PRICE.writeUnit;
    return (dollars / this.launches) * 1e6;
  }
}
