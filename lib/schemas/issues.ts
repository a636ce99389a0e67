import type * as v from 'valibot';
import type { ErrorDetail } from '#lib/domain/shared/errors.ts';

/** Valibot issues as the contract's error details. */

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
  // An object reports a missing key as `expected "<key>"`: the field is required.
  if (issue.kind === 'schema' && issue.received === 'undefined' && issue.expected?.startsWith('"')) return 'is required';
  return issue.message;
}

export function issuesToDetails(issues: readonly v.BaseIssue<unknown>[], prefix = ''): ErrorDetail[] {
  return issues.map((issue) => {
    const path = issuePath(issue);
    return { path: prefix && path ? `${prefix}.${path}` : prefix || path, message: issueMessage(issue) };
  });
}
