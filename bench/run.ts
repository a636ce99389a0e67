import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureDispatchRate } from './dispatch-rate.ts';
import { measureDomainPaths } from './domain-paths.ts';
import { measureFunctionImports } from './function-imports.ts';
import { measureSendPath } from './send-path.ts';
import { frequencyCapSection, globalSenderSection, hotItemsSection } from './send-path-report.ts';
import { performanceSection } from './performance-report.ts';
import {
  categoriesScenario,
  categoriesTable,
  HIGH_TIER_INTRO,
  highTierSection,
  numbersScenario,
  sharedNumberScenario,
  simulationTable,
  tenantsScenario,
} from './simulate.ts';
import { measureStorePaths } from './store-paths.ts';
import { PACE_SHARE } from '#lib/domain/sends/dispatch/tuning.ts';
import { DispatchMessages } from '#lib/manifest/workers.ts';

/**
 * `npm run bench`: every figure as a ratio to a baseline measured in the same run, written to BENCHMARKS.md
 * with the machine and the date. Benchmarks never fail the test run; counts that must hold are asserted in
 * the tests instead.
 */
const rounds = Number(process.env.ROUNDS ?? 40);
const lines: string[] = [];
const say = (line = '') => {
  console.log(line);
  lines.push(line);
};

say('# Benchmarks');
say();
say(
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.`,
);
say();

say('## Function bundles: size and import time (cold start)');
say();
const imports = await measureFunctionImports(rounds);
say(
  `Each bundle is built as deployed (infra/bundling.ts) and imported by Node 22 in a fresh process, ${rounds} rounds; the fastest import is kept.`,
);
say(
  `Baseline: middy + lib-dynamodb doing one GetItem (bench/baseline-function.ts), ${(imports.baseline.bytes / 1024).toFixed(0)} KB, ${imports.baseline.importMs.toFixed(1)} ms.`,
);
say(
  `Floor: the baseline + Powertools Logger (bench/baseline-with-logger.ts), ${(imports.withLogger.bytes / 1024).toFixed(0)} KB, ${imports.withLogger.timeRatio.toFixed(3)}× the baseline: the logger imports node:console and node:crypto, which no function that logs through it avoids.`,
);
say();
say('| function | size | size / baseline | import / baseline | import / floor |');
say('|---|---|---|---|---|');
for (const f of imports.functions) {
  say(
    `| ${f.name} | ${(f.bytes / 1024).toFixed(0)} KB | ${f.sizeRatio.toFixed(2)}× | ${f.timeRatio.toFixed(3)}× | ${f.loggerTimeRatio.toFixed(3)}× |`,
  );
}
say();

say('## Store paths: cost that grows with the request (issue 10)');
say();
const storeRounds = Number(process.env.STORE_ROUNDS ?? 5);
const store = await measureStorePaths(storeRounds);
say(
  `On the local stack's real parts (DynamoDB Local, the SQS server, the Graph emulator), in this process; the fastest of ${storeRounds} rounds. Each baseline issues the same DynamoDB, SQS and Graph calls directly, in the same run. Counts come from a meter on the AWS clients (local/request-meter.ts) and the emulator's call log; the tests assert the counts that must hold.`,
);
say();
say('| path | time | baseline | ratio | counts | budget |');
say('|---|---|---|---|---|---|');
for (const r of store.rows) {
  say(
    `| ${r.path} | ${r.ms.toFixed(1)} ms | ${r.baselineMs.toFixed(1)} ms (${r.baseline}) | ${(r.ms / r.baselineMs).toFixed(2)}× | ${r.counts} | ${r.budget} |`,
  );
}
say();
for (const note of store.notes) say(`- ${note}`);
say();

say('## Dispatch: messages per second per number (issues 11, 22)');
say();
const pace = measureDispatchRate(Number(process.env.DISPATCH_PER_NUMBER ?? 800));
const ratio = (measured: number, wanted: number) => `${(measured / wanted).toFixed(3)}×`;
say(
  `On the local stack's real parts: sends through the API, the dispatch queue, up to ${DispatchMessages.trigger.maxConcurrency} dispatcher invocations at once (DISPATCH_CONCURRENCY), DynamoDB Local and the Graph emulator, all on this machine. The baseline is the configured rate (MESSAGES_PER_SECOND = ${pace.configured}, capping each number's level); the dispatcher paces at ${PACE_SHARE} of it (lib/domain/sends/dispatch/throughput.ts: headroom for the jitter between a message's slot and the upstream's accept), and no second at the upstream may take more than 1.1× the rate. A rate is the least-squares slope of a number's accept times at the emulator against the messages' order; the peak is the most accepts in any one second.`,
);
say();
say('| run | messages | per number (msg/s) | per number / configured | peak second | peak / (1.1 × configured) | total (msg/s) |');
say('|---|---|---|---|---|---|---|');
say(
  `| one number, ${pace.oneNumber.jobs} jobs at once | ${pace.oneNumber.messages} | ${pace.oneNumber.perSecond.toFixed(1)} | ${ratio(pace.oneNumber.perSecond, pace.configured)} (within 5 % of the pace: ${Math.abs(pace.oneNumber.perSecond / (PACE_SHARE * pace.configured) - 1) <= 0.05 ? 'yes' : 'NO'}) | ${pace.oneNumber.peakSecond} | ${ratio(pace.oneNumber.peakSecond, 1.1 * pace.configured)} | ${pace.oneNumber.perSecond.toFixed(1)} |`,
);
for (const run of pace.tenNumbers) {
  const low = Math.min(...run.perNumber);
  const high = Math.max(...run.perNumber);
  say(
    `| ten numbers at ${run.perSecond}/s each | ${run.messages} | ${low.toFixed(1)}–${high.toFixed(1)} | ${ratio(low, run.perSecond)}–${ratio(high, run.perSecond)} | ${run.peakSecond} | ${ratio(run.peakSecond, 1.1 * run.perSecond)} | ${run.totalPerSecond.toFixed(1)} |`,
  );
}
say();

say('## The send path at production rates (issue 22)');
say();
const sendRuns = measureSendPath(Number(process.env.SEND_PATH_PER_SEND ?? 800));
say(
  "On the local stack's real parts, in a process of its own (bench/send-path.ts): two sends of 800 on one number at once, every recipient a new person, every message reporting sent, delivered and read to the webhook, which the notifications worker counts. Every DynamoDB write of every function is recorded by item key (local/request-meter.ts); a write's units are its item's size in whole KB, twice in a transaction. The baseline is the fewest units the same work needs, from the same run's items, never our own pattern of writes: each message's three facts (its outcome, delivered, read) one unit each, as they arrive apart, and every other item the run keeps (each block's recipients with their values as accepted, the new people's identity items, the send, its counts, the ledger's and the budget's items, the number's pace) written once at its largest size, as if every change to it were gathered into one write. The limits are decisions §19's: no item above one write per 20 messages, and no partition key above 1,000 units a second at 1,000 messages a second (1 unit a message). 1,000 messages a second cannot be driven on this machine: the per-message ratios carry it, and the last run goes as fast as the machine does.",
);
say();
say(
  '| run | messages | counts exact | write units / message | baseline / message (facts + kept items) | / baseline (≤ 1.5×) | hottest item: writes / message (≤ 0.05) | hottest key: units / message (≤ 1) | items read / message | rate (msg/s) | peak second / (1.1 × rate) |',
);
say('|---|---|---|---|---|---|---|---|---|---|---|');
for (const run of sendRuns) {
  const perMessage = run.writes.units / run.messages;
  const ratio = run.writes.units / run.baseline.units;
  say(
    `| ${run.label} | ${run.messages} | ${run.exact ? 'yes' : 'NO'} | ${perMessage.toFixed(2)} | ${(run.baseline.units / run.messages).toFixed(2)} (3 + ${(run.baseline.kept / run.messages).toFixed(2)}: recipients' values ${(run.baseline.recipients / run.messages).toFixed(2)}, peopleMap ${(run.baseline.peopleMap / run.messages).toFixed(2)}) | ${ratio.toFixed(2)}×: ${ratio <= 1.5 ? 'met' : 'NOT met'} | ${(run.writes.items[0].writes / run.messages).toFixed(4)} (${run.writes.items[0].writes} on \`${run.writes.items[0].sk}\`) | ${(run.writes.keys[0].units / run.messages).toFixed(3)} | ${(run.itemsRead / run.messages).toFixed(2)} | ${run.perSecond.toFixed(1)} | ${(run.peakSecond / (1.1 * run.rate)).toFixed(3)}× (${run.peakSecond}) |`,
  );
}
say();
say(
  `Where the STANDARD run's units go, by item kind (units a message; writes; items): ${sendRuns[0].kinds
    .slice(0, 10)
    .map((k) => `\`${k.kind}\` ${(k.units / sendRuns[0].messages).toFixed(2)} (${k.writes} writes, ${k.items} items)`)
    .join('; ')}.`,
);
say();
const standard = sendRuns[0];
const scale = 1_000_000 / standard.messages;
const invocations = Object.values(standard.invocations).reduce((sum, i) => sum + i.count, 0);
const gbSeconds = Object.values(standard.invocations).reduce((sum, i) => sum + (i.ms / 1000) * 0.5, 0);
const apiRequests = ['SendTemplate', 'ReceiveMetaWebhook'].reduce((sum, name) => sum + (standard.invocations[name]?.count ?? 0), 0);
const costRows: [string, number, string, number][] = [
  ['DynamoDB write request units', standard.writes.units * scale, '$0.625 per million', 0.625e-6],
  [
    'DynamoDB read request units (one per item read: consistent reads of items up to 4 KB)',
    Math.max(standard.itemsRead, standard.bytesRead / 4096) * scale,
    '$0.125 per million',
    0.125e-6,
  ],
  [
    "SQS requests (the functions' and the event source mappings' that carried messages)",
    standard.sqsRequests * scale,
    '$0.40 per million',
    0.4e-6,
  ],
  ['Lambda invocations', invocations * scale, '$0.20 per million', 0.2e-6],
  [
    'Lambda GB-seconds (512 MB, arm64; local durations, all functions in one process: an upper bound)',
    gbSeconds * scale,
    '$0.0000133334 per GB-second',
    0.0000133334,
  ],
  ["API Gateway HTTP API requests (the sends and Meta's status webhooks)", apiRequests * scale, '$1.00 per million', 1e-6],
];
say(
  "The cost ledger (issue 34) is in these figures: before it (aba7d5a) the STANDARD run took 3.77 units a message; with it 4.02 on the run of e2d8a72 (+0.25: the ledger's own items about 0.10, counted alone by test/measured/production-rates.test.ts with its hottest item at 0.009 writes a message; the rest each delivered message's pricing kept on its block's latest item and the charges on the count shards), within the 1 unit a message the issue allows. On f4cd70c: 4.13 (issue 35 keeps each recipient's values with its block when the send is accepted, for a resend: +0.11).",
);
say();
say(
  "Issues 41 to 43 (2026-11-27), each measured by `npx tsx bench/send-path.ts` on its own commit in one session, the tree before them (2734a9a) measured again beside them: 4.23 units a message (its recorded 4.08 came from a quieter machine). Issue 41 (e499f7a: every item of a status transaction counted, so a batch splits where it must; the ledger an item a number and day, with the currency): 4.31, +0.08. Issue 42 (each delivery's charge and the reservation it gives back moved on one of the client's 8 budget shards, in the same transaction): 4.43, +0.12, its hottest budget item 21 writes for 1,600 messages in test/measured/production-rates.test.ts. Issue 43 (the people map: each new person's two items, its number and its BSUID, written once and never again): the run above, where all 1,600 recipients are new people, +2 units a message for them and nothing for a person already known (the production-rates test: 3,200 writes for 1,600 new people, the hottest identity item 1 write).",
);
say();
say(
  "Issue 44 (2026-11-27, the run of 09c08ae): the baseline was 3 units a message, the three facts alone (the STANDARD run read 2.27× against it); it left out what the work keeps besides them: each new person's two identity items (2.00 a message), the recipients' values as accepted (0.04) and the send's, its counts', the ledger's, the budget's and the pace's items (0.06, once each). Above the baseline of the same work (1.70 units a message on the STANDARD run): each status's state is written in a transaction with its send's count shard, its charge's ledger item and its budget shard (2 units a write, 1.4 writes a message: 2.81 where its facts are 2.00), which keeps counts, charges and budgets exact and is not cut; the listing's latest states, a block's item of about 3 KB rewritten whole with each batch of statuses (0.71), which items of a third of a block would bring to about a third, a change of the recipients listing's layout left for an issue of its own; and the count, ledger and budget shards themselves (0.65 together, one write each a status transaction). A block's outcomes cost 0.53 a message, under the unit a message the baseline gives them, though the meter counts each of a block's 12 writes (its claim, the dispatcher's progress records, its settling) at the settled block's size.",
);
say();
say(
  "Per 1,000,000 messages with sent, delivered and read statuses, scaled from the STANDARD run, at AWS's published us-east-1 on-demand prices as of 2025-01 (DynamoDB on demand after its 2024-11-01 price cut; SQS standard queues beyond the free tier; Lambda arm64; HTTP APIs for the first 300 million requests). Free tiers are left out.",
);
say();
say('| part | per 1,000,000 messages | price | cost |');
say('|---|---|---|---|');
let total = 0;
for (const [part, amount, price, unit] of costRows) {
  total += amount * unit;
  say(`| ${part} | ${Math.round(amount).toLocaleString('en-US')} | ${price} | $${(amount * unit).toFixed(2)} |`);
}
say(`| total | | | $${total.toFixed(2)} |`);
say();
say(
  "Before issue 22 (measured on the tree before it, as the issue records): a send of 1,000 with sent and delivered statuses wrote 4,029 items and 7,043 units (7.0 a message), the send's own item took 1,015 writes (1.0 a message, 152 units in one second at 80/s), all under one partition key; two sends of 800 at 80/s peaked at 118 messages in one second (152–158 in the dispatch rows); a bulk status of 1,000 records read 7,993 items (8.0 a record) and answered 500 after 29 s while a send dispatched.",
);
say();
for (const line of [
  ...globalSenderSection(sendRuns),
  '',
  ...hotItemsSection(sendRuns),
  '',
  ...frequencyCapSection(sendRuns),
  '',
  ...performanceSection(sendRuns),
])
  say(line);

say("## Fair dispatch at a provider's scale: the simulation (issue 33)");
say();
say(
  "`npm run simulate` (bench/simulate.ts): the real dispatcher on a discrete-event clock with models of SQS (a fair queue: the group with the fewest in flight first; a tenant's priority lane is a group of its own), Lambda (concurrency growing 5 a second from 5, cold starts of 300 ms, 50 s a run), DynamoDB (4 ms a call; write units per partition key a second) and Meta (80 a second a number, 130429 beyond 1.1× in a rolling second; answers in 80–180 ms). Prices: Lambda $0.0000166667 a GB-second (1 GB) and $0.20 a million requests, SQS $0.40 a million requests, DynamoDB $0.625 a million write units (reads not counted). Small sends are 3 UTILITY recipients arriving 5 a second across all tenants; their wait is from arrival to first launch. The one-number row (issue 44): a send of 10,000 UTILITY on one number and sends of 3 UTILITY on the same number arriving 2 a second while it goes; their wait is from arrival to their third message launched (one not sent within the run counts a minute more than the run).",
);
say();
for (const line of simulationTable([await tenantsScenario(), await numbersScenario(), await sharedNumberScenario()])) say(line);
say();
say(
  'The categories on one number (issue 44): sends of 3,000 MARKETING, UTILITY and AUTHENTICATION reaching one number a second apart, in that order; times from the first one’s arrival.',
);
say();
for (const line of categoriesTable(await categoriesScenario())) say(line);
say();
say(
  "Before issue 44 (the same `npm run simulate` on the tree before it, 3287d43): the one-number row's sends of 3 had their third message at 4.39 s p50 and 70.55 s p99 (some not sent within the run, each counted a minute after it), 61 messages a second, the pacing item's hottest second 15 units; the categories' last messages at 126.49 s (MARKETING), 78.29 s (UTILITY) and 93.71 s (AUTHENTICATION), the AUTHENTICATION send's first at 11.07 s. The first two rows then: 213,318 messages, 0.05 s / 0.49 s, 1.49 s on a campaign's number, hottest 35 units, 4,879 GB-s; and 1,347,524 messages, the same as now. Through a stack at production rate (`test/measured/shared-number.test.ts`, one run each on this shared machine): a send of 3 beside a 10,000-recipient UTILITY send on its number was at the emulator 16.5 s after its answer before, 0.5–1.6 s after (two runs of an earlier version, its horizon 250 ms, at a load average near 20 took 2.8 s). The categories' three sends took 135 s together where the number's pace allows 125 s: a number handed from one rank to the next, and a big send's jobs coming back in turn, leave it idle for moments.",
);
say();
say(
  'Before issue 33 (measured through `npm start`, the issue records): beside ten campaigns, an idle tenant waited 124 s for its first message; a send of 3 beside a campaign of 10,000 on its number, 15.7 s; ten invocations at most, whatever the number of numbers. With one job an invocation, a warmed-up service at the 1,000 invocations SQS allows kept 1,000 numbers at their pace, not 2,000 (67,386 messages a second for 2,000 numbers in this simulation); an invocation now takes four jobs and sends them side by side.',
);
say();
say("### A hundred numbers at Meta's HIGH level (issue 54)");
say();
say(HIGH_TIER_INTRO);
say();
for (const line of await highTierSection()) say(line);
say();

say('## Domain paths');
say();
const domain = measureDomainPaths();
say(`Baseline: ${domain.baseline.name}.`);
say();
say('| path | time / baseline | output / baseline |');
say('|---|---|---|');
for (const r of domain.results)
  say(`| ${r.name} | ${(r.ms / domain.baseline.ms).toFixed(2)}× | ${(r.outputBytes / domain.baseline.outputBytes).toFixed(3)}× |`);

writeFileSync(join(import.meta.dirname, '..', 'BENCHMARKS.md'), `${lines.join('\n')}\n`);
