import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction, deployedFunctions, type BuiltBundle, type DeployedFunction } from '../../infra/function-bundles.ts';

/**
 * Each function's deployed bundle carries exactly what its route (or worker) declares: an adapter or AWS
 * client it does not declare fails here, and so does one it declares but never uses (the stack grants by
 * the declaration, so both must agree).
 */
const functions = deployedFunctions();
const outdir = mkdtempSync(join(tmpdir(), 'tms-bundles-'));
const bundles = new Map<string, BuiltBundle>();

beforeAll(async () => {
  await Promise.all(functions.map(async (fn) => bundles.set(fn.name, await bundleFunction(fn.entry, join(outdir, fn.name)))));
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const has = (bundle: BuiltBundle, path: string) => bundle.inputs.some((input) => input.includes(path));

/** What a declaration implies, as source paths that must (or must not) be in the bundle. */
const expectations = (fn: DeployedFunction): [string, boolean][] => [
  ['lib/adapters/dynamo/', fn.needs.table !== 'none'],
  ['lib/adapters/graph/', Boolean(fn.needs.upstream)],
  ['node_modules/@aws-sdk/client-secrets-manager/', Boolean(fn.needs.upstream || fn.needs.metaApp)],
  ['lib/adapters/meta/webhook-secrets', Boolean(fn.needs.metaApp)],
  ['lib/adapters/eventbridge/', Boolean(fn.needs.bus)],
  ['node_modules/@aws-sdk/client-eventbridge/', Boolean(fn.needs.bus)],
  ['lib/adapters/sqs/', (fn.needs.queues ?? []).length > 0 || Boolean(fn.redelivers)],
  ['node_modules/@fastify/busboy/', fn.multipart],
];

describe('function bundles', () => {
  it.each(functions.map((fn) => [fn.name, fn] as const))('%s carries what it declares, and nothing it does not', (_name, fn) => {
    const bundle = bundles.get(fn.name)!;
    const wrong = expectations(fn)
      .filter(([path, wanted]) => has(bundle, path) !== wanted)
      .map(([path, wanted]) => `${wanted ? 'missing' : 'undeclared'}: ${path}`);
    expect(wrong).toEqual([]);
  });

  it('keeps the SQS client out of every HTTP function that sends no jobs', () => {
    const carrying = functions
      .filter((fn) => fn.kind === 'http' && !(fn.needs.queues ?? []).length)
      .filter((fn) => has(bundles.get(fn.name)!, 'node_modules/@aws-sdk/client-sqs/'))
      .map((fn) => fn.name);
    expect(carrying).toEqual([]);
  });

  it('keeps every AWS SDK client out of the functions that touch no AWS service', () => {
    for (const name of ['GetOpenApi', 'RouteNotFound']) expect(has(bundles.get(name)!, 'node_modules/@aws-sdk/'), name).toBe(false);
  });
});
