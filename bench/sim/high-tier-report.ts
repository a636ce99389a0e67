import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { STATUS_ASSUMPTIONS as A } from './status-assumptions.ts';
import { costPerMillion, INTAKES, type Intake, perSecond, totalOf } from './status-figures.ts';
import type { StatusPathRun } from './status-path.ts';
import { ITEM_KINDS, type ItemKind, PARTITION_UNITS } from './unit-meter.ts';

/** The HIGH scenario's status path as BENCHMARKS.md shows it (issue 54): a table a question. */
const n = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const short = (key: string) => key.replace(/n\d+-s\d+/, 'n…').replace(/#\d{2}$/, '#…');

/** Requests, invocations, concurrency, SQS and DynamoDB a second, one row a batch size. */
export function statusPathTable(runs: StatusPathRun[]) {
  const { maxConcurrency } = ApplyMetaNotifications.trigger;
  return [
    `| worker batch | POSTs a second at the intake | intake invocations at once | worker invocations a second | ms a batch | worker invocations at once needed (manifest: ${maxConcurrency}, takes) | messages in flight | transactions a second | SQS requests a second | write units a second | read units a second | hottest partition key (units in a second) | keys over ${n(PARTITION_UNITS)} | hottest item (writes in a second) |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map((run) => {
      const r = perSecond(run);
      const { meter } = run;
      return `| ${n(run.batchSize)} | ${n(r.posts)} | ${n(r.intakeConcurrency)} | ${n(r.batches)} | ${n(r.batchMs)} | ${n(r.workerConcurrency)} (${n(r.configuredCapacity)} statuses a second) | ${n(r.inFlight)} | ${n(r.transactions)} | ${n(r.sqsRequests)} | ${n(r.writeUnits)} | ${n(r.readUnits)} | \`${short(meter.hottestKey.key)}\` (${n(meter.hottestKey.units)}) | ${meter.keysOver.size} | \`${short(meter.hottestItem.key)}\` (${meter.hottestItem.writes}) |`;
    }),
  ];
}

/** Write units by item kind, one column a batch size: units a second, a message, and the kind's hottest key. */
export function itemKindTable(runs: StatusPathRun[]) {
  const kinds = Object.keys(ITEM_KINDS) as ItemKind[];
  return [
    `| item | ${runs.map((run) => `batch of ${n(run.batchSize)}: writes / units a second; units a message; hottest key's units in a second`).join(' | ')} |`,
    `|---|${runs.map(() => '---|').join('')}`,
    ...kinds.map((kind) => {
      const cells = runs.map((run) => {
        const seconds = run.windowMs / 1000;
        const { writes, units, hottestOfKind } = run.meter;
        return `${n(writes[kind] / seconds)} / ${n(units[kind] / seconds)}; ${n(units[kind] / run.messages, 2)}; ${n(hottestOfKind[kind])}`;
      });
      return `| ${ITEM_KINDS[kind]} | ${cells.join(' | ')} |`;
    }),
    `| all | ${runs.map((run) => `${n(run.meter.total / (run.windowMs / 1000))} units a second; ${n(run.meter.total / run.messages, 2)} a message`).join(' | ')} |`,
  ];
}

const PARTS: [keyof ReturnType<typeof costPerMillion>, string][] = [
  ['intake', 'the intake itself'],
  ['intakeFunction', 'the intake function (Lambda requests and GB-s)'],
  ['queue', 'SQS requests'],
  ['worker', 'the worker (Lambda requests and GB-s)'],
  ['writes', 'DynamoDB write units'],
  ['reads', 'DynamoDB read units'],
];

/** $ per 1,000,000 messages with their statuses by part, for each intake and batch size; the dispatch beside. */
export function costTable(runs: StatusPathRun[], dispatchPerMillion: number) {
  const columns = runs.flatMap((run) => INTAKES.map((intake): [StatusPathRun, Intake] => [run, intake]));
  const costs = columns.map(([run, intake]) => costPerMillion(run, intake));
  return [
    `| part | ${columns.map(([run, intake]) => `${intake}, batch of ${n(run.batchSize)}`).join(' | ')} |`,
    `|---|${columns.map(() => '---|').join('')}`,
    `| the dispatch (the HIGH row above: Lambda, SQS, the pacing and block writes) | ${columns.map(() => `$${n(dispatchPerMillion, 2)}`).join(' | ')} |`,
    ...PARTS.map(([part, name]) => `| ${name} | ${costs.map((cost) => `$${n(cost[part], 2)}`).join(' | ')} |`),
    `| total | ${costs.map((cost) => `**$${n(totalOf(cost) + dispatchPerMillion, 2)}**`).join(' | ')} |`,
  ];
}

/** What a global sender's ledger item (A.globalLedgerKb) would add a message, at each batch size. */
export const globalLedgerUnits = (run: StatusPathRun) =>
  (run.meter.writes.ledger * 2 * (A.globalLedgerKb - A.itemKb.ledger)) / run.messages;
