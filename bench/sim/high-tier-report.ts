import { ApplyMetaNotifications, ApplyMetaStatuses } from '#lib/manifest/workers.ts';
import { STATUS_ASSUMPTIONS as A, KINESIS, PRICES } from './status-assumptions.ts';
import { costPerMillion, type Intake, perSecond, readFigures, totalOf, unitsWithWholeBlockLatest } from './status-figures.ts';
import type { KinesisKey, StatusPathRun } from './status-path.ts';
import { ITEM_KINDS, type ItemKind, PARTITION_UNITS } from './unit-meter.ts';

/** The HIGH scenario's status path as BENCHMARKS.md shows it (issue 54): a table a question. */
const n = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const short = (key: string) => key.replace(/n\d+-s\d+/, 'n…').replace(/#\d{2}$/, '#…');

const KEYS: Record<KinesisKey, string> = {
  send: 'by send',
  'send+block': 'by send and block',
  kind: 'a read by send, the rest by send and block (built: ApplyMetaStatuses)',
};

/** A run's queue and batch, as the tables name it. */
export const runLabel = (run: StatusPathRun) => (run.kinesis ? `Kinesis, ${KEYS[run.kinesis.key]}` : `SQS, batch of ${n(run.batchSize)}`);

/** Requests, invocations, concurrency, the queue and DynamoDB a second, one row a run. */
export function statusPathTable(runs: StatusPathRun[]) {
  const { maxConcurrency } = ApplyMetaNotifications.trigger;
  return [
    `| queue, worker batch | POSTs a second at the intake | intake invocations at once | worker invocations a second | statuses a batch | ms a batch | worker invocations at once needed (the event source takes: SQS ${maxConcurrency}, the manifest's; Kinesis a batch a shard) | messages in flight (SQS) | transactions a second | SQS requests / Kinesis records a second | write units a second | read units a second | hottest partition key (units in a second) | keys over ${n(PARTITION_UNITS)} | hottest item (writes in a second) |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map((run) => {
      const r = perSecond(run);
      const { meter, tally } = run;
      const queue = run.kinesis ? r.records : r.sqsRequests;
      return `| ${runLabel(run)} | ${n(r.posts)} | ${n(r.intakeConcurrency)} | ${n(r.batches)} | ${n(tally.statuses / tally.batches)} | ${n(r.batchMs)} | ${n(r.workerConcurrency)} (${n(r.lanes)}: ${n(r.configuredCapacity)} statuses a second) | ${run.kinesis ? '—' : n(r.inFlight)} | ${n(r.transactions)} | ${n(queue)} | ${n(r.writeUnits)} | ${n(r.readUnits)} | \`${short(meter.hottestKey.key)}\` (${n(meter.hottestKey.units)}) | ${meter.keysOver.size} | \`${short(meter.hottestItem.key)}\` (${meter.hottestItem.writes}) |`;
    }),
  ];
}

/** The Kinesis runs: their shards, the busiest shard against a shard's limits, the batches and whether they keep up. */
export function kinesisTable(runs: StatusPathRun[]) {
  return [
    `| partition key | shards (${KINESIS.shardLoad * 100} % of a shard's records on average) | busiest shard in any second: records (≤ ${n(KINESIS.shardRecordsPerSecond)}), MB (≤ 1) | a batch: at most (BatchSize ${n(ApplyMetaStatuses.trigger.batchSize)}, ${KINESIS.invokePayloadBytes / 2 ** 20} MB of event), window | the busiest shard's batches took, of the time their records took to come (≤ 1 keeps up at ParallelizationFactor ${ApplyMetaStatuses.trigger.parallelization}) | write units a message (a whole block's latest item, before 60f5830) |`,
    '|---|---|---|---|---|---|',
    ...runs.flatMap((run) => {
      const { kinesis, meter, messages } = run;
      if (!kinesis) return [];
      const { hottestShard } = kinesis;
      const whole = unitsWithWholeBlockLatest(run) / messages;
      return [
        `| ${KEYS[kinesis.key]} | ${n(kinesis.shards)} | ${n(hottestShard.records)}, ${n(hottestShard.bytes / 2 ** 20, 2)}${hottestShard.records > KINESIS.shardRecordsPerSecond ? ' (over)' : ''} | ${n(kinesis.batchCap)} records, ${kinesis.batchWindowMs / 1000} s | ${n(kinesis.busiestLaneBusy, 2)} | ${n(meter.total / messages, 2)} (${n(whole, 2)}) |`,
      ];
    }),
  ];
}

