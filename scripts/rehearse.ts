import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkQuotas, QUOTAS } from '../infra/quotas.ts';
import { rehearse, synthesize } from '../rehearsal/rehearse.ts';

/**
 * `npm run rehearse`: the deployment rehearsed in moto (docs/operations.md, "Rehearse first"). Synthesizes the
 * stack as `cdk deploy` does, checks its quotas, makes its resources in moto from the template, and runs every
 * bundle with its own role. Exits 1 on anything refused or answered otherwise than on the local stack.
 * `--calls` lists the AWS actions each function made; REHEARSAL_LOGS=1 prints every function's logs (by default
 * only those of the functions that failed).
 */
const outdir = mkdtempSync(join(tmpdir(), 'tms-rehearse-'));
try {
  console.log('synthesizing (Cognito on, bundles built)…');
  const template = synthesize(outdir);
  // The stack and its nested stack of alarms, as `cdk synth` checks them (infra/app.ts).
  const nested = readdirSync(outdir).filter((file) => file.endsWith('.nested.template.json'));
  const checks = [template, ...nested.map((file) => JSON.parse(readFileSync(join(outdir, file), 'utf8')))].map(checkQuotas);
  const quotas = { figures: checks.flatMap((c) => c.figures), problems: checks.flatMap((c) => c.problems) };
  for (const figure of quotas.figures) console.log(`quota  ${figure}`);
  const report = await rehearse({ template, outdir, log: (line) => console.log(line) });
  for (const c of [...report.functions, ...report.journeys, ...report.cognito, ...report.consoleSignIn])
    console.log(`${c.passed ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(34)} ${c.passed ? c.got : `expected ${c.expected}, got ${c.got}`}`);
  if (process.argv.includes('--calls'))
    for (const [name, actions] of Object.entries(report.calls)) console.log(`calls  ${name.padEnd(28)} ${actions.join(' ')}`);
  const pairs = Object.values(report.calls).reduce((n, actions) => n + actions.length, 0);
  console.log(`${pairs} different actions of a function, made by ${Object.keys(report.calls).length} functions as their roles`);
  for (const d of report.denials) console.log(`DENIED  ${d.function}: ${d.action} on ${d.resource} (${d.by})`);
  for (const t of report.trust) console.log(`TRUST  ${t}`);
  for (const [name, lines] of Object.entries(report.logs)) console.log(`--- ${name}\n${lines.join('\n')}`);
  console.log(
    `not made (moto lacks them, or only AWS runs them): ${Object.entries(report.notMade)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ')}`,
  );
  const passed = report.passed && quotas.problems.length === 0;
  for (const problem of quotas.problems) console.log(`QUOTA  ${problem}`);
  console.log(passed ? `rehearsal passed (quotas: ${Object.keys(QUOTAS).length} checked)` : 'rehearsal FAILED');
  process.exitCode = passed ? 0 : 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
