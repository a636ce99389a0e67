import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/**
 * `tsc --noEmit` over the whole project (`npm run typecheck` alone). A test of its own so it runs beside the
 * others (test/support/long-files-first.ts starts it first) instead of before all of them.
 */
describe('the project', () => {
  it('typechecks', async () => {
    // Act
    const result = await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', ROOT], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      () => ({ errors: '' }),
      (error: { stdout?: string; message: string }) => ({ errors: error.stdout || error.message }),
    );
    // Assess
    expect(result.errors).toBe('');
  }, 180_000);
});
