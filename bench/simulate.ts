import type { DispatchJob } from '#lib/domain/dispatch-job.ts';
import type { SendRecord } from '#lib/domain/ports/sending.ts';
import { dispatchConcurrency } from '#lib/config.ts';
import { DispatchMessages } from '#lib/manifest/workers.ts';
import { jobOf, recipient, templateOf } from '../test/support/dispatch-jobs.ts';
import { SimClock } from './sim/clock.ts';
import { World } from './sim/world.ts';

/**
 * A provider's scale on the discrete-event clock (issue 33, `npm run simulate`): the real dispatcher with the
 * models of bench/sim/world.ts. Two scenarios: many tenants, a few of them running large campaigns, with small
 * sends arriving all the while; and many numbers sending at once. Each prints its figures; bench/run.ts puts
 * the same table in BENCHMARKS.md. Sizes are settings: SIM_SECONDS (virtual time of the first), SIM_NUMBERS
 * and SIM_NUMBER_SECONDS (the second), DISPATCH_CONCURRENCY.
 */
const JOB = 1000;

/** A send of `count` recipients on a tenant's own number, in jobs of 1,000, as the API makes them. */
function sendOf(sendId: string, client: number, count: number, category: 'MARKETING' | 'UTILITY', at: number) {
  const did = `52${String(client).padStart(8, '0')}`;
  const record: SendRecord = {
    send_id: sendId,
    client_id: client,
    did,
    template: { name: 'track_order', language: 'en_US' },
    status: 'queuing',
    created_at: new Date(at).toISOString(),
    total: count,
    jobs: Math.ceil(count / JOB),
  };
  const template = templateOf(category);
  const jobs: DispatchJob[] = [];
  for (let first = 0; first < count; first += JOB) {
    const size = Math.min(JOB, count - first);
    jobs.push(
      jobOf(
        Array.from({ length: size }, (_, i) => recipient(`${did}${String(first + i).padStart(6, '0')}`)),
        {
          send_id: sendId,
          client_id: client,
          did,
          phone_number_id: `p${client}`,
          template,
          total_contacts: count,
          job: first / JOB + 1,
          jobs: record.jobs,
          first_index: first,
        },
      ),
    );
  }
  return { record, jobs };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

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
  let random = 12345;
  const next = () => {
    random = (random * 1103515245 + 12345) % 2 ** 31;
    return random / 2 ** 31;
  };
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: ScenarioFigures[] = [];
  for (const run of [() => tenantsScenario(), () => numbersScenario()]) {
    const started = performance.now();
    const row = await run();
    rows.push(row);
    console.error(`simulated ${row.scenario} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(simulationTable(rows).join('\n'));
}
