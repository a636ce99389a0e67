import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the map a newcomer reads first (issue 36): it must name every folder of the
 * repository and every vitest project, so a folder or project added without a word there fails here.
 */
const ROOT = join(import.meta.dirname, '../..');
const map = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
/** The folders holding files git tracks (or would: new files not ignored), and their parents. */
const folders = () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const all = new Set<string>();
  for (const file of files) for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) all.add(dir);
  return [...all].sort();
};
const named = (folder: string) => map.includes(`\`${folder}/`) || map.includes(`\`${folder}\``);

describe('the architecture map (docs/architecture.md)', () => {
  it('names every folder of the repository', () => {
    // Prepare
    const all = folders();
    // Assess
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((folder) => !named(folder))).toEqual([]);
  });

  it('names every vitest project', () => {
    // Prepare: the projects as vitest.config.ts declares them
    const projects = [...readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8').matchAll(/name: '([\w-]+)'/g)].map((m) => m[1]);
    // Assess
    expect(projects.length).toBe(7);
    expect(projects.filter((project) => !map.includes(`| \`${project}\` |`))).toEqual([]);
  });

  it('fails for a folder it does not name (the check itself works)', () => {
    expect(named('lib/no-such-folder')).toBe(false);
    expect(named('lib/domain/sends/dispatch')).toBe(true);
  });
});
