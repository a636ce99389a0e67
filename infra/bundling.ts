import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled, in one place: the CDK stack builds its assets with these (infra/service-function.ts), and
 * `npm run bench` builds the same bundles with esbuild directly to measure their size and import time.
 * ESM for Node 22, the AWS SDK included (the deployed code runs the SDK version the tests ran), minified,
 * with an external source map that the error log reads only when an error is logged (lib/log/), so no
 * `--enable-source-maps` cost is paid at import.
 */
export const BUNDLE_TARGET = 'node22';
export const BUNDLE_MAIN_FIELDS = ['module', 'main'];
/** ESM output still meets CommonJS dependencies that call require(). */
export const BUNDLE_BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

export const esbuildOptions = (entry: string, outfile: string): BuildOptions => ({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLE_TARGET,
  minify: true,
  sourcemap: 'external',
  mainFields: BUNDLE_MAIN_FIELDS,
  banner: { js: BUNDLE_BANNER },
  metafile: true,
  logLevel: 'silent',
});
