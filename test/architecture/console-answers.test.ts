import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.ts';

/**
 * The console reads the API's answers as lib/schemas types them (issue 50), never as copies of its own that drift
 * from the API: every answer it asks for with a type (`api.get<T>`, `api.post<T>`, `api.call<T>`) is typed by a name
 * of console/src/answers.ts; answers.ts builds each of its types on a route's response schema; no other console
 * file declares a type named as a schema is. The schemas are types only there: the bundle carries none of them.
 */
const ANSWERS = 'console/src/answers.ts';
const API_METHODS = new Set(['get', 'post', 'call']);

const parse = (file: string, text: string) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

const lineOf = (source: ts.SourceFile, node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

/** Every node of a source, depth first. */
function nodesOf(source: ts.SourceFile): ts.Node[] {
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    nodes.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return nodes;
}

/** The names a source imports from a module whose specifier passes `from`. */
function importedNames(source: ts.SourceFile, from: (specifier: string) => boolean): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !from((statement.moduleSpecifier as ts.StringLiteral).text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.add(element.name.text);
  }
  return names;
}

/** Every answer a console file asks the API for whose type is not a name imported from answers.ts. */
function answersTypedElsewhere(file: string, text: string): string[] {
  const source = parse(file, text);
  const fromAnswers = importedNames(source, (specifier) => specifier.endsWith('/answers.ts'));
  return nodesOf(source)
    .filter(ts.isCallExpression)
    .filter((call) => ts.isPropertyAccessExpression(call.expression) && API_METHODS.has(call.expression.name.text))
    .filter((call) => ts.isIdentifier((call.expression as ts.PropertyAccessExpression).expression))
    .filter((call) => ((call.expression as ts.PropertyAccessExpression).expression as ts.Identifier).text === 'api')
    .flatMap((call) =>
      (call.typeArguments ?? [])
        .filter((type) => !(ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && fromAnswers.has(type.typeName.text)))
        .map((type) => `${file}:${lineOf(source, call)} ${call.expression.getText(source)}<${type.getText(source)}>`),
    );
}

/**
 * What answers.ts may not hold: an import of anything but lib/schemas' types and valibot's, an interface, or an
 * exported type built on no schema (no `typeof` of one, nor a type of its own that has one).
 */
function answersNotFromSchemas(file: string, text: string): string[] {
  const source = parse(file, text);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
      const typesOnly = statement.importClause?.isTypeOnly === true;
      if (!typesOnly || !(specifier.startsWith('#lib/schemas/') || specifier === 'valibot'))
        found.push(`${file}:${lineOf(source, statement)} imports ${specifier}${typesOnly ? '' : ' (not as types only)'}`);
    }
    if (ts.isInterfaceDeclaration(statement)) found.push(`${file}:${lineOf(source, statement)} interface ${statement.name.text}`);
  }
  const aliases = source.statements.filter(ts.isTypeAliasDeclaration);
  const built = new Set<string>();
  const onSchema = (alias: ts.TypeAliasDeclaration) =>
    nodesOf(source)
      .filter((node) => node.pos >= alias.type.pos && node.end <= alias.type.end)
      .some((node) => ts.isTypeQueryNode(node) || (ts.isTypeReferenceNode(node) && built.has(node.typeName.getText(source))));
  for (let grew = true; grew; ) {
    grew = false;
    for (const alias of aliases)
      if (!built.has(alias.name.text) && onSchema(alias)) {
        built.add(alias.name.text);
        grew = true;
      }
  }
  const exported = aliases.filter((alias) => alias.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
  for (const alias of exported.filter((a) => !built.has(a.name.text)))
    found.push(`${file}:${lineOf(source, alias)} type ${alias.name.text} is built on no schema`);
  return found;
}

