import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureDispatchRate } from './dispatch-rate.ts';
import { measureDomainPaths } from './domain-paths.ts';
import { measureFunctionImports } from './function-imports.ts';
import { measureStorePaths } from './store-paths.ts';

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

say('## Dispatch: messages per second per number (issue 11)');
say();
const pace = measureDispatchRate(Number(process.env.DISPATCH_PER_NUMBER ?? 800));
const ratio = (measured: number, wanted: number) => `${(measured / wanted).toFixed(3)}×`;
say(
  `On the local stack's real parts: sends through the API, the dispatch queue, ${10} dispatcher pollers, DynamoDB Local and the Graph emulator, all on this machine. The baseline is the configured rate (MESSAGES_PER_SECOND = ${pace.configured}); a rate is the least-squares slope of a number's accept times at the emulator against the messages' order; the peak is the most accepts in any one second.`,
);
say();
say('| run | messages | per number (msg/s) | per number / configured | peak second | total (msg/s) |');
say('|---|---|---|---|---|---|');
say(
  `| one number, ${pace.oneNumber.jobs} jobs at once | ${pace.oneNumber.messages} | ${pace.oneNumber.perSecond.toFixed(1)} | ${ratio(pace.oneNumber.perSecond, pace.configured)} (within 5 %: ${Math.abs(pace.oneNumber.perSecond / pace.configured - 1) <= 0.05 ? 'yes' : 'NO'}) | ${pace.oneNumber.peakSecond} | ${pace.oneNumber.perSecond.toFixed(1)} |`,
);
for (const run of pace.tenNumbers) {
  const low = Math.min(...run.perNumber);
  const high = Math.max(...run.perNumber);
  say(
    `| ten numbers at ${run.perSecond}/s each | ${run.messages} | ${low.toFixed(1)}–${high.toFixed(1)} | ${ratio(low, run.perSecond)}–${ratio(high, run.perSecond)} | ${run.peakSecond} | ${run.totalPerSecond.toFixed(1)} |`,
  );
}
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
