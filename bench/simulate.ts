import { dispatchConcurrency } from '#lib/config.ts';
import { MESSAGES_PER_SECOND } from '#lib/domain/sends/dispatch/throughput.ts';
import { PACE_SHARE } from '#lib/domain/sends/dispatch/tuning.ts';
import { ApplyMetaNotifications, DispatchMessages } from '#lib/manifest/workers.ts';
import {
  builtPathCostLines,
  costNotes,
  costTable,
  globalLedgerUnits,
  itemKindTable,
  kinesisTable,
  readLines,
  runLabel,
  statusPathTable,
} from './sim/high-tier-report.ts';
import { SimClock } from './sim/clock.ts';
import { type Category, JOB, percentile, randomFrom, sendOf } from './sim/sends.ts';
import { STATUS_ASSUMPTIONS } from './sim/status-assumptions.ts';
import { type KinesisKey, kinesisPath, statusPath } from './sim/status-path.ts';
import { World } from './sim/world.ts';

/**
 * A provider's scale on the discrete-event clock (issue 33, `npm run simulate`): the real dispatcher with the
 * models of bench/sim/world.ts. Two scenarios: many tenants, a few of them running large campaigns, with small
 * sends arriving all the while; and many numbers sending at once. Each prints its figures; bench/run.ts puts
 * the same table in BENCHMARKS.md. Sizes are settings: SIM_SECONDS (virtual time of the first), SIM_NUMBERS
 * and SIM_NUMBER_SECONDS (the second), DISPATCH_CONCURRENCY.
 */
export interface ScenarioFigures {
  scenario: string;
  concurrency: number;
  virtualSeconds: number;
  messages: number;
  perSecond: number;
  smallP50?: number;
  smallP99?: number;
  smallBusyP99?: number;
  peakShare: number;
  refusals: number;
  hottest: { key: string; units: number };
  mostRunning: number;
  gbSeconds: number;
  costPerMillion: number;
}

function figures(scenario: string, world: World, concurrency: number, virtualSeconds: number): ScenarioFigures {
  return {
    scenario,
    concurrency,
    virtualSeconds,
    messages: world.launches,
    perSecond: world.launches / virtualSeconds,
    peakShare: world.peakShare(),
    refusals: world.refusals,
    hottest: world.meter.hottest,
    mostRunning: world.mostRunning,
    gbSeconds: world.gbSeconds,
    costPerMillion: world.costPerMillion(),
  };
}

/**
 * 1,000 tenants with a number each; 50 of them start campaigns of 100,000 (MARKETING) at once; small sends of 3
 * (UTILITY) arrive as a Poisson stream of 5 a second across all tenants, the campaigns' included.
 */
export async function tenantsScenario(
  options: { tenants?: number; campaigns?: number; campaignSize?: number; seconds?: number; concurrency?: number } = {},
) {
  const { tenants = 1000, campaigns = 50, campaignSize = 100_000, seconds = Number(process.env.SIM_SECONDS ?? 60) } = options;
  const concurrency = options.concurrency ?? dispatchConcurrency();
  const clock = new SimClock();
  const world = new World(clock, { concurrency, dbLatencyMs: 4, rampPerSecond: 5, batchSize: DispatchMessages.trigger.batchSize });
  for (let c = 1; c <= campaigns; c++) {
    const { record, jobs } = sendOf(`campaign-${c}`, c, campaignSize, 'MARKETING', clock.now());
    await world.accept(record, jobs);
  }
  /** Small sends: when each arrived, and whether its tenant runs a campaign. */
  const small: { sendId: string; at: number; busy: boolean }[] = [];
  const next = randomFrom(12345);
  const arrivals = (async () => {
    for (let n = 0; ; n++) {
      await clock.sleep(-Math.log(1 - next()) * 200);
      if (clock.now() - clock.start > seconds * 1000 - 10_000) return;
      const client = 1 + Math.floor(next() * tenants);
      const { record, jobs } = sendOf(`small-${n}`, client, 3, 'UTILITY', clock.now());
      small.push({ sendId: record.send_id, at: clock.now(), busy: client <= campaigns });
      await world.accept(record, jobs);
    }
  })();
  await clock.run(Promise.all([world.serve(seconds * 1000), arrivals]), seconds * 1000);
  const waits = (busy: boolean) =>
    small.filter((s) => s.busy === busy).map((s) => (world.firstLaunch.get(s.sendId) ?? clock.now() + 60_000) - s.at);
  return {
    ...figures(`${tenants} tenants, ${campaigns} campaigns of ${campaignSize.toLocaleString('en')}`, world, concurrency, seconds),
    smallP50: percentile(waits(false), 50),
    smallP99: percentile(waits(false), 99),
    smallBusyP99: percentile(waits(true), 99),
  };
}

