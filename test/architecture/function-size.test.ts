import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.ts';

/**
 * The code reads a step at a time (issue 44 for the sending core, issue 50 for the rest): no function of lib/,
 * functions/, console/ or local/ (a declaration, an arrow, a function expression, a method, a constructor or an
 * accessor; in `.ts` and `.tsx`) is over MAX_LINES lines, from its first token to its last, comments inside it
 * counted.
 */
const MAX_LINES = 60;
const FOLDERS = ['lib', 'functions', 'console', 'local'];

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** A function's name as a reader finds it: its own, the variable or property it is given to, else its line. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) return parent.name.getText(source);
  return '(anonymous)';
}

/** Every function of a source text longer than `maxLines`, as `file:line name (lines)`. */
function longFunctions(file: string, text: string, maxLines = MAX_LINES): string[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (FUNCTION_KINDS.has(node.kind)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > maxLines) found.push(`${file}:${first + 1} ${nameOf(node, source)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every `.ts` and `.tsx` file under a folder, its path from the root. */
const sourcesUnder = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesUnder(`${folder}/${entry.name}`) : /\.tsx?$/.test(entry.name) ? [`${folder}/${entry.name}`] : [],
  );

describe('the functions of lib/, functions/, console/ and local/', () => {
  it(`are each at most ${MAX_LINES} lines`, () => {
    // Prepare
    const files = FOLDERS.flatMap(sourcesUnder);
    // Act
    const long = files.flatMap((file) => longFunctions(file, readFileSync(join(ROOT, file), 'utf8')));
    // Assess
    expect(files.filter((file) => file.endsWith('.tsx')).length).toBeGreaterThan(5);
    expect(files.length).toBeGreaterThan(300);
    expect(long).toEqual([]);
  });

  it('finds a long function of every kind and names it (the check itself works)', () => {
    // Prepare: one of each kind, each 4 lines long, checked against a limit of 3
    const body = '{\n  a;\n  b;\n}';
    const text = [
      `function declared() ${body}`,
      `const arrow = () => ${body};`,
      `const expression = function () ${body};`,
      `class Holder {\n  constructor() ${body}\n  method() ${body}\n  get value() ${body}\n}`,
      `const holder = { property: () => ${body} };`,
      `function short() {}`,
    ].join('\n');
    // Act
    const long = longFunctions('sample.ts', text, 3);
    // Assess
    expect(long.map((offender) => offender.split(' ')[1])).toEqual([
      'declared',
      'arrow',
      'expression',
      'constructor',
      'method',
      'value',
      'property',
    ]);
    expect(long[0]).toBe('sample.ts:1 declared (4 lines)');
  });
});
