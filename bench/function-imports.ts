import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleFunction, deployedFunctions, ROOT } from '../infra/function-bundles.ts';

/**
 * Cold-start cost of every function: its deployed bundle's size and the time Node 22 takes to import it,
 * each against the baseline bundle (bench/baseline-function.ts: middy + lib-dynamodb doing one GetItem)
 * built and measured in the same run. Each round imports every bundle once, the baseline first, each in a
 * fresh process; the fastest of the rounds is kept. On a shared two-core machine the same import takes 80 or
 * 140 ms depending on what else runs, so noise only ever adds: the minimum is the import's own cost.
 */
export interface ImportFigure {
  name: string;
  bytes: number;
  importMs: number;
  sizeRatio: number;
  /** Import time over the baseline's. */
  timeRatio: number;
  /** Import time over the baseline-with-Powertools-Logger's (the floor of a function that logs). */
  loggerTimeRatio: number;
}

const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const PIN = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

function importMs(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
  // Pinned to one core (where taskset exists), so every import runs on the same CPU as the baseline's.
  const [command, args] = PIN ? ['taskset', ['-c', '0', NODE]] : [NODE, []];
  return Number(
    execFileSync(command, [...args, '--input-type=module', '-e', script], { env: { ...process.env, LOG_LEVEL: 'SILENT' } }).toString(),
  );
}

export async function measureFunctionImports(
  rounds = 25,
): Promise<{ baseline: ImportFigure; withLogger: ImportFigure; functions: ImportFigure[] }> {
  const outdir = mkdtempSync(join(tmpdir(), 'tms-bench-'));
  try {
    const targets = [
      { name: 'baseline', entry: 'bench/baseline-function.ts' },
      { name: 'baseline + Powertools Logger', entry: 'bench/baseline-with-logger.ts' },
      ...deployedFunctions().filter((fn) => fn.kind === 'http'),
    ];
    const built = await Promise.all(
      targets.map(async (t) => ({ name: t.name, ...(await bundleFunction(t.entry, join(outdir, t.name), 'files' in t ? t.files : [])) })),
    );
    const times = new Map<string, number[]>(built.map((b) => [b.name, []]));
    for (let i = 0; i < rounds; i++) for (const bundle of built) times.get(bundle.name)!.push(importMs(bundle.file));
    const fastest = (name: string) => Math.min(...times.get(name)!);
    const baseMs = fastest(built[0].name);
    const loggerMs = fastest(built[1].name);
    const figures = built.map((b) => {
      const ms = fastest(b.name);
      return {
        name: b.name,
        bytes: b.bytes,
        importMs: ms,
        sizeRatio: b.bytes / built[0].bytes,
        timeRatio: ms / baseMs,
        loggerTimeRatio: ms / loggerMs,
      };
    });
    return { baseline: figures[0], withLogger: figures[1], functions: figures.slice(2) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
