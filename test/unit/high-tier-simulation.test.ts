import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STREAMS } from '#lib/manifest/queues.ts';
import { ApplyMetaNotifications, ApplyMetaStatuses } from '#lib/manifest/workers.ts';
import { highTierScenario } from '../../bench/simulate.ts';
import { KINESIS, STATUS_ASSUMPTIONS, PRICES } from '../../bench/sim/status-assumptions.ts';
import {
  costPerMillion,
  logBytesPerSecond,
  logDollarsPerSecond,
  perSecond,
  readFigures,
  totalOf,
  unitsWithWholeBlockLatest,
} from '../../bench/sim/status-figures.ts';
import { kinesisPath, statusPath } from '../../bench/sim/status-path.ts';
import { statusStream } from '../../bench/sim/status-stream.ts';
import { PARTITION_UNITS } from '../../bench/sim/unit-meter.ts';
import { latestItemKey, latestStatesUpdate } from '#lib/adapters/dynamo/sends/latest-states.ts';
import { DELIVERY_SLACK_MS, templateDayUpdates, withDeliveryTimes } from '#lib/adapters/dynamo/sends/performance-items.ts';
import { COUNT_FIELDS, countUpdate } from '#lib/adapters/dynamo/sends/send-items.ts';
import { TEMPLATE_FIGURE_SHARDS } from '#lib/adapters/dynamo/table.ts';
import type { TransactItem } from '#lib/adapters/dynamo/transactions.ts';
import type { Figure } from '#lib/domain/sends/figures.ts';
import type { MessageState } from '#lib/domain/shared/message-status.ts';
import { itemBytes } from '../../local/request-meter.ts';

/**
 * The HIGH scenario of bench/simulate.ts at a small scale (issue 54): a hundred numbers at 1,000 a second through
 * the real dispatcher on the discrete-event clock, and the status path's model (bench/sim/status-path.ts).
 */
