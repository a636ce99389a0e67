import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '#lib/openapi/openapi.ts';
import { ROOT } from '../local/keys.ts';

/** `npm run openapi`: writes docs/openapi.json from the route manifest and its valibot schemas. */
mkdirSync(join(ROOT, 'docs'), { recursive: true });
writeFileSync(join(ROOT, 'docs', 'openapi.json'), `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('wrote docs/openapi.json');
