import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '#lib/openapi/openapi.ts';

describe('docs/openapi.json', () => {
  it('is the document the manifest makes (npm run openapi writes it)', () => {
    // Act
    const committed = readFileSync(join(import.meta.dirname, '../../docs/openapi.json'), 'utf8');
    // Assess
    expect(committed).toBe(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
  });
});
