import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The project's own import graph, read from the sources: file → the project files and packages it imports. */
export const ROOT = join(import.meta.dirname, '../..');

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(path) ? [path] : [];
  });
}

export interface ImportEdge {
  specifier: string;
  /** The project file imported (repo-relative), or undefined for a package or node builtin. */
  file?: string;
}

export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier.startsWith('#lib/')) edges.push({ specifier, file: `lib/${specifier.slice(5)}` });
    else if (specifier.startsWith('#functions/')) edges.push({ specifier, file: `functions/${specifier.slice(11)}` });
    else if (specifier.startsWith('.')) edges.push({ specifier, file: relative(ROOT, join(ROOT, dirname(file), specifier)) });
    else edges.push({ specifier });
  }
  return edges;
}

/** Every TypeScript file of the given top-level folders, with its imports. */
export function importGraph(folders: string[]): Map<string, ImportEdge[]> {
  return new Map(folders.flatMap(sourceFiles).map((file) => [file, importsOf(file)]));
}

/** Cycles in the graph, each as the list of files around it. */
export function cyclesOf(graph: Map<string, ImportEdge[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const edge of graph.get(file) ?? []) {
      if (!edge.file || !graph.has(edge.file)) continue;
      if (state.get(edge.file) === 'open') cycles.push([...stack.slice(stack.indexOf(edge.file)), edge.file]);
      else if (!state.has(edge.file)) visit(edge.file);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * The layer a file belongs to: lib's folders (lib/domain, lib/http, lib/adapters… with their subfolders), lib's
 * own files (lib), or a top-level folder (functions, local, infra, scripts).
 */
export function layerOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'lib' && parts.length > 2 ? `lib/${parts[1]}` : parts.length > 1 ? parts[0] : '.';
}

/** The same graph between layers: a layer imports another when one of its files imports one of the other's. */
export function folderGraph(graph: Map<string, ImportEdge[]>): Map<string, ImportEdge[]> {
  const folders = new Map<string, Map<string, ImportEdge>>();
  for (const [file, edges] of graph) {
    const from = layerOf(file);
    const targets = folders.get(from) ?? new Map<string, ImportEdge>();
    folders.set(from, targets);
    for (const edge of edges) {
      if (!edge.file || !graph.has(edge.file) || layerOf(edge.file) === from) continue;
      targets.set(layerOf(edge.file), { specifier: `${file} → ${edge.specifier}`, file: layerOf(edge.file) });
    }
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets.values()]]));
}