/**
 * One number shared by its sends (issue 44): a send of 10,000 of `category` starts on a tenant's number, and sends
 * of 3 of the same category arrive on that number as a Poisson stream of 2 a second while it goes. Each small send's
 * time is from its arrival to its third message launched.
 */
export async function sharedNumberScenario(
  options: { category?: Category; bigSize?: number; seconds?: number; concurrency?: number } = {},
) {
  const { category = 'UTILITY', bigSize = 10_000, seconds = Number(process.env.SIM_SHARED_SECONDS ?? 60) } = options;
  const concurrency = options.concurrency ?? dispatchConcurrency();
  const clock = new SimClock();
  const world = new World(clock, { concurrency, dbLatencyMs: 4, rampPerSecond: 5, batchSize: DispatchMessages.trigger.batchSize });
  const big = sendOf('big', 1, bigSize, category, clock.now());
  await world.accept(big.record, big.jobs);
  const small: { sendId: string; at: number }[] = [];
  const next = randomFrom(4242);
  const arrivals = (async () => {
    for (let n = 0; ; n++) {
      await clock.sleep(-Math.log(1 - next()) * 500);
      if (clock.now() - clock.start > seconds * 1000 - 10_000) return;
      const { record, jobs } = sendOf(`small-${n}`, 1, 3, category, clock.now());
      small.push({ sendId: record.send_id, at: clock.now() });
      await world.accept(record, jobs);
    }
  })();
  await clock.run(Promise.all([world.serve(seconds * 1000), arrivals]), seconds * 1000);
  const waits = small.map(({ sendId, at }) => {
    const launched = world.launchedOf.get(sendId);
    return (launched?.count === 3 ? launched.last : clock.now() + 60_000) - at;
  });
  return {
    ...figures(
      `one number: a ${category} send of ${bigSize.toLocaleString('en')} and sends of 3 of it beside it (their third message)`,
      world,
      concurrency,
      seconds,
    ),
    smallP50: percentile(waits, 50),
    smallP99: percentile(waits, 99),
    bigSent: world.launchedOf.get('big')?.count ?? 0,
  };
}

/**
 * The categories on one number (issue 44): sends of `size` of MARKETING, UTILITY and AUTHENTICATION reach one
 * number a second apart, in that order. When each one's first and last messages went, from the first's arrival.
 */
export async function categoriesScenario(options: { size?: number; seconds?: number } = {}) {
  const { size = 3_000, seconds = Number(process.env.SIM_CATEGORIES_SECONDS ?? 150) } = options;
  const clock = new SimClock();
  const world = new World(clock, {
    concurrency: dispatchConcurrency(),
    dbLatencyMs: 4,
    rampPerSecond: 5,
    batchSize: DispatchMessages.trigger.batchSize,
  });
  const order: Category[] = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];
  const arrivals = (async () => {
    for (const category of order) {
      const { record, jobs } = sendOf(category, 1, size, category, clock.now());
      await world.accept(record, jobs);
      await clock.sleep(1_000);
    }
  })();
  const done = (async () => {
    while (order.some((category) => (world.launchedOf.get(category)?.count ?? 0) < size)) await clock.sleep(1_000);
  })();
  await clock.run(Promise.race([Promise.all([world.serve(seconds * 1000), arrivals]), done]), seconds * 1000);
  return order.map((category, i) => ({
    category,
    arrivedMs: i * 1_000,
    firstMs: (world.firstLaunch.get(category) ?? Number.NaN) - clock.start,
    lastMs: (world.launchedOf.get(category)?.last ?? Number.NaN) - clock.start,
    sent: world.launchedOf.get(category)?.count ?? 0,
  }));
}

