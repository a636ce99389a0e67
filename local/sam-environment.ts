import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAIM_DEFAULTS, CLAIM_SETTINGS } from '#lib/auth/claim-names.ts';
import { fillSampleEvent, sampleEvents } from './sample-events.ts';

/** What of a synthesized template these helpers read and write. */
export interface FunctionProperties {
  Runtime?: string;
  Environment?: { Variables?: Record<string, unknown> };
  Architectures?: string[];
}
export interface SynthesizedTemplate {
  Resources: Record<string, { Type: string; Properties: FunctionProperties; Metadata?: Record<string, string> }>;
}

/** The synthesized stack's Node functions by logical id. */
export const nodeFunctions = (template: SynthesizedTemplate) =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Runtime?.startsWith('nodejs'));

/** A logical id without CDK's hash and scope (`IdentityPreTokenGeneration1A2B3C4D` → `PreTokenGeneration`). */
export const functionName = (logicalId: string) => logicalId.replace(/^Identity/, '').replace(/[0-9A-F]{8}$/, '');

/**
 * Each function's environment for `sam local` against a running local stack: the template's own settings,
 * with the stack's (table, queues, bus, endpoints, issuer and keys, upstream, Meta secrets) over them. A `Ref`
 * SAM would resolve to a logical id becomes the stack's value or nothing. The local issuer's tokens carry the
 * claims under their default names, so the claim settings are the defaults here.
 */
export function samEnvironment(template: SynthesizedTemplate, settings: Record<string, string>): Record<string, Record<string, string>> {
  const claims = {
    [CLAIM_SETTINGS.clientId]: CLAIM_DEFAULTS.clientId,
    [CLAIM_SETTINGS.permissions]: CLAIM_DEFAULTS.permissions,
    [CLAIM_SETTINGS.campaigns]: CLAIM_DEFAULTS.campaigns,
  };
  return Object.fromEntries(
    nodeFunctions(template).map(([logicalId, resource]) => {
      const declared = (resource.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      const own = Object.fromEntries(Object.entries(declared).map(([key, value]) => [key, typeof value === 'string' ? value : '']));
      return [logicalId, { ...own, ...settings, ...claims }];
    }),
  );
}

/**
 * What `sam local` needs for a running local stack. SAM overrides only the variables a function's template
 * declares, and resolves `Ref`s to logical ids, so this writes
 *  - `templateFile` (beside the synthesized one, so asset paths still resolve): every function's environment set
 *    to `samEnvironment`'s, and its architecture the host's (the bundles are plain JavaScript; arm64 on an x86
 *    host would need emulation);
 *  - `<dir>/env.json`: the same settings as an `--env-vars` file, per logical id;
 *  - `<dir>/events/<FunctionName>.json`: the sample events of `events/` with fresh tokens and signatures.
 */
export async function writeSamFiles(
  synthesized: SynthesizedTemplate,
  settings: Record<string, string>,
  out: { templateFile: string; dir: string },
): Promise<void> {
  const template = structuredClone(synthesized);
  const environment = samEnvironment(template, settings);
  const architecture = process.arch === 'arm64' ? 'arm64' : 'x86_64';
  for (const [logicalId, resource] of nodeFunctions(template)) {
    resource.Properties.Environment = { Variables: environment[logicalId] };
    resource.Properties.Architectures = [architecture];
  }
  writeFileSync(out.templateFile, `${JSON.stringify(template, null, 1)}\n`);
  mkdirSync(join(out.dir, 'events'), { recursive: true });
  writeFileSync(join(out.dir, 'env.json'), `${JSON.stringify(environment, null, 2)}\n`);
  for (const [name, event] of Object.entries(sampleEvents())) {
    writeFileSync(join(out.dir, 'events', `${name}.json`), `${JSON.stringify(await fillSampleEvent(event, settings), null, 2)}\n`);
  }
}
