import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONSOLE_FILES } from '#lib/manifest/routes/console.ts';
import type { ConsoleAssets } from './page.ts';

/**
 * The console's script and style: beside the deployed bundle (the stack builds them at synth and copies them
 * there, lib/manifest/route.ts `files`), or built now when the source runs as it is (the local stack, tests):
 * console/build.ts with esbuild, a development tool no deployed function carries, hence the import by address.
 */
export async function consoleAssets(bundleDir = import.meta.dirname): Promise<ConsoleAssets> {
  const [script, css] = CONSOLE_FILES.map(({ to }) => join(bundleDir, to));
  if (existsSync(script) && existsSync(css)) return { script: readFileSync(script, 'utf8'), css: readFileSync(css, 'utf8') };
  const builder = pathToFileURL(join(import.meta.dirname, '../build.ts')).href;
  const { buildConsole } = (await import(builder)) as { buildConsole: () => Promise<Map<string, string>> };
  const built = await buildConsole();
  return { script: built.get('console.js') ?? '', css: built.get('console.css') ?? '' };
}
