import { GraphError } from './graph-error.ts';

/** Graph's cursor paging, as the emulator pages its lists (templates, products, a WABA's numbers): cursors are positions. */

const encodeCursor = (index: number) => Buffer.from(`cursor:${index}`).toString('base64url');

function decodeCursor(cursor: string, code: number): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^cursor:(\d+)$/.exec(text);
  if (!match) throw new GraphError(400, code, 'Invalid pagination cursor');
  return Number(match[1]);
}

/** Graph cursor paging over a list: `after`/`before` point at the last/first item of a page. */
export function pageOf<T>(items: T[], query: Record<string, string>, baseUrl: string, cursorError: number, defaultLimit = 25) {
  const limit = Math.max(1, Math.min(Number(query.limit) || defaultLimit, 1000));
  let start = 0;
  if (query.after) start = decodeCursor(query.after, cursorError) + 1;
  else if (query.before) start = Math.max(0, decodeCursor(query.before, cursorError) - limit);
  if (start > items.length) throw new GraphError(400, cursorError, 'Invalid pagination cursor');
  const data = items.slice(start, start + limit);
  const paging: Record<string, unknown> = {};
  if (data.length > 0) {
    paging.cursors = { before: encodeCursor(start), after: encodeCursor(start + data.length - 1) };
    const next = new URL(baseUrl);
    if (start + data.length < items.length) {
      next.searchParams.set('limit', String(limit));
      next.searchParams.delete('before');
      next.searchParams.set('after', encodeCursor(start + data.length - 1));
      paging.next = next.href;
    }
    if (start > 0) {
      const previous = new URL(baseUrl);
      previous.searchParams.set('limit', String(limit));
      previous.searchParams.delete('after');
      previous.searchParams.set('before', encodeCursor(start));
      paging.previous = previous.href;
    }
  }
  return { data, paging };
}
