import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DISPATCH_TUNING } from '#lib/domain/sends/dispatch/tuning.ts';
import { ROOT } from './imports.ts';

/**
 * The dispatcher's tuning is written once, in one table (issue 44): lib/domain/sends/dispatch/tuning.ts. No other file of
 * lib/domain/sends/dispatch/ writes a number but 0, 1, 2 (a half, a double) and 1,000 (milliseconds in a second), or
 * Meta's own figures (a level's rate, a pause's periods); docs/dispatch-jobs.md lists the table as it is.
 */
const FOLDER = 'lib/domain/sends/dispatch';
const PLAIN = new Set([0, 1, 2, 1000]);
/** Meta's figures, not ours to tune (upstream-facts §6.3, §8). */
const META_FIGURES = new Set(['MESSAGES_PER_SECOND', 'PAUSE_PERIODS_MS']);

/** The numbers a source writes outside Meta's figures, other than the plain ones, as `file:line value`. */
function numbersIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && META_FIGURES.has(node.name.getText(source))) return;
    if (ts.isNumericLiteral(node) && !PLAIN.has(Number(node.text)))
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${node.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The rows of the table in docs/dispatch-jobs.md's tuning section: name, value, unit, why. */
function documentedRows() {
  const doc = readFileSync(join(ROOT, 'docs/dispatch-jobs.md'), 'utf8');
  const section = doc.slice(doc.indexOf("## The dispatcher's tuning"));
  return [...section.matchAll(/^\| `(\w+)` \| ([\d,.]+) \| (\w+) \| (.*) \|$/gm)].map(([, name, value, unit, why]) => ({
    name,
    value: Number(value.replaceAll(',', '')),
    unit,
    why,
  }));
}

describe('the dispatcher’s tuning', () => {
  it('is written in lib/domain/sends/dispatch/tuning.ts alone: no other number in lib/domain/sends/dispatch/', () => {
    // Prepare
    const files = readdirSync(join(ROOT, FOLDER)).filter((name) => name.endsWith('.ts') && name !== 'tuning.ts');
    // Act
    const numbers = files.flatMap((name) => numbersIn(`${FOLDER}/${name}`, readFileSync(join(ROOT, FOLDER, name), 'utf8')));
    // Assess
    expect(files.length).toBeGreaterThan(10);
    expect(numbers).toEqual([]);
  });

  it('finds a number written outside the table (the check itself works)', () => {
    // Prepare
    const text = 'const WAIT_MS = 250;\nconst half = x / 2;\nconst MESSAGES_PER_SECOND = { STANDARD: 80 };\nsleep(1_000);';
    // Act
    const numbers = numbersIn('sample.ts', text);
    // Assess
    expect(numbers).toEqual(['sample.ts:1 250']);
  });

  it('is listed in docs/dispatch-jobs.md as it is: every name, value, unit and why', () => {
    // Prepare
    const table = Object.entries(DISPATCH_TUNING).map(([name, row]) => ({ name, value: row.value, unit: row.unit, why: row.why }));
    // Act
    const documented = documentedRows();
    // Assess
    expect(table.length).toBeGreaterThan(20);
    expect(documented).toEqual(table);
  });
});