export function categoriesTable(rows: Awaited<ReturnType<typeof categoriesScenario>>) {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    '| send on one number | arrives | first message | last message | sent |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.category} | ${s(r.arrivedMs)} | ${s(r.firstMs)} | ${s(r.lastMs)} | ${r.sent.toLocaleString('en')} |`),
  ];
}

/**
 * Many numbers sending at once, on a service warmed up to its concurrency (the steady state, not the ramp): each
 * of `numbers` tenants sends 1,000 on its own number at the start.
 */
export async function numbersScenario(options: { numbers?: number; seconds?: number; concurrency?: number; batchSize?: number } = {}) {
  const { numbers = Number(process.env.SIM_NUMBERS ?? 2000), seconds = Number(process.env.SIM_NUMBER_SECONDS ?? 10) } = options;
  const concurrency = options.concurrency ?? Number(process.env.SIM_NUMBERS_CONCURRENCY ?? 1000);
  const clock = new SimClock();
  const batchSize = options.batchSize ?? DispatchMessages.trigger.batchSize;
  const world = new World(clock, { concurrency, dbLatencyMs: 4, rampPerSecond: Number.POSITIVE_INFINITY, batchSize });
  for (let c = 1; c <= numbers; c++) {
    const { record, jobs } = sendOf(`send-${c}`, c, JOB, 'MARKETING', clock.now());
    await world.accept(record, jobs);
  }
  await clock.run(world.serve(seconds * 1000), seconds * 1000);
  return figures(
    `${numbers.toLocaleString('en')} numbers sending at once (warmed up, ${batchSize} jobs an invocation)`,
    world,
    concurrency,
    seconds,
  );
}

/**
 * A hundred numbers at Meta's highest level (issue 54): each number HIGH (1,000 messages a second), on a service
 * warmed up to its concurrency. Each number's tenant runs a campaign long enough to keep it busy the whole run
 * (MARKETING unless `campaigns` says otherwise), and sends of 3 UTILITY arrive on the same numbers as a Poisson
 * stream of 10 a second: a number's sends share it as in the other scenarios. Each number's rate is read from
 * `warmupSeconds` on (the steady state, after the first jobs' cold starts).
 */
export async function highTierScenario(
  options: {
    numbers?: number;
    seconds?: number;
    concurrency?: number;
    warmupSeconds?: number;
    campaigns?: Category;
    smallSends?: boolean;
  } = {},
) {
  const { numbers = Number(process.env.SIM_HIGH_NUMBERS ?? 100), seconds = Number(process.env.SIM_HIGH_SECONDS ?? 10) } = options;
  const { campaigns = 'MARKETING', smallSends = true } = options;
  const { concurrency = Number(process.env.SIM_HIGH_CONCURRENCY ?? 1000), warmupSeconds = 2 } = options;
  const clock = new SimClock();
  const batchSize = DispatchMessages.trigger.batchSize;
  const world = new World(clock, { concurrency, dbLatencyMs: 4, rampPerSecond: Number.POSITIVE_INFINITY, batchSize, level: 'HIGH' });
  const campaignSize = Math.ceil((seconds * world.levelRate * 1.1) / JOB) * JOB;
  for (let c = 1; c <= numbers; c++) {
    const { record, jobs } = sendOf(`campaign-${c}`, c, campaignSize, campaigns, clock.now());
    await world.accept(record, jobs);
  }
  const small: { sendId: string; at: number }[] = [];
  const next = randomFrom(5454);
  const arrivals = (async () => {
    for (let n = 0; smallSends; n++) {
      await clock.sleep(-Math.log(1 - next()) * 100);
      if (clock.now() - clock.start > seconds * 1000 - 2_000) return;
      const { record, jobs } = sendOf(`small-${n}`, 1 + Math.floor(next() * numbers), 3, 'UTILITY', clock.now());
      small.push({ sendId: record.send_id, at: clock.now() });
      await world.accept(record, jobs);
    }
  })();
  await clock.run(Promise.all([world.serve(seconds * 1000), arrivals]), seconds * 1000);
  const waits = small.map(({ sendId, at }) => (world.firstLaunch.get(sendId) ?? clock.now() + 60_000) - at);
  return {
    ...figures(
      `${numbers} HIGH numbers (1,000/s), a ${campaigns} campaign each${smallSends ? ' and sends of 3 beside them' : ''} (warmed up, ${batchSize} jobs an invocation)`,
      world,
      concurrency,
      seconds,
    ),
    smallBusyP99: percentile(waits, 99),
    numberShares: world.numberShares(warmupSeconds, seconds),
    campaignSize,
  };
}

