import * as v from 'valibot';
import type { ErrorDetail } from '#lib/domain/errors.ts';
import { badRequest } from '#lib/http/api-error.ts';

/** `recipients[3].params.body` style path of a valibot issue. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const key = item.key as string | number;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function issueMessage(issue: v.BaseIssue<unknown>): string {
  // strictObject reports an unknown key as "expected never"; say what it means for a client.
  if (issue.kind === 'schema' && issue.expected === 'never') return 'Unknown field';
  return issue.message;
}

export function issuesToDetails(issues: readonly v.BaseIssue<unknown>[], prefix = ''): ErrorDetail[] {
  return issues.map((issue) => {
    const path = issuePath(issue);
    return { path: prefix && path ? `${prefix}.${path}` : prefix || path, message: issueMessage(issue) };
  });
}

/** Parses with a schema; a failure is a 400 whose details name every failing field. */
export function parseOrThrow<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  message: string,
  prefix = '',
): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (!result.success) throw badRequest(message, issuesToDetails(result.issues, prefix));
  return result.output;
}
