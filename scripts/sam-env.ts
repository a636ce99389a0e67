import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withNestedFunctions } from '../infra/nested-templates.ts';
import { ROOT } from '../local/keys.ts';
import { functionName, nodeFunctions, type SynthesizedTemplate, writeSamFiles } from '../local/sam-environment.ts';

/**
 * `npm run sam:env [stack name]`: points `sam local` at the running local stack (`npm start`), from the
 * synthesized template (`npm run synth`). What it writes and why: `writeSamFiles` (local/sam-environment.ts).
 */
const stackName = process.argv[2] ?? 'TemplateMessagingService';
const runningFile = join(ROOT, '.local', 'running.json');
const templateFile = join(ROOT, 'cdk.out', `${stackName}.template.json`);
if (!existsSync(runningFile)) throw new Error('No running local stack: start one with `npm start` (it writes .local/running.json)');
if (!existsSync(templateFile)) throw new Error(`No ${templateFile}: run \`npm run synth\` first`);

const { settings } = JSON.parse(readFileSync(runningFile, 'utf8')) as { settings: Record<string, string> };
// The workers' functions with the others: their nested stack's template inlined.
const template = withNestedFunctions(JSON.parse(readFileSync(templateFile, 'utf8')) as SynthesizedTemplate, join(ROOT, 'cdk.out'));
await writeSamFiles(template, settings, {
  templateFile: join(ROOT, 'cdk.out', 'sam-local.template.json'),
  dir: join(ROOT, '.local', 'sam'),
});
for (const [logicalId] of nodeFunctions(template)) console.log(`${functionName(logicalId).padEnd(32)} ${logicalId}`);
console.log('\nwrote cdk.out/sam-local.template.json, .local/sam/env.json and .local/sam/events/');
console.log('sam local start-api -t cdk.out/sam-local.template.json --env-vars .local/sam/env.json --docker-network host');