describe('a hundred numbers at Meta’s HIGH level (issue 54)', () => {
  // 15 s of this machine's time idle: a loaded run (every project at once) takes several times that.
  it('keeps every one of 100 HIGH numbers at ≥ 0.9× its level, none above 1.1×, no partition above 1,000 write units a second', {
    timeout: 180_000,
  }, async () => {
    // Prepare, Act: 100 HIGH numbers, each with a MARKETING campaign and sends of 3 beside it, 3 s of virtual time, its rate read from 1 s in
    const figures = await highTierScenario({ numbers: 100, seconds: 3, concurrency: 1000, warmupSeconds: 1 });
    // Assess
    expect(figures.numberShares.numbers).toBe(100);
    expect(figures.numberShares.least).toBeGreaterThanOrEqual(0.9);
    expect(figures.peakShare).toBeLessThanOrEqual(1.1);
    expect(figures.refusals).toBe(0);
    expect(figures.hottest.units).toBeLessThanOrEqual(PARTITION_UNITS);
  });

  it('keeps 10 HIGH numbers each running a UTILITY campaign (the urgent lane) at ≥ 0.9× their level: its horizon grows with the pace', {
    timeout: 120_000,
  }, async () => {
    // Prepare, Act: sends of more than SMALL_SEND in the urgent lane, 3 s of virtual time (at a 100 ms horizon: 0.70×)
    const figures = await highTierScenario({
      numbers: 10,
      campaigns: 'UTILITY',
      smallSends: false,
      seconds: 3,
      concurrency: 1000,
      warmupSeconds: 1,
    });
    // Assess
    expect(figures.numberShares.numbers).toBe(10);
    expect(figures.numberShares.least).toBeGreaterThanOrEqual(0.9);
    expect(figures.peakShare).toBeLessThanOrEqual(1.1);
    expect(figures.refusals).toBe(0);
  });

  it('brings each message’s statuses as the assumptions say: sent, delivered or failed, most read, a hundredth again', () => {
    // Prepare, Act: 4 numbers at 900 a second for 2 s
    const stream = statusStream({ numbers: 4, rate: 900, windowMs: 2_000 });
    // Assess: 7,200 messages' statuses, each kind's count per number, its repeats a hundredth of that, rounded
    const count = (kind: string, repeat: boolean) => stream.filter((s) => s.kind === kind && s.repeat === repeat).length;
    expect([count('sent', false), count('delivered', false), count('failed', false), count('read', false)]).toEqual([
      7_200, 7_056, 144, 5_760,
    ]);
    expect([count('sent', true), count('delivered', true), count('failed', true), count('read', true)]).toEqual([72, 72, 0, 56]);
    expect(stream.every((s, i) => i === 0 || stream[i - 1].at <= s.at)).toBe(true);
    expect(STATUS_ASSUMPTIONS.readShare).toBe(0.8);
  });

  it('writes each item at 2 units a KB, a count shard a transaction, the ledger only beside a budget shard', () => {
    // Prepare, Act: 10 numbers at 900 a second, 2 s, the manifest's batches
    const run = statusPath({ numbers: 10, rate: 900, windowMs: 2_000 });
    // Assess
    const { writes, units } = run.meter;
    for (const kind of Object.keys(writes) as (keyof typeof writes)[])
      expect(units[kind]).toBe(writes[kind] * 2 * STATUS_ASSUMPTIONS.itemKb[kind]);
    expect(writes.counts).toBe(run.tally.transactions);
    expect(writes.ledger).toBeLessThanOrEqual(writes.budget);
    expect(run.batchSize).toBe(ApplyMetaNotifications.trigger.batchSize);
  });

  it('writes its template’s day item in every transaction its statuses add figures to (issue 56)', () => {
    // Prepare, Act: 10 numbers at 900 a second, 2 s, the manifest's batches; every transaction written moves a delivery, read or failure
    const run = statusPath({ numbers: 10, rate: 900, windowMs: 2_000 });
    // Assess: one template day item a transaction (one template and day a send); on the path as built no key over 1,000 (below)
    expect(run.meter.writes.template).toBe(run.tally.transactions);
    expect(run.meter.units.template).toBe(run.tally.transactions * 2 * STATUS_ASSUMPTIONS.itemKb.template);
    expect(run.meter.hottestOfKind.template).toBeGreaterThan(0);
  });

  it('writes no item a message and nothing for a `sent`: a transaction only where a status moves a message (bbea9a9)', () => {
    // Prepare: the statuses of 10 numbers at 900 a second for 2 s, those that move a message
    const stream = statusStream({ numbers: 10, rate: 900, windowMs: 2_000 });
    const moving = stream.filter((s) => !s.repeat && s.kind !== 'sent').length;
    // Act
    const run = statusPath({ numbers: 10, rate: 900, windowMs: 2_000 });
    // Assess: every status read, none a message item, fewer transactions than moving statuses
    expect(run.tally.statuses).toBe(stream.length);
    expect(Object.keys(run.meter.writes)).not.toContain('message');
    expect(run.tally.transactions).toBeLessThanOrEqual(moving);
    expect(run.meter.writes.latest).toBeLessThanOrEqual(moving);
  });

  it('costs a `read` its block third’s latest item, about 2 units at 1 KB, where the whole block’s 3 KB cost 6', () => {
    // Prepare, Act: the manifest's batches, where a read is nearly always alone in its transaction
    const run = statusPath({ numbers: 10, rate: 900, windowMs: 2_000 });
    // Assess
    const reads = readFigures(run);
    expect(reads.latest).toBeGreaterThan(1.8);
    expect(reads.latest).toBeLessThanOrEqual(2 * STATUS_ASSUMPTIONS.itemKb.latest);
    expect(reads.blockLatest).toBeGreaterThan(5.5);
    expect(reads.blockLatest).toBeLessThanOrEqual(2 * STATUS_ASSUMPTIONS.wholeBlockKb);
    expect(unitsWithWholeBlockLatest(run)).toBeGreaterThan(run.meter.total);
  });

  it('on Kinesis keyed by send, puts a HIGH send on one shard above its 1,000 records a second; a read by send and the rest by block spread', {
    timeout: 120_000,
  }, () => {
    // Prepare, Act: 4 numbers at 900 a second, a period of 8 s, batches cut at 5 s at the latest
    const options = { numbers: 4, rate: 900, windowMs: 8_000, batchWindowMs: 5_000 };
    const bySend = kinesisPath({ ...options, key: 'send' });
    const byKind = kinesisPath({ ...options, key: 'kind' });
    const sqs = statusPath({ numbers: 4, rate: 900, windowMs: 2_000 });
    // Assess: one send's sent and delivered alone are about 1,800 records a second
    expect(bySend.kinesis?.hottestShard.records).toBeGreaterThan(1_000);
    expect(byKind.kinesis?.hottestShard.records).toBeLessThan((bySend.kinesis?.hottestShard.records ?? 0) / 2);
    // every status in a batch once; fewer units a message than SQS's batches of the manifest
    expect(byKind.tally.statuses).toBeGreaterThan(0.9 * byKind.posts);
    expect(byKind.tally.statuses).toBeLessThan(1.1 * byKind.posts);
    expect(byKind.meter.total / byKind.messages).toBeLessThan(sqs.meter.total / sqs.messages);
    expect(costPerMillion(byKind, 'function URL').queue).toBeLessThan(costPerMillion(sqs, 'function URL').queue);
  });

  it('groups a send’s statuses in fewer transactions as batches grow: fewer units a message, fewer worker invocations at once', () => {
    // Prepare, Act: the same statuses in batches of 100 and of 5,000
    const small = statusPath({ numbers: 10, rate: 900, windowMs: 2_000, batchSize: 100 });
    const large = statusPath({ numbers: 10, rate: 900, windowMs: 2_000, batchSize: 5_000 });
    // Assess
    expect(large.posts).toBe(small.posts);
    expect(large.tally.transactions).toBeLessThan(small.tally.transactions / 2);
    expect(large.meter.total / large.messages).toBeLessThan(small.meter.total / small.messages);
    expect(perSecond(large).workerConcurrency).toBeLessThan(perSecond(small).workerConcurrency);
  });

  it('keeps the path as built under $4 per 1,000,000 messages, no DynamoDB key above 1,000 units a second, no shard above 1,000 records', {
    timeout: 120_000,
  }, () => {
    // Prepare, Act: 10 numbers at 900 a second on the stream keyed by kind, ApplyMetaStatuses's event source, a period of 8 s
    const run = kinesisPath({ numbers: 10, rate: 900, windowMs: 8_000, key: 'kind' });
    // Assess: with the dispatch's $0.18 (BENCHMARKS.md's HIGH row); the event source as the manifest declares it
    const cost = costPerMillion(run, 'function URL');
    expect(totalOf(cost) + DISPATCH_PER_MILLION).toBeLessThanOrEqual(4);
    // Its logs too at the first tier's flat $0.50 a GB, a small account's rate: about 2 KB a message, the intake's line a POST
    const rates = perSecond(run);
    expect(logBytesPerSecond(rates) / rates.messages).toBeLessThan(2_100);
    const flatLogs = (logDollarsPerSecond(rates, true) / rates.messages) * 1e6;
    expect(totalOf(cost) - cost.logs + flatLogs + DISPATCH_PER_MILLION).toBeLessThanOrEqual(4);
    expect(run.meter.keysOver.size).toBe(0);
    expect(run.meter.writes.template).toBe(run.tally.transactions);
    expect(run.kinesis?.hottestShard.records).toBeLessThanOrEqual(KINESIS.shardRecordsPerSecond);
    expect(run.kinesis?.batchWindowMs).toBe(ApplyMetaStatuses.trigger.batchWindowSeconds * 1000);
    expect(run.kinesis?.parallelization).toBe(ApplyMetaStatuses.trigger.parallelization);
  });

  it('prices the intakes: a function URL adds nothing, an ALB less than the HTTP API', () => {
    // Prepare
    const run = statusPath({ numbers: 10, rate: 900, windowMs: 1_000 });
    // Act
    const [api, url, alb] = (['HTTP API', 'function URL', 'ALB'] as const).map((intake) => costPerMillion(run, intake).intake);
    // Assess: the HTTP API's $0.80 a million requests, about 2.83 requests a message
    expect(url).toBe(0);
    expect(alb).toBeGreaterThan(0);
    expect(alb).toBeLessThan(api);
    expect(api).toBeCloseTo((run.posts / run.messages) * PRICES.httpApiRequest * 1e6, 6);
  });
});

