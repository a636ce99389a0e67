import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces in terms of the source files, computed only when an error is logged. Deployed bundles are
 * minified with an external source map beside them; reading it here, on the error path, costs nothing at
 * import (unlike `--enable-source-maps`, which parses every map on every cold start).
 */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
    } catch {
      maps.set(file, null);
    }
  }
  return maps.get(file)!;
}

const FRAME = /(\(|at )((?:file:\/\/)?\/[^():]+\.m?js):(\d+):(\d+)/;

/** The stack with every frame of a bundled file replaced by its source position; unmapped frames stay. */
export function sourceMappedStack(stack: string): string {
  return stack
    .split('\n')
    .map((line) => {
      const match = FRAME.exec(line);
      if (!match) return line;
      const file = match[2].startsWith('file://') ? fileURLToPath(match[2]) : match[2];
      const entry = mapOf(file)?.findEntry(Number(match[3]) - 1, Number(match[4]) - 1);
      if (!entry || !('originalSource' in entry) || !entry.originalSource) return line;
      const at = `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
      return line.replace(`${match[2]}:${match[3]}:${match[4]}`, at);
    })
    .join('\n');
}

/** The error as a log field: name, message and the source-mapped stack. */
export function errorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  return { name: error.name, message: error.message, stack: error.stack ? sourceMappedStack(error.stack) : undefined };
}