/** The names lib/schemas exports, and each response's without its `Response`: the names a copy of one would take. */
function schemaNames(): Set<string> {
  const names = new Set<string>();
  for (const name of readdirSync(join(ROOT, 'lib/schemas')).filter((n) => n.endsWith('.ts'))) {
    const source = parse(name, readFileSync(join(ROOT, 'lib/schemas', name), 'utf8'));
    for (const statement of source.statements.filter(ts.isVariableStatement))
      if (statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
        for (const declaration of statement.declarationList.declarations) {
          const exported = declaration.name.getText(source);
          names.add(exported);
          if (exported.endsWith('Response')) names.add(exported.slice(0, -'Response'.length));
        }
  }
  return names;
}

/** Every interface or type a console file declares under a name lib/schemas gives a schema. */
function typesNamedAsSchemas(file: string, text: string, names: Set<string>): string[] {
  const source = parse(file, text);
  return nodesOf(source)
    .filter((node) => ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))
    .map((node) => node as ts.InterfaceDeclaration | ts.TypeAliasDeclaration)
    .filter((declaration) => names.has(declaration.name.text))
    .map((declaration) => `${file}:${lineOf(source, declaration)} ${declaration.name.text}`);
}

function consoleFiles(folder = join(ROOT, 'console/src')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return consoleFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative(ROOT, path)] : [];
  });
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the console’s answers (issue 50)', () => {
  it('are each typed by console/src/answers.ts, which builds every type on a response schema of lib/schemas', () => {
    // Prepare
    const files = consoleFiles();
    const names = schemaNames();
    // Act
    const elsewhere = files.flatMap((file) => answersTypedElsewhere(file, read(file)));
    const notFromSchemas = answersNotFromSchemas(ANSWERS, read(ANSWERS));
    const copies = files.filter((file) => file !== ANSWERS).flatMap((file) => typesNamedAsSchemas(file, read(file), names));
    // Assess: the checks saw the pages' answers and the schemas' names
    expect(
      files.filter((file) => importedNames(parse(file, read(file)), (s) => s.endsWith('/answers.ts')).size > 0).length,
    ).toBeGreaterThan(6);
    expect(names).toContain('SendStatus');
    expect(elsewhere).toEqual([]);
    expect(notFromSchemas).toEqual([]);
    expect(copies).toEqual([]);
  });

  it('finds an answer typed by hand, a type built on no schema and a copy of a schema’s name (the checks themselves work)', () => {
    // Prepare
    const page = [
      `import type { SendStatus } from '../answers.ts';`,
      `interface Statement { month: string }`,
      `const a = api.get<SendStatus>('v1/sends/1');`,
      `const b = api.get<{ send_id: string }>('v1/sends/2');`,
      `const c = api.post<Statement>('v1/x');`,
      `const d = api.post('v1/y');`,
    ].join('\n');
    const answers = [
      `import type * as v from 'valibot';`,
      `import type { SendStatusResponse } from '#lib/schemas/send.ts';`,
      `import { Budget } from './pages/money-data.ts';`,
      `type Answer<S> = v.InferOutput<S>;`,
      `export type SendStatus = Answer<typeof SendStatusResponse>;`,
      `export type Errors = SendStatus['errors'];`,
      `export type Usage = { from: string };`,
      `export interface Listing { total: number }`,
    ].join('\n');
    // Act
    const elsewhere = answersTypedElsewhere('page.tsx', page);
    const notFromSchemas = answersNotFromSchemas('answers.ts', answers);
    const copies = typesNamedAsSchemas('page.tsx', page, new Set(['Statement']));
    // Assess
    expect(elsewhere).toEqual(['page.tsx:4 api.get<{ send_id: string }>', 'page.tsx:5 api.post<Statement>']);
    expect(notFromSchemas).toEqual([
      'answers.ts:3 imports ./pages/money-data.ts (not as types only)',
      'answers.ts:8 interface Listing',
      'answers.ts:7 type Usage is built on no schema',
    ]);
    expect(copies).toEqual(['page.tsx:2 Statement']);
  });

  it('leaves the schemas out of the bundle: the console takes nothing of lib/ or valibot', async () => {
    // Act: the console bundled as console/build.ts bundles it, with the files it read
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: ['console/src/main.tsx'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      write: false,
      metafile: true,
      outdir: 'out',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    // Assess
    expect(inputs).toContain('console/src/pages/send.tsx');
    expect(inputs.filter((input) => input.startsWith('lib/') || input.includes('node_modules/valibot'))).toEqual([]);
  });
});
