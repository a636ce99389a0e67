import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/**
 * The whole project's types, checked by TypeScript's native compiler (`tsgo`, @typescript/native-preview: the
 * same checks as `tsc`, in a third of the time on this machine: 5 s against 16 s). `npm run typecheck` runs `tsc`
 * itself. A test of its own so it runs beside the others (test/support/long-files-first.ts starts it first).
 */
describe('the project', () => {
  // The service (Node) and the console (a browser's DOM, preact's JSX: console/tsconfig.json) are two projects.
  it.each(['.', 'console'])(
    'typechecks (%s)',
    async (project) => {
      // Act
      const result = await promisify(execFile)(
        process.execPath,
        [join(ROOT, 'node_modules/@typescript/native-preview/bin/tsgo'), '--noEmit', '-p', join(ROOT, project)],
        {
          cwd: ROOT,
          maxBuffer: 16 * 1024 * 1024,
        },
      ).then(
        () => ({ errors: '' }),
        (error: { stdout?: string; message: string }) => ({ errors: error.stdout || error.message }),
      );
      // Assess
      expect(result.errors).toBe('');
    },
    180_000,
  );
});
