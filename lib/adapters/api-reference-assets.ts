import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { SwaggerUiAssets } from '#lib/openapi/api-reference-page.ts';
import { API_DOCS_FILES } from '#lib/manifest/routes/docs.ts';

/**
 * Swagger UI's files: next to the deployed bundle (the stack copies them there, lib/manifest/route.ts `files`), or
 * from node_modules when the source runs as it is (the local stack, tests).
 */
export function swaggerUiAssets(bundleDir = import.meta.dirname): SwaggerUiAssets {
  const [script, css] = API_DOCS_FILES.map(({ from, to }) => {
    const beside = join(bundleDir, to);
    if (existsSync(beside)) return readFileSync(beside, 'utf8');
    return readFileSync(createRequire(import.meta.url).resolve(from.replace(/^node_modules\//, '')), 'utf8');
  });
  return { script, css };
}
