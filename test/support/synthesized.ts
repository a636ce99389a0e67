import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withNestedFunctions } from '../../infra/nested-templates.ts';
import { REHEARSAL_STACK, synthesize } from '../../rehearsal/rehearse.ts';
import type { Template } from '../../rehearsal/resources.ts';

const PREFIX = 'tms-synth-run-';

/**
 * The stack as `cdk deploy` synthesizes it (Cognito on, every bundle built), once per test run: the deployed
 * bundles' file and the rehearsal's read the same cloud assembly. A synth with bundling costs about 17 s of CPU
 * on this machine (esbuild and CDK), so the second file waits for the first one's. The files run in workers of
 * one vitest process (its pid names the run's folder), each may come first; the one that makes the folder
 * synthesizes, the other waits for its `done` (or `failed`) mark. Folders of runs no longer alive are removed.
 */
export async function synthesizedOnce(): Promise<{ outdir: string; template: Template }> {
  removeFoldersOfEndedRuns();
  const folder = join(tmpdir(), `${PREFIX}${process.ppid}`);
  const outdir = join(folder, 'cdk.out');
  const done = join(folder, 'done');
  const failed = join(folder, 'failed');
  let mine = true;
  try {
    mkdirSync(folder);
  } catch {
    mine = false;
  }
  if (mine) {
    try {
      synthesize(outdir);
      writeFileSync(done, '');
    } catch (error) {
      writeFileSync(failed, String(error));
      throw error;
    }
  } else {
    const deadline = Date.now() + 240_000;
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(`the other file's synth failed: ${readFileSync(failed, 'utf8')}`);
      if (Date.now() > deadline) throw new Error(`no synth in ${folder} within 240 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const template = JSON.parse(readFileSync(join(outdir, `${REHEARSAL_STACK}.template.json`), 'utf8')) as Template;
  // With the workers' nested stack inlined: every function in one template.
  return { outdir, template: withNestedFunctions(template, outdir) };
}

function removeFoldersOfEndedRuns() {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX))) {
    const pid = Number(name.slice(PREFIX.length));
    if (pid === process.ppid || isAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
