import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceMappedStack } from '#lib/log/source-mapped-stack.ts';
import { bundleFunction } from '../../infra/function-bundles.ts';

describe('stack traces of deployed bundles', () => {
  it('name the source file and line in an error log, though the bundle runs without --enable-source-maps', async () => {
    // Prepare: a function that fails, bundled as every function is (minified, external source map)
    const dir = mkdtempSync(join(tmpdir(), 'tms-maps-'));
    try {
      const entry = join(dir, 'failing-function.ts');
      writeFileSync(entry, "export function handler() {\n  const detail = 'x';\n  throw new Error('failed ' + detail);\n}\n");
      const bundle = await bundleFunction(entry, join(dir, 'out'));
      const { handler } = (await import(pathToFileURL(bundle.file).href)) as { handler: () => void };
      // Act
      let stack = '';
      try {
        handler();
      } catch (error) {
        stack = sourceMappedStack((error as Error).stack ?? '');
      }
      // Assess
      expect(stack).toMatch(/failing-function\.ts:3:\d+/);
      expect(stack).not.toContain('index.mjs:1:');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
