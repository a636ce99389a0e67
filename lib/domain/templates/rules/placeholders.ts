/** Placeholders (`{{1}}`) in template texts: what a text holds, and the rules for them (upstream-facts §3). */
import type { ErrorDetail } from '../../shared/errors.ts';

/** Placeholders of a text: positional numbers, or names (refused), and whether the braces are balanced. */
export function placeholders(text: string): { positions: number[]; named: string[]; malformed: boolean } {
  const positions: number[] = [];
  const named: string[] = [];
  for (const match of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    if (/^[0-9]+$/.test(match[1])) positions.push(Number(match[1]));
    else named.push(match[1]);
  }
  const stripped = text.replace(/\{\{\s*[^{}]*?\s*\}\}/g, '');
  return { positions, named, malformed: stripped.includes('{{') || stripped.includes('}}') };
}

/** A required text of at most `max` characters; true when it is one. */
export function checkText(value: unknown, path: string, max: number, problems: ErrorDetail[], required = true): value is string {
  if (value === undefined && !required) return false;
  if (!isString(value) || value.trim() === '') {
    problems.push({ path, message: 'is required' });
    return false;
  }
  if (value.length > max) problems.push({ path, message: `must be at most ${max} characters` });
  return true;
}

/** Checks a text's variables: positional, sequential from 1, at most `max`, with one example each. */
export function checkVariables(
  text: string,
  path: string,
  problems: ErrorDetail[],
  options: { max?: number; examples?: unknown; examplesPath: string },
): number {
  const { positions, named, malformed } = placeholders(text);
  if (malformed) problems.push({ path, message: 'has mismatched braces' });
  if (named.length > 0)
    problems.push({ path, message: `uses named placeholders (${named.join(', ')}); only positional {{1}}, {{2}}… are supported` });
  const distinct = [...new Set(positions)];
  const expected = distinct.map((_, i) => i + 1);
  if (positions.length !== distinct.length || JSON.stringify([...positions]) !== JSON.stringify(expected)) {
    if (distinct.length > 0) problems.push({ path, message: 'placeholders must be {{1}}, {{2}}… in order, each once' });
  }
  if (options.max !== undefined && distinct.length > options.max) {
    problems.push({ path, message: `has ${distinct.length} placeholders; at most ${options.max} allowed` });
  }
  if (distinct.length > 0) {
    const examples = options.examples;
    if (!Array.isArray(examples) || examples.length !== distinct.length || !examples.every((e) => isString(e) && e.trim() !== '')) {
      problems.push({
        path: options.examplesPath,
        message: `must give one non-empty example for each of the ${distinct.length} placeholders`,
      });
    }
  }
  return distinct.length;
}

export const isString = (value: unknown): value is string => typeof value === 'string';