/** Write units by item kind, one column a run: units a second, a message, and the kind's hottest key. */
export function itemKindTable(runs: StatusPathRun[]) {
  const kinds = Object.keys(ITEM_KINDS) as ItemKind[];
  const seconds = (run: StatusPathRun) => run.windowMs / 1000;
  return [
    `| item | ${runs.map((run) => `${runLabel(run)}: writes / units a second; units a message; hottest key's units in a second`).join(' | ')} |`,
    `|---|${runs.map(() => '---|').join('')}`,
    ...kinds.map((kind) => {
      const cells = runs.map((run) => {
        const { writes, units, hottestOfKind } = run.meter;
        return `${n(writes[kind] / seconds(run))} / ${n(units[kind] / seconds(run))}; ${n(units[kind] / run.messages, 2)}; ${n(hottestOfKind[kind])}`;
      });
      return `| ${ITEM_KINDS[kind]} | ${cells.join(' | ')} |`;
    }),
    `| all | ${runs.map((run) => `${n(run.meter.total / seconds(run))} units a second; **${n(run.meter.total / run.messages, 2)} a message**`).join(' | ')} |`,
    `| before 60f5830: a whole block's latest item (${A.wholeBlockKb} KB) in place of its thirds' (${A.itemKb.latest} KB) | ${runs.map((run) => `${n(run.tally.blockLatestWrites / seconds(run))} / ${n((run.tally.blockLatestWrites * 2 * A.wholeBlockKb) / seconds(run))}; ${n((run.tally.blockLatestWrites * 2 * A.wholeBlockKb) / run.messages, 2)}`).join(' | ')} |`,
    `| all, with it | ${runs.map((run) => `${n(unitsWithWholeBlockLatest(run) / seconds(run))} units a second; ${n(unitsWithWholeBlockLatest(run) / run.messages, 2)} a message`).join(' | ')} |`,
  ];
}

/** What a `read` status costs in each run: its latest item's rewrite, and a transaction of reads alone. */
export function readLines(runs: StatusPathRun[]) {
  return runs.map((run) => {
    const r = readFigures(run);
    return `- ${runLabel(run)}: ${n(r.latest, 2)} units a read status for the latest items only reads moved (${n(r.perMessage, 2)} a message; ${n(r.blockLatest, 2)} at a whole block's, before 60f5830); ${n(r.aloneShare * 100)} % of reads in a transaction of reads alone, ${n(r.alone, 2)} units a read with its count shard and template day (${n(r.aloneBlock, 2)} at a whole block's).`;
  });
}

const PARTS: [keyof ReturnType<typeof costPerMillion>, string][] = [
  ['intakeFunction', 'the intake function (Lambda requests and GB-s)'],
  ['queue', 'the queue: SQS requests; Kinesis provisioned (shard hours, PUT payload units)'],
  ['worker', 'the worker (Lambda requests and GB-s)'],
  ['writes', 'DynamoDB write units'],
  ['reads', 'DynamoDB read units'],
  ['logs', 'CloudWatch Logs (the intake, the worker and the dispatch; tiered by the month they make)'],
];

