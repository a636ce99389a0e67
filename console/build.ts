import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build, buildSync, type BuildOptions } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');

/**
 * The console's bundle (issue 45): preact, chart.js's parts in use and the pages as `console.js`, their style as
 * `console.css`, which the page carries inline (console/serve/page.ts). Minified, an ES module for current browsers,
 * licences kept at the end.
 */
const OPTIONS: BuildOptions = {
  absWorkingDir: ROOT,
  entryPoints: [{ in: 'console/src/main.tsx', out: 'console' }],
  outdir: 'console/dist',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'eof',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'silent',
  write: false,
};

/** The built files by name (console.js, console.css), in memory. */
export async function buildConsole(): Promise<Map<string, string>> {
  const result = await build(OPTIONS);
  return new Map(result.outputFiles!.map((file) => [basename(file.path), file.text]));
}

/**
 * Writes the built files to console/dist, where the stack's synth copies them from (lib/manifest/routes/console.ts).
 * Each file is written beside and renamed into place, so a synth in another process never reads half a file.
 */
export function writeConsole(dir = join(ROOT, 'console/dist')): void {
  mkdirSync(dir, { recursive: true });
  for (const file of buildSync(OPTIONS).outputFiles!) {
    const name = basename(file.path);
    const text = file.text;
    const partial = join(dir, `.${name}.${process.pid}`);
    writeFileSync(partial, text);
    renameSync(partial, join(dir, name));
  }
}
