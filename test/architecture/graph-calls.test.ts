import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.ts';

/**
 * No Graph call depends on what Graph API v27.0 ends for new apps in every version (issue 55 item 7,
 * docs/platform-2027.md §7): batch requests (asynchronous or not), multi-ID reads, field aliases, HTTP method
 * override, JSONP callbacks, date/time formatting. The Graph adapters make one request per call.
 */
const FOLDER = 'lib/adapters/graph';
const ENDED = [
  ['a batch request', /\bbatch\b/i],
  ['a multi-ID read', /[?&'"]ids\b/],
  ['a field alias', /\.as\(/],
  ['an HTTP method override', /\bmethod=/],
  ['a JSONP callback', /\bcallback=/],
  ['date/time formatting', /\bdate_format\b/],
] as const;

describe('Graph calls without what v27.0 ends (issue 55)', () => {
  it('has no Graph adapter use a batch request, multi-ID read, field alias, method override, JSONP or date format', () => {
    // Prepare
    const files = readdirSync(join(ROOT, FOLDER)).filter((file) => file.endsWith('.ts'));
    // Act
    const found = files.flatMap((file) => {
      const text = readFileSync(join(ROOT, FOLDER, file), 'utf8');
      return ENDED.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${FOLDER}/${file}: ${what}`);
    });
    // Assess
    expect(files.length).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });
});
