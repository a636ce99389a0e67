import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.ts';

/**
 * The unit tests of the sending core mirror its files (issue 44): test/unit/sends/dispatch/<name>.test.ts for every
 * lib/domain/sends/dispatch/<name>.ts, and no test there whose file is gone.
 */
const namesIn = (folder: string, suffix: string) =>
  readdirSync(join(ROOT, folder))
    .filter((name) => name.endsWith(suffix))
    .map((name) => name.slice(0, -suffix.length))
    .sort();

/** The sources without a test of their name, and the tests without a source of theirs. */
function unmirrored(sources: string[], tests: string[]) {
  return { untested: sources.filter((name) => !tests.includes(name)), orphans: tests.filter((name) => !sources.includes(name)) };
}

describe('the sending core’s unit tests', () => {
  it('have a file for each file of lib/domain/sends/dispatch/, by its name, and none for a file that is gone', () => {
    // Prepare
    const sources = namesIn('lib/domain/sends/dispatch', '.ts').filter((name) => name !== 'ports');
    const tests = namesIn('test/unit/sends/dispatch', '.test.ts');
    // Act
    const found = unmirrored(sources, tests);
    // Assess
    expect(sources.length).toBeGreaterThan(10);
    expect(found).toEqual({ untested: [], orphans: [] });
  });

  it('finds a source without its test and a test without its source (the check itself works)', () => {
    // Act
    const found = unmirrored(['claims', 'lanes'], ['claims', 'dispatch']);
    // Assess
    expect(found).toEqual({ untested: ['lanes'], orphans: ['dispatch'] });
  });
});
