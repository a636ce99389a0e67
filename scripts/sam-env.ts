import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../local/keys.ts';
import { fillSampleEvent, sampleEvents } from '../local/sample-events.ts';
import { functionName, nodeFunctions, samEnvironment, type SynthesizedTemplate } from '../local/sam-environment.ts';

/**
 * `npm run sam:env`: points `sam local` at the running local stack (`npm start`). SAM overrides only the
 * variables a function's template declares, and resolves `Ref`s to logical ids, so this writes
 *  - `cdk.out/sam-local.template.json`: the synthesized template (`npm run synth`) with every function's
 *    environment set to the stack's settings (its table, queues, bus, endpoints, JWKS and upstream);
 *  - `.local/sam/env.json`: the same settings as an `--env-vars` file, per logical id;
 *  - `.local/sam/events/<FunctionName>.json`: the sample events of `events/` with fresh tokens and signatures;
 * and prints each function's logical id.
 */
const stackName = process.argv[2] ?? 'TemplateMessagingService';
const runningFile = join(ROOT, '.local', 'running.json');
const templateFile = join(ROOT, 'cdk.out', `${stackName}.template.json`);
if (!existsSync(runningFile)) throw new Error('No running local stack: start one with `npm start` (it writes .local/running.json)');
if (!existsSync(templateFile)) throw new Error(`No ${templateFile}: run \`npm run synth\` first`);

const { settings } = JSON.parse(readFileSync(runningFile, 'utf8')) as { settings: Record<string, string> };
const template = JSON.parse(readFileSync(templateFile, 'utf8')) as SynthesizedTemplate;
const envVars = samEnvironment(template, settings);
// SAM overrides only what the template declares: the SAM copy of the template declares it all. The bundles are
// plain JavaScript, so they run on this machine's architecture (arm64 on an x86 host would need emulation).
const architecture = process.arch === 'arm64' ? 'arm64' : 'x86_64';
for (const [logicalId, resource] of nodeFunctions(template)) {
  resource.Properties.Environment = { Variables: envVars[logicalId] };
  resource.Properties.Architectures = [architecture];
}
writeFileSync(join(ROOT, 'cdk.out', 'sam-local.template.json'), `${JSON.stringify(template, null, 1)}\n`);
mkdirSync(join(ROOT, '.local', 'sam', 'events'), { recursive: true });
writeFileSync(join(ROOT, '.local', 'sam', 'env.json'), `${JSON.stringify(envVars, null, 2)}\n`);
for (const [name, event] of Object.entries(sampleEvents())) {
  writeFileSync(
    join(ROOT, '.local', 'sam', 'events', `${name}.json`),
    `${JSON.stringify(await fillSampleEvent(event, settings), null, 2)}\n`,
  );
}
for (const [logicalId] of nodeFunctions(template)) console.log(`${functionName(logicalId).padEnd(32)} ${logicalId}`);
console.log('\nwrote cdk.out/sam-local.template.json, .local/sam/env.json and .local/sam/events/');
console.log('sam local start-api -t cdk.out/sam-local.template.json --env-vars .local/sam/env.json --docker-network host');
