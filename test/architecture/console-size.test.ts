import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildConsole } from '../../console/build.ts';
import { consolePage } from '../../console/serve/page.ts';

/** The first page's budget (issue 45): what a browser loads before any API answers, gzipped. */
const BUDGET_BYTES = 150 * 1024;

describe('the console’s size (issue 45)', () => {
  it('is one page of at most 150 KB gzipped, its script and style inline: all a browser loads before the API answers', async () => {
    // Prepare
    const files = await buildConsole();
    // Act: the page as the function serves it, gzipped
    const page = consolePage({ script: files.get('console.js')!, css: files.get('console.css')! }, { signIn: 'token' });
    const gzipped = gzipSync(page.html, { level: 9 }).length;
    // Assess: the page carries the whole bundle, and fits
    expect(page.html).toContain(files.get('console.js')!.slice(0, 200));
    expect(page.html).not.toMatch(/<(script|link)[^>]+(src|href)=/);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
    console.log(`the console's page: ${(gzipped / 1024).toFixed(1)} KB gzipped of ${BUDGET_BYTES / 1024} KB`);
  });
});
