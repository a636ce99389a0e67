import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cyclesOf, folderGraph, importGraph, ROOT } from './imports.ts';

/**
 * The layers (docs/architecture.md): the domain depends on nothing outside itself; adapters implement its
 * ports and know nothing of HTTP; nothing imports in a circle.
 */
const graph = importGraph(['lib', 'functions', 'infra', 'local', 'rehearsal', 'scripts']);
const filesUnder = (folder: string) => [...graph.entries()].filter(([file]) => file.startsWith(folder));

/** Pure libraries the domain may use: they do no I/O and carry no wire format. */
const DOMAIN_PACKAGES = new Set(['ipaddr.js', 'libphonenumber-js']);
/** The package an import names (`libphonenumber-js/max` is libphonenumber-js's). */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
/** Files of lib/ that are data, not code, and may be long (a rate card, say): none is yet. */
const DATA_TABLES = new Set<string>();

describe('the dependency rule', () => {
  it('reads a graph of the whole project (so the rules below cannot pass vacuously)', () => {
    expect(filesUnder('lib/domain/').length).toBeGreaterThan(20);
    expect(filesUnder('lib/adapters/').length).toBeGreaterThan(10);
  });

  it('keeps the domain free of adapters, HTTP, the AWS SDK, valibot and every other package', () => {
    const outgoing = filesUnder('lib/domain/').flatMap(([file, edges]) =>
      edges
        .filter((edge) => (edge.file ? !edge.file.startsWith('lib/domain/') : !DOMAIN_PACKAGES.has(packageOf(edge.specifier))))
        .map((edge) => `${file} → ${edge.specifier}`),
    );
    expect(outgoing).toEqual([]);
  });

  it('keeps the settings on the ground floor: lib/config.ts imports nothing of the project', () => {
    const edges = graph.get('lib/config.ts') ?? [];
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.filter((edge) => edge.file).map((edge) => edge.specifier)).toEqual([]);
  });

  it('keeps every file of lib/ within 450 lines, and every port within 10 methods (issue 36)', () => {
    const long = filesUnder('lib/')
      .map(([file]) => [file, readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length] as const)
      .filter(([file, lines]) => lines > 450 && !DATA_TABLES.has(file));
    const ports = filesUnder('lib/domain/ports/').flatMap(([file]) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^export interface (\w+)[^{]*\{\n([\s\S]*?)^\}/gm)].map(
        ([, name, body]) => [`${file} ${name}`, body.match(/^ {2}\w+\??(<[^>]*>)?\(/gm)?.length ?? 0] as const,
      ),
    );
    expect(long).toEqual([]);
    expect(ports.length).toBeGreaterThan(20);
    expect(ports.filter(([, methods]) => methods > 10)).toEqual([]);
  });

  it('keeps adapters and the wiring away from HTTP and from the functions', () => {
    const outgoing = [...filesUnder('lib/adapters/'), ...filesUnder('lib/wiring/')].flatMap(([file, edges]) =>
      edges
        .filter((edge) => edge.file?.startsWith('lib/http/') || edge.file?.startsWith('functions/'))
        .map((edge) => `${file} → ${edge.specifier}`),
    );
    expect(outgoing).toEqual([]);
  });

  it('keeps the AWS SDK inside adapters, the local stack, the rehearsal and the infrastructure', () => {
    const outside = [...graph.entries()]
      .filter(([file]) => !/^(lib\/adapters\/|local\/|rehearsal\/|infra\/|scripts\/)/.test(file))
      .flatMap(([file, edges]) => edges.filter((e) => e.specifier.startsWith('@aws-sdk/')).map((e) => `${file} → ${e.specifier}`));
    expect(outside).toEqual([]);
  });

  it('keeps the unit tests off the local stack: no unit test file reaches DynamoDB Local, the SQS server or the stack', () => {
    // Prepare: the unit tests and everything they import, transitively
    const withTests = importGraph(['lib', 'functions', 'infra', 'local', 'rehearsal', 'scripts', 'test']);
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const edge of withTests.get(file) ?? []) if (edge.file) visit(edge.file);
    };
    const unitFiles = [...withTests.keys()].filter((file) => file.startsWith('test/unit/'));
    for (const file of unitFiles) visit(file);
    // Assess: `npm run test:unit` needs no Java and starts nothing
    expect(unitFiles.length).toBeGreaterThan(20);
    expect([...reached].filter((file) => /^local\/(stack|parts\/)|^test\/support\/global-setup/.test(file))).toEqual([]);
  });

  it('reads settings in one module: process.env only in lib/config.ts and the logger’s own lib/log/', () => {
    const readers = filesUnder('lib/').filter(([file]) => readFileSync(join(ROOT, file), 'utf8').includes('process.env'));
    expect(readers.map(([file]) => file).filter((file) => file !== 'lib/config.ts' && !file.startsWith('lib/log/'))).toEqual([]);
    expect(readers.map(([file]) => file)).toContain('lib/config.ts');
  });

  it('has no import cycles', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('has no import cycles between folders (a folder of lib never needs one that needs it)', () => {
    const folders = folderGraph(graph);
    const cycles = cyclesOf(folders).map((cycle) =>
      cycle.slice(1).map((folder, i) => folders.get(cycle[i])?.find((edge) => edge.file === folder)?.specifier),
    );
    expect(cycles).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const looped = new Map([
      ['a.ts', [{ specifier: './b.ts', file: 'b.ts' }]],
      ['b.ts', [{ specifier: './a.ts', file: 'a.ts' }]],
    ]);
    expect(cyclesOf(looped)).toEqual([['a.ts', 'b.ts', 'a.ts']]);
    const between = new Map([
      ['lib/x/a.ts', [{ specifier: '../y/b.ts', file: 'lib/y/b.ts' }]],
      ['lib/y/b.ts', [{ specifier: '../x/deep/c.ts', file: 'lib/x/deep/c.ts' }]],
      ['lib/x/deep/c.ts', []],
    ]);
    expect(cyclesOf(folderGraph(between))).toEqual([['lib/x', 'lib/y', 'lib/x']]);
  });
});
