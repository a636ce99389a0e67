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

/**
 * The floors inside lib/domain (docs/architecture.md §1), lowest first, each file or folder (ending in `/`)
 * named under lib/domain/: a file imports from its own floor and those below, never from one above. A file
 * named on no floor is a use case or a part of sending, the top floor, which may import any of them.
 */
const DOMAIN_FLOORS: { floor: string; holds: string[] }[] = [
  {
    floor: 'values',
    holds: [
      'caller.ts',
      'delivery.ts',
      'directory.ts',
      'dispatch-job.ts',
      'errors.ts',
      'events.ts',
      'log.ts',
      'paging.ts',
      'parallel.ts',
      'person.ts',
      'template-listing.ts',
      'template-record.ts',
      'webhook.ts',
      'pricing/cards/',
      'pricing/price-list.ts',
      'pricing/rate-card.ts',
      'pricing/region.ts',
      'pricing/reservation.ts',
    ],
  },
  { floor: 'ports', holds: ['ports/'] },
  {
    floor: 'rules',
    holds: [
      'cloud-message.ts',
      'meta-costs.ts',
      'send-rules.ts',
      'tenancy.ts',
      'url-guard.ts',
      'usage-groups.ts',
      'template-rules/',
      'pricing/charge.ts',
      'pricing/charging.ts',
      'pricing/estimate.ts',
      'pricing/tiers.ts',
      'pricing/visibility.ts',
      'statements/lines.ts',
      'statements/months.ts',
      'statements/view.ts',
    ],
  },
];
const TOP_FLOOR = 'use cases and sending';
const FLOORS = [...DOMAIN_FLOORS.map((f) => f.floor), TOP_FLOOR];

/** The floor of a file of lib/domain: the first that names it or its folder; the top floor otherwise. */
function floorOf(file: string): string {
  const inDomain = file.slice('lib/domain/'.length);
  const named = DOMAIN_FLOORS.find(({ holds }) => holds.some((h) => (h.endsWith('/') ? inDomain.startsWith(h) : inDomain === h)));
  return named?.floor ?? TOP_FLOOR;
}

/** Every import inside lib/domain from a lower floor to a higher one, named with both floors. */
function arrowsUp(graph: Map<string, { specifier: string; file?: string }[]>): string[] {
  return [...graph.entries()]
    .filter(([file]) => file.startsWith('lib/domain/'))
    .flatMap(([file, edges]) =>
      edges
        .filter((edge) => edge.file?.startsWith('lib/domain/'))
        .filter((edge) => FLOORS.indexOf(floorOf(edge.file!)) > FLOORS.indexOf(floorOf(file)))
        .map((edge) => `${file} (${floorOf(file)}) → ${edge.specifier} (${floorOf(edge.file!)})`),
    );
}

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

  it('keeps every arrow inside lib/domain pointing down its floors: values, ports, rules, then use cases and sending', () => {
    // Prepare: every file or folder a floor names is there (a floor's list cannot go stale)
    const domainFiles = filesUnder('lib/domain/').map(([file]) => file.slice('lib/domain/'.length));
    const stale = DOMAIN_FLOORS.flatMap(({ holds }) =>
      holds.filter((h) => !domainFiles.some((file) => (h.endsWith('/') ? file.startsWith(h) : file === h))),
    );
    // Assess
    expect(stale).toEqual([]);
    expect(FLOORS.map((floor) => filesUnder('lib/domain/').filter(([file]) => floorOf(file) === floor).length > 0)).toEqual(
      FLOORS.map(() => true),
    );
    expect(arrowsUp(graph)).toEqual([]);
  });

  it('finds an arrow up inside lib/domain and names it (the check itself works)', () => {
    const upward = new Map([
      ['lib/domain/ports/sending.ts', [{ specifier: '../sending/job.ts', file: 'lib/domain/sending/job.ts' }]],
      ['lib/domain/cloud-message.ts', [{ specifier: './errors.ts', file: 'lib/domain/errors.ts' }]],
      ['lib/domain/events.ts', [{ specifier: './ports/delivery.ts', file: 'lib/domain/ports/delivery.ts' }]],
      ['lib/domain/send.ts', [{ specifier: './ports/sending.ts', file: 'lib/domain/ports/sending.ts' }]],
    ]);
    expect(arrowsUp(upward)).toEqual([
      'lib/domain/ports/sending.ts (ports) → ../sending/job.ts (use cases and sending)',
      'lib/domain/events.ts (values) → ./ports/delivery.ts (ports)',
    ]);
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