export function simulationTable(rows: ScenarioFigures[]) {
  const ms = (v?: number) => (v === undefined || Number.isNaN(v) ? '—' : `${(v / 1000).toFixed(2)} s`);
  return [
    '| scenario | concurrency | virtual time | messages | msg/s | small sends: first message p50 / p99 (idle numbers) | p99 on a campaign’s number | peak second / level | 130429 | hottest partition (units in a second) | most invocations at once | GB-s | $ per 1M messages |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.concurrency} | ${r.virtualSeconds} s | ${r.messages.toLocaleString('en')} | ${r.perSecond.toFixed(0)} | ${ms(r.smallP50)} / ${ms(r.smallP99)} | ${ms(r.smallBusyP99)} | ${r.peakShare.toFixed(3)}× | ${r.refusals} | ${r.hottest.units} (\`${r.hottest.key.replace(/#.*#/, '#…#')}\`) | ${r.mostRunning} | ${r.gbSeconds.toFixed(0)} | ${r.costPerMillion.toFixed(2)} |`,
    ),
  ];
}

/** What the HIGH section shows, as BENCHMARKS.md introduces it (bench/run.ts). */
export const HIGH_TIER_INTRO =
  "The HIGH scenario (issue 54, docs/high-tier.md): 100 numbers at Meta's HIGH level (1,000 a second; 130429 beyond 1,100 in a rolling second), each with a MARKETING campaign as long as the run and sends of 3 UTILITY arriving 10 a second across them, through the real dispatcher on the discrete-event clock, warmed up to 1,000 invocations of 4 jobs; beside it 10 HIGH numbers with a UTILITY campaign each (the urgent lane's chunks). Then the status path at the rate the numbers kept, modelled (bench/sim/status-path.ts; every assumption in bench/sim/status-assumptions.ts with its reason): Meta's sent, delivered or failed, and read POSTs, one invocation of the intake each (its function URL), and the path as built (issue 54): each status on the Kinesis data stream under its key by kind (a read by its send, the rest by send and block: the code's statusStreamKey), read a shard's batch at a time as ApplyMetaStatuses's event source declares it (lib/manifest/workers.ts); beside it, for comparison, SQS at the notifications worker's batch and larger ones, and the stream by send and by send and block. Each batch's status transactions as the adapter cuts them (transactionsOf) and writes them (a `sent` moves no state and writes nothing; the latest item of each touched block's third, the count shard with its figures, its template's day item where its statuses add figures (issue 56), and where it charges the ledger's day and category, a budget and a tier shard), at the item sizes the send-path bench and test/unit/high-tier-simulation.test.ts measure, 2 units a KB.";

/** The worker batch sizes the status path is modelled at on SQS: the manifest's, then larger ones that would group statuses by send. */
const STATUS_BATCHES = [ApplyMetaNotifications.trigger.batchSize, 1_000, 5_000];
/** The partition keys the status path is modelled at on Kinesis Data Streams. */
const KINESIS_KEYS: KinesisKey[] = ['send', 'send+block', 'kind'];