/** $ per 1,000,000 messages with their statuses by part, one column a run, the intake `intake`; the dispatch beside. */
export function costTable(runs: StatusPathRun[], dispatchPerMillion: number, intake: Intake = 'function URL') {
  const costs = runs.map((run) => costPerMillion(run, intake));
  const wholeWrites = (run: StatusPathRun) => (unitsWithWholeBlockLatest(run) / run.messages) * PRICES.writeUnit * 1e6;
  return [
    `| part (intake: ${intake}) | ${runs.map(runLabel).join(' | ')} |`,
    `|---|${runs.map(() => '---|').join('')}`,
    `| the dispatch (the HIGH row above: Lambda, SQS, the pacing and block writes) | ${runs.map(() => `$${n(dispatchPerMillion, 2)}`).join(' | ')} |`,
    ...(intake === 'function URL' ? [] : [`| the intake itself | ${costs.map((cost) => `$${n(cost.intake, 2)}`).join(' | ')} |`]),
    ...PARTS.map(([part, name]) => `| ${name} | ${costs.map((cost) => `$${n(cost[part], 2)}`).join(' | ')} |`),
    `| total | ${costs.map((cost) => `**$${n(totalOf(cost) + dispatchPerMillion, 2)}**`).join(' | ')} |`,
    `| total before 60f5830, a whole block's latest item | ${costs.map((cost, i) => `$${n(totalOf(cost) - cost.writes + wholeWrites(runs[i]) + dispatchPerMillion, 2)}`).join(' | ')} |`,
  ];
}

/** The other intakes' own charge and Kinesis on demand, per 1,000,000 messages, to add to the cost table's columns. */
export function costNotes(runs: StatusPathRun[]) {
  const [first] = runs;
  const kinesis = runs.filter((run) => run.kinesis);
  const onDemand = kinesis.map((run) => costPerMillion(run, 'function URL', 'on demand').queue - costPerMillion(run, 'function URL').queue);
  return `The intake itself, to add to any column: HTTP API $${n(costPerMillion(first, 'HTTP API').intake, 2)}, ALB $${n(costPerMillion(first, 'ALB').intake, 2)}, a function URL nothing. Kinesis on demand in place of provisioned: the queue $${n(costPerMillion(kinesis[0] ?? first, 'function URL', 'on demand').queue, 2)} (each record 1 KB in and 1 KB read), ${onDemand.map((more) => `+$${n(more, 2)}`).join(', ')} on the Kinesis columns.`;
}

/** What a global sender's ledger item (A.globalLedgerKb) would add a message, in a run. */
export const globalLedgerUnits = (run: StatusPathRun) =>
  (run.meter.writes.ledger * 2 * (A.globalLedgerKb - A.itemKb.ledger)) / run.messages;

/**
 * The built path's cost per 1,000,000 messages with their statuses (issue 54's Done-when: at most $4), each part
 * with its share, against the target.
 */
export function builtPathCostLines(run: StatusPathRun, dispatchPerMillion: number, target = 4) {
  const cost = costPerMillion(run, 'function URL');
  const total = totalOf(cost) + dispatchPerMillion;
  const parts: [string, number][] = [
    ['the dispatch (Lambda, SQS, the pacing and block writes)', dispatchPerMillion],
    ['the intake: its function URL (no charge of its own)', cost.intake],
    ...PARTS.map(([part, name]): [string, number] => [name, cost[part]]),
  ];
  return [
    `| part (${runLabel(run)}, function URL, Kinesis provisioned) | $ per 1,000,000 messages | share |`,
    '|---|---|---|',
    ...parts.map(([name, dollars]) => `| ${name} | $${n(dollars, 2)} | ${n((dollars / total) * 100)} % |`),
    `| **total** | **$${n(total, 2)}** | 100 % |`,
    '',
    `Issue 54's target, at most $${n(target, 2)} per 1,000,000 messages with their statuses: ${total <= target ? `met, $${n(target - total, 2)} under` : `NOT met, $${n(total - target, 2)} over`}.`,
  ];
}
