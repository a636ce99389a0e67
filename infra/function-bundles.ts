import { copyFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { build } from 'esbuild';
import { ROUTE_NOT_FOUND, routes } from '#lib/manifest/routes.ts';
import type { Needs } from '#lib/manifest/needs.ts';
import { workers } from '#lib/manifest/workers.ts';
import { esbuildOptions } from './bundling.ts';
import { writeConsole } from '../console/build.ts';

export const ROOT = join(import.meta.dirname, '..');

/** Every deployed function: its name, source, what it may use, and whether it parses multipart bodies. */
export interface DeployedFunction {
  name: string;
  entry: string;
  needs: Needs;
  kind: 'http' | 'worker';
  multipart: boolean;
  /** A worker that sets when the messages it fails come back (lib/manifest/workers.ts). */
  redelivers?: boolean;
  /** Files the function serves, copied beside its bundle (lib/manifest/route.ts `files`). */
  files?: readonly { from: string; to: string }[];
}

export const deployedFunctions = (): DeployedFunction[] => [
  ...routes.map((r) => ({
    name: r.name,
    entry: r.entry,
    needs: r.needs,
    kind: 'http' as const,
    multipart: Boolean(r.request?.multipart),
    files: r.files,
  })),
  { ...ROUTE_NOT_FOUND, kind: 'http' as const, multipart: false },
  ...workers.map((w) => ({
    name: w.name,
    entry: w.entry,
    needs: w.needs,
    kind: 'worker' as const,
    multipart: false,
    redelivers: 'queue' in w.trigger && Boolean(w.trigger.redelivers),
  })),
];

export interface BuiltBundle {
  file: string;
  bytes: number;
  /** Source files in the bundle, relative to the repo root (node_modules paths included). */
  inputs: string[];
}

/** Builds one function exactly as it is deployed (infra/bundling.ts) into `outdir/index.mjs`, its files beside it. */
export async function bundleFunction(entry: string, outdir: string, files: DeployedFunction['files'] = []): Promise<BuiltBundle> {
  const file = join(outdir, 'index.mjs');
  const result = await build({ ...esbuildOptions(isAbsolute(entry) ? entry : join(ROOT, entry), file), absWorkingDir: ROOT });
  // The console's files are built, not kept (console/build.ts): built now, as a synth does.
  if (files.some(({ from }) => from.startsWith('console/dist/'))) writeConsole();
  for (const { from, to } of files) copyFileSync(join(ROOT, from), join(outdir, to));
  const output = Object.values(result.metafile!.outputs).find((o) => o.entryPoint);
  const inputs = Object.keys(output?.inputs ?? {}).map((input) => relative(ROOT, join(ROOT, input)));
  return { file, bytes: statSync(file).size, inputs };
}