/** An update's item as DynamoDB would hold it after it: its key and each attribute it names, every number `sum`. */
function itemAfter(write: TransactItem, sum: number): Record<string, unknown> {
  const { Key, ExpressionAttributeNames = {}, ExpressionAttributeValues = {} } = write.Update ?? { Key: {} };
  const item: Record<string, unknown> = { ...Key };
  for (const [placeholder, value] of Object.entries(ExpressionAttributeValues)) {
    const name = ExpressionAttributeNames[`#${placeholder.slice(1)}`] ?? placeholder.slice(1);
    if (!placeholder.startsWith(':s')) item[name] = typeof value === 'number' ? sum : value;
  }
  return item;
}

describe('the status path’s item sizes as the adapter writes them after issue 56 (STATUS_ASSUMPTIONS.itemKb)', () => {
  // Sums of 10 digits (6 bytes each): more than a HIGH send's shard or a template's day ever adds up.
  const SUM = 1_234_567_891;
  const DAYS = ['2026-11-26', '2026-11-27'];
  const CODES = ['131026', '131049', '130472'];
  const figure = (day: string, figure: Figure) => ({ variant: 0, day, figure, n: 1 });
  const kb = (bytes: number) => Math.ceil(bytes / 1024);

  it('keeps a count shard at its fullest, with two days of figures, within its 1 KB: 757 bytes, 449 without them', () => {
    // Prepare: every count, one category's charges, three failures with their titles; two days of a variant's figures
    const add = Object.fromEntries(COUNT_FIELDS.map((field) => [field, 1]));
    const costs = new Map([['marketing', { messages: 1, billable: 1, micros: 1, price: 1 }]]);
    const errors = new Map(CODES.map((code) => [code, { title: 'Message undeliverable', count: 1 }]));
    const figures = DAYS.flatMap((day) =>
      (['sent', 'delivered', 'read', 'cost', 'price', ...CODES.map((code) => `failed:${code}`)] as Figure[]).map((f) => figure(day, f)),
    );
    // Act
    const before = itemBytes(itemAfter(countUpdate('t', 'n100-s9999', { add, errors, costs }), SUM));
    const after = itemBytes(itemAfter(countUpdate('t', 'n100-s9999', { add, errors, costs, figures }), SUM));
    // Assess
    expect([before, after]).toEqual([449, 757]);
    expect(kb(after)).toBe(STATUS_ASSUMPTIONS.itemKb.counts);
  });

  it('keeps a template’s day with all its figures within its 1 KB: 212 bytes, about 0.7 KB at Meta’s longest name', () => {
    // Prepare: every figure of the model's statuses and replies, both currencies, a name of 26 characters and of 512
    const template = { client_id: 10, waba_id: '123456789012345', name: 'spring_campaign_offer_2026', language: 'en_US' };
    const priced = { ...template, currency: 'USD', price_currency: 'EUR' };
    const figures = (
      ['sent', 'delivered', 'read', 'replied', 'replied_after', 'cost', 'price', ...CODES.map((code) => `failed:${code}`)] as Figure[]
    ).map((f) => figure(DAYS[0], f));
    // Act
    const [day] = templateDayUpdates('t', figures, () => priced);
    const [longest] = templateDayUpdates('t', figures, () => ({ ...priced, name: 'x'.repeat(512) }));
    const bytes = itemBytes(itemAfter(day, SUM));
    // Assess: one item, on one of the client's 16 partitions
    expect(bytes).toBe(212);
    expect(kb(itemBytes(itemAfter(longest, SUM)))).toBe(STATUS_ASSUMPTIONS.itemKb.template);
    expect(day.Update?.Key?.pk).toMatch(/^TEMPLATE_FIGURES#10#(0\d|1[0-5])$/);
    expect(TEMPLATE_FIGURE_SHARDS).toBe(16);
  });

  it('keeps a full third within its 1 KB with its delivery times where its block was settled: 808, 988; 1,108 before it', () => {
    // Prepare: a third's 30 messages read and priced, delivered on time, an hour after their block's settlement, and before it
    const state: MessageState = {
      delivered: true,
      read: true,
      pricing: { category: 'authentication_international', type: 'regular', billable: true },
      cost_micros: 1_500_000,
      price_micros: 1_500_000,
    };
    const first = 999_999_930;
    const records = new Map(Array.from({ length: 30 }, (_, i) => [60 + i, { state }] as const));
    const written = latestStatesUpdate('t', latestItemKey('n100-s9999', first, 60), records, AT);
    const delivered = (afterMs: number) => new Map([...records.keys()].map((offset) => [first + offset, AT + afterMs]));
    const block = (settledMs?: number) => ({ first, offsets: records.keys(), settledMs });
    // Act
    const sizes = [
      withDeliveryTimes(written, block(AT), delivered(5_000)),
      withDeliveryTimes(written, block(AT), delivered(3_600_000)),
      withDeliveryTimes(written, block(undefined), delivered(5_000)),
    ].map((write) => itemBytes(itemAfter(write, SUM)));
    // Assess: the model's deliveries come seconds after their block's settlement: none adds a time
    expect(sizes).toEqual([808, 988, 1_108]);
    expect(kb(sizes[0])).toBe(STATUS_ASSUMPTIONS.itemKb.latest);
    expect(DELIVERY_SLACK_MS).toBeGreaterThan(10 * STATUS_ASSUMPTIONS.deliveredMeanMs);
  });
});

const AT = Date.parse('2026-11-29T05:30:07Z');

/** The dispatch's cost per 1,000,000 messages at 100 HIGH numbers (BENCHMARKS.md's HIGH row, bench/simulate.ts). */
const DISPATCH_PER_MILLION = 0.18;

describe('docs/high-tier.md states the model’s figures as the code has them', () => {
  const doc = readFileSync(new URL('../../docs/high-tier.md', import.meta.url), 'utf8');
  const prose = doc.replace(/\s+/g, ' ');

  it('names the statuses’ stream worker’s event source, its default shards and the shards’ load as they are (issue 54)', () => {
    // Prepare
    const { batchSize, batchWindowSeconds, parallelization, retryAttempts } = ApplyMetaStatuses.trigger;
    // Act, Assess
    expect(prose).toContain(
      `BatchSize ${batchSize.toLocaleString('en')}, a ${batchWindowSeconds} s window, ParallelizationFactor ${parallelization}`,
    );
    expect(prose).toContain(`${retryAttempts} retries`);
    expect(prose).toContain(`shards at ${KINESIS.shardLoad * 100} % of their 1,000 records`);
    expect(prose).toContain(`\`statusShards\` shards (${STREAMS.metaStatuses.shards} by default`);
  });

  it('names the worker’s batch and concurrency and the model’s assumptions as they are', () => {
    // Prepare
    const { batchSize, maxConcurrency } = ApplyMetaNotifications.trigger;
    // Act, Assess
    expect(doc).toContain(`batches of ${batchSize}, ${maxConcurrency} at once`);
    expect(doc).toContain(`${STATUS_ASSUMPTIONS.readShare * 100} % read`);
    expect(doc).toContain(`${STATUS_ASSUMPTIONS.repeatShare * 100} % posted again`);
    expect(doc).toContain(`${Math.round((1 - STATUS_ASSUMPTIONS.deliveredShare) * 100)} % failed`);
    expect(doc).toContain(`${STATUS_ASSUMPTIONS.numbersPerClient} numbers a client`);
    expect(doc).toContain(`$${(PRICES.httpApiRequest * 1e6).toFixed(2)} a million requests`);
    expect(doc).toContain(`$${PRICES.kinesisShardHour} a shard hour`);
    expect(doc).toContain(`$${(PRICES.kinesisPutUnit * 1e6).toFixed(3)} a million PUT payload units`);
    expect(doc).toContain(`${STATUS_ASSUMPTIONS.itemKb.latest} KB`);
  });

  it('names the template day item the model writes as the adapter does: its size and the client’s partitions (issue 56)', () => {
    // Act, Assess: the partitions randomTemplateShard draws from, the size the item-size test measures
    expect(prose).toContain(`since issue 56 its template's day item`);
    expect(prose).toContain(`${STATUS_ASSUMPTIONS.itemKb.template} KB, on one of the client's ${TEMPLATE_FIGURE_SHARDS} partitions`);
    expect(prose).toContain("a count shard with two days of a variant's figures 757 bytes");
    expect(prose).toContain('a template day item with all ten figures 212');
  });
});
