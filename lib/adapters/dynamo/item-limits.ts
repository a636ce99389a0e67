import type { ErrorDetail } from '#lib/domain/shared/errors.ts';
import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { recordItem } from './templates/record-items.ts';

/**
 * What DynamoDB refuses to store, checked before a use case calls the upstream: an item over 400 KB, or
 * attributes nested deeper than 32 levels. Sizes are counted as UTF-8 JSON of the stored item, which is at
 * least what DynamoDB counts; a margin leaves room for the keys and the index copies.
 */
export const MAX_ITEM_BYTES = 400 * 1024;
const MARGIN_BYTES = 8 * 1024;
export const MAX_DEPTH = 32;

const utf8 = new TextEncoder();
const bytesOf = (value: unknown) => utf8.encode(JSON.stringify(value) ?? '').length;

/** Levels of maps and lists inside a value: a scalar is 0, `{a: 1}` is 1, `{a: [1]}` is 2. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, depthOf(inner));
  return deepest + 1;
}

/** Why the record cannot be stored, naming the request field that makes it so; undefined when it can. */
export function recordStorageProblem(record: TemplateRecord): ErrorDetail | undefined {
  const item = recordItem(record);
  const field =
    record.optimization_spec && bytesOf(record.optimization_spec) > bytesOf(record.meta_template.components)
      ? 'optimization_spec'
      : 'components';
  const bytes = bytesOf(item);
  if (bytes > MAX_ITEM_BYTES - MARGIN_BYTES) {
    return {
      path: field,
      message: `is too large to store: the template record would be ${bytes} bytes, at most ${MAX_ITEM_BYTES - MARGIN_BYTES}`,
    };
  }
  // The item itself is the first level: its attributes may nest 31 more.
  const deepest = Object.entries(item).reduce(
    (found, [name, value]) => (depthOf(value) > found.depth ? { name, depth: depthOf(value) } : found),
    { name: '', depth: 0 },
  );
  if (deepest.depth + 1 > MAX_DEPTH) {
    const path = deepest.name === 'optimization_spec' ? 'optimization_spec' : 'components';
    return { path, message: `nests ${deepest.depth + 1} levels deep; at most ${MAX_DEPTH} can be stored` };
  }
  return undefined;
}