/**
 * The HIGH scenario's section (issue 54): the dispatch row, each number's rate, and the status path at the rate the
 * numbers kept, modelled over SIM_HIGH_WINDOW_MS of its steady state on SQS at each of STATUS_BATCHES, and over a
 * period of SIM_HIGH_KINESIS_WINDOW_MS on Kinesis Data Streams at each of KINESIS_KEYS (about 40 s of CPU each).
 */
export async function highTierSection() {
  const high = await highTierScenario();
  // UTILITY campaigns (more than SMALL_SEND: the urgent lane's chunks) on HIGH numbers, apart: they keep less.
  const urgent = await highTierScenario({ numbers: 10, campaigns: 'UTILITY', smallSends: false });
  const shares = high.numberShares;
  const windowMs = Number(process.env.SIM_HIGH_WINDOW_MS ?? 3_000);
  const kinesisWindowMs = Number(process.env.SIM_HIGH_KINESIS_WINDOW_MS ?? 12_000);
  const rate = shares.mean * MESSAGES_PER_SECOND.HIGH;
  const sqs = STATUS_BATCHES.map((batchSize) => statusPath({ numbers: shares.numbers, rate, windowMs, batchSize }));
  const kinesis = KINESIS_KEYS.map((key) => kinesisPath({ numbers: shares.numbers, rate, windowMs: kinesisWindowMs, key }));
  const runs = [...sqs, ...kinesis];
  return [
    ...simulationTable([high, urgent]),
    '',
    `Each number's launches a second from 2 s into the run to its end: ${shares.least.toFixed(3)}× to ${shares.most.toFixed(3)}× its level (${shares.numbers} numbers; the dispatcher paces at ${PACE_SHARE}×); campaigns of ${high.campaignSize.toLocaleString('en')} a number; sends of 3 beside them: first message p99 ${((high.smallBusyP99 ?? Number.NaN) / 1000).toFixed(2)} s. With UTILITY campaigns (the second row): ${urgent.numberShares.least.toFixed(3)}× to ${urgent.numberShares.most.toFixed(3)}× its level.`,
    '',
    `The status path at that rate (${Math.round(rate * shares.numbers).toLocaleString('en')} messages a second), modelled over ${windowMs / 1000} s of its steady state on SQS and ${kinesisWindowMs / 1000} s on Kinesis (a period of the stream, its batches measured once their lanes run out of step):`,
    '',
    ...statusPathTable(runs),
    '',
    ...kinesisTable(kinesis),
    '',
    ...itemKindTable(runs),
    '',
    'A `read` status (most come alone: about 20 minutes after delivery, one or none a block in a batch):',
    '',
    ...readLines(runs),
    '',
    'Per 1,000,000 messages with their statuses, by part:',
    '',
    ...costTable(runs, high.costPerMillion),
    '',
    'The path as built, every part with its share:',
    '',
    ...builtPathCostLines(kinesis.find((run) => run.kinesis?.key === 'kind') ?? kinesis[0], high.costPerMillion),
    '',
    costNotes(runs),
    '',
    `A global sender's largest ledger item (${STATUS_ASSUMPTIONS.globalLedgerKb} KB, a day and category late in a busy day: the send-path bench) would add ${runs.map((run) => `${globalLedgerUnits(run).toFixed(2)} units a message on ${runLabel(run)}`).join(', ')}.`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: ScenarioFigures[] = [];
  const only = process.env.SIM_ONLY;
  const runs = { tenants: () => tenantsScenario(), numbers: () => numbersScenario(), shared: () => sharedNumberScenario() };
  for (const [name, run] of Object.entries(runs)) {
    if (only && only !== name) continue;
    const started = performance.now();
    const row = await run();
    rows.push(row);
    console.error(`simulated ${row.scenario} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(simulationTable(rows).join('\n'));
  if (!only || only === 'categories') {
    const started = performance.now();
    const categories = await categoriesScenario();
    console.error(`simulated the categories on one number in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`\n${categoriesTable(categories).join('\n')}`);
  }
  if (!only || only === 'high') {
    const started = performance.now();
    const section = await highTierSection();
    console.error(`simulated the HIGH scenario in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`\n${HIGH_TIER_INTRO}\n\n${section.join('\n')}`);
  }
}
