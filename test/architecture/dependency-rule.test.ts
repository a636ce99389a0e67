import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cyclesOf, folderGraph, importGraph, ROOT } from './imports.ts';

/**
 * The layers (docs/architecture.md): the domain depends on nothing outside itself; adapters implement its
 * ports and know nothing of HTTP; nothing imports in a circle.
 */
const graph = importGraph(['lib', 'functions', 'infra', 'local', 'rehearsal', 'scripts', 'bench', 'console']);
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
 * The areas of lib/domain (docs/architecture.md §1), lowest first, each a folder under lib/domain/: a file
 * imports from its own place and those below, never from one above or beside it. Inside `sends/`, its root (the
 * send's values and ports) is below `dispatch/`, which is below `operations/` and `accept/`. The deepest place
 * that holds a file is its place.
 */
const DOMAIN_AREAS = [
  'shared/',
  'people/',
  'webhooks/',
  'templates/',
  'money/',
  'sends/',
  'sends/dispatch/',
  'sends/operations/',
  'sends/accept/',
  'inbound/',
];

/** The most levels of imports lib/domain may stand on (issue 50). */
const MAX_LEVELS = 6;

/** The top-level area of a file of lib/domain (`sends` for `lib/domain/sends/dispatch/run.ts`). */
const areaOf = (file: string) => file.slice('lib/domain/'.length).split('/')[0];

/** How many levels a graph of rooms stands on: the most rooms on one chain of arrows (it has no circle). */
function levelsOf(arrows: Map<string, Set<string>>, rooms: string[]): number {
  const level = new Map<string, number>();
  const of = (room: string): number => {
    if (!level.has(room)) level.set(room, 1 + Math.max(0, ...[...(arrows.get(room) ?? [])].map(of)));
    return level.get(room)!;
  };
  return Math.max(...rooms.map(of));
}

/** The place of a file of lib/domain: the deepest area whose folder holds it. */
function placeOf(file: string): string | undefined {
  const inDomain = file.slice('lib/domain/'.length);
  return DOMAIN_AREAS.filter((area) => inDomain.startsWith(area)).sort((a, b) => b.length - a.length)[0];
}

/** Every import inside lib/domain to a place that is not its own or one below, named with both places. */
function arrowsUp(graph: Map<string, { specifier: string; file?: string }[]>): string[] {
  return [...graph.entries()]
    .filter(([file]) => file.startsWith('lib/domain/'))
    .flatMap(([file, edges]) =>
      edges
        .filter((edge) => edge.file?.startsWith('lib/domain/'))
        .filter((edge) => DOMAIN_AREAS.indexOf(placeOf(edge.file!)!) > DOMAIN_AREAS.indexOf(placeOf(file)!))
        .map((edge) => `${file} (${placeOf(file)}) → ${edge.specifier} (${placeOf(edge.file!)})`),
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

  it('keeps lib/domain as its areas alone, each file in one, and every arrow pointing down their order', () => {
    // Prepare
    const root = readdirSync(join(ROOT, 'lib/domain'));
    const placeless = filesUnder('lib/domain/').filter(([file]) => placeOf(file) === undefined);
    // Assess
    expect(root.sort()).toEqual(
      DOMAIN_AREAS.filter((area) => area.split('/').length === 2)
        .map((area) => area.slice(0, -1))
        .sort(),
    );
    expect(placeless).toEqual([]);
    expect(DOMAIN_AREAS.filter((area) => !filesUnder(`lib/domain/${area}`).length)).toEqual([]);
    expect(arrowsUp(graph)).toEqual([]);
  });

  it(`keeps lib/domain on at most ${MAX_LEVELS} levels: the longest chain of areas, each importing the next`, () => {
    // Prepare: the areas as rooms, an arrow where a file of one imports a file of another
    const arrows = new Map<string, Set<string>>();
    for (const [file, edges] of filesUnder('lib/domain/'))
      for (const edge of edges.filter((e) => e.file?.startsWith('lib/domain/'))) {
        const [from, to] = [areaOf(file), areaOf(edge.file!)];
        if (from !== to) arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
      }
    // Act
    const levels = levelsOf(
      arrows,
      DOMAIN_AREAS.filter((area) => area.split('/').length === 2).map((area) => area.slice(0, -1)),
    );
    // Assess: inbound stands on sends, on money and templates, on people and webhooks, on shared
    expect(levels).toBeGreaterThan(3);
    expect(levels).toBeLessThanOrEqual(MAX_LEVELS);
  });

  it('finds an arrow up or across the areas and names it (the check itself works)', () => {
    const upward = new Map([
      ['lib/domain/sends/ports.ts', [{ specifier: './dispatch/job.ts', file: 'lib/domain/sends/dispatch/job.ts' }]],
      ['lib/domain/sends/cloud-message.ts', [{ specifier: '../shared/errors.ts', file: 'lib/domain/shared/errors.ts' }]],
      ['lib/domain/webhooks/events.ts', [{ specifier: '../templates/ports.ts', file: 'lib/domain/templates/ports.ts' }]],
      ['lib/domain/people/person.ts', [{ specifier: '../webhooks/ports.ts', file: 'lib/domain/webhooks/ports.ts' }]],
      ['lib/domain/sends/accept/send.ts', [{ specifier: '../ports.ts', file: 'lib/domain/sends/ports.ts' }]],
    ]);
    const chain = new Map([
      ['inbound', new Set(['sends', 'shared'])],
      ['sends', new Set(['shared'])],
    ]);
    expect(levelsOf(chain, ['inbound', 'sends', 'shared'])).toBe(3);
    expect(arrowsUp(upward)).toEqual([
      'lib/domain/sends/ports.ts (sends/) → ./dispatch/job.ts (sends/dispatch/)',
      'lib/domain/webhooks/events.ts (webhooks/) → ../templates/ports.ts (templates/)',
      'lib/domain/people/person.ts (people/) → ../webhooks/ports.ts (webhooks/)',
    ]);
  });

  it('keeps the settings on the ground floor: lib/config.ts imports nothing of the project', () => {
    const edges = graph.get('lib/config.ts') ?? [];
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.filter((edge) => edge.file).map((edge) => edge.specifier)).toEqual([]);
  });

  it('keeps every file of lib/ within 350 lines (issue 50), and every port within 10 methods (issue 36)', () => {
    const long = filesUnder('lib/')
      .map(([file]) => [file, readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length] as const)
      .filter(([file, lines]) => lines > 350 && !DATA_TABLES.has(file));
    const ports = filesUnder('lib/domain/')
      .filter(([file]) => file.endsWith('/ports.ts'))
      .flatMap(([file]) =>
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

  it('keeps the AWS SDK inside adapters, the local stack, the rehearsal, the infrastructure and the bench’s baselines', () => {
    const outside = [...graph.entries()]
      .filter(([file]) => !/^(lib\/adapters\/|local\/|rehearsal\/|infra\/|scripts\/|bench\/)/.test(file))
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
