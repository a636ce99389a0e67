import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.ts';

/**
 * The sending core reads a step at a time (issue 44): no function of lib/domain/sends/dispatch/ (a declaration, an arrow,
 * a function expression, a method, a constructor or an accessor) is over MAX_LINES lines, from its first token to
 * its last, comments inside it counted.
 */
const MAX_LINES = 60;
const FOLDER = 'lib/domain/sends/dispatch';

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
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
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

const sendingFiles = () =>
  readdirSync(join(ROOT, FOLDER))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${FOLDER}/${name}`);

describe('the sending core’s functions', () => {
  it(`are each at most ${MAX_LINES} lines (lib/domain/sends/dispatch/)`, () => {
    // Prepare
    const files = sendingFiles();
    // Act
    const long = files.flatMap((file) => longFunctions(file, readFileSync(join(ROOT, file), 'utf8')));
    // Assess
    expect(files.length).toBeGreaterThan(10);
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
