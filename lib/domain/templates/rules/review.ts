import { type ErrorDetail, InvalidRequest } from '../../shared/errors.ts';
import type { Component } from './components.ts';
import { upper } from '../../shared/text.ts';
import { placeholders } from './placeholders.ts';

/**
 * Review warnings (decisions §18): the common reasons Meta rejects a template at review
 * (upstream-facts §3.3), predicted before it is submitted. They never refuse a request; the rules Meta
 * enforces synchronously (mismatched braces, non-sequential or named variables) stay 400s in draft.ts.
 */
export interface ReviewWarning {
  /** Stable name of the rule, for clients to act on. */
  rule: string;
  path: string;
  message: string;
}

/**
 * "Too many variables for the text length": the words outside the variables must be at least this many per
 * variable. Meta gives no number; two words per variable flags the texts its reviewers call "mostly
 * parameters" (ten variables in a twelve-word body) and passes ordinary ones ("Hi {{1}}, your order {{2}}
 * is ready").
 */
export const MIN_WORDS_PER_VARIABLE = 2;

/** A template of the same WABA, to compare wordings with. */
export interface WordedTemplate {
  name: string;
  language: string;
  components: Component[];
}

const VARIABLE = /\{\{\s*[^{}]*?\s*\}\}/g;

/** Words of a text outside its variables. */
export const wordsOutsideVariables = (text: string) =>
  text
    .replace(VARIABLE, ' ')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

interface TextRule {
  rule: string;
  applies(text: string, variables: number): boolean;
  message: string;
}

/** One entry per rejection reason that can be read off one text. */
export const TEXT_RULES: TextRule[] = [
  {
    rule: 'leading_variable',
    applies: (text) => /^\s*\{\{[^{}]*\}\}/.test(text),
    message: 'starts with a variable; Meta rejects texts that begin with a parameter',
  },
  {
    rule: 'trailing_variable',
    applies: (text) => /\{\{[^{}]*\}\}[\s.!?]*$/.test(text),
    message: 'ends with a variable; Meta rejects texts that end with a parameter',
  },
  {
    rule: 'adjacent_variables',
    applies: (text) => /\}\}\s*\{\{/.test(text),
    message: 'has two variables side by side; put words between them',
  },
  {
    rule: 'too_many_variables',
    applies: (text, variables) => variables > 0 && wordsOutsideVariables(text) < variables * MIN_WORDS_PER_VARIABLE,
    message: `has too many variables for its length (fewer than ${MIN_WORDS_PER_VARIABLE} words per variable)`,
  },
];

function textWarnings(text: unknown, path: string): ReviewWarning[] {
  if (typeof text !== 'string') return [];
  const variables = new Set(placeholders(text).positions).size + placeholders(text).named.length;
  return TEXT_RULES.filter((r) => r.applies(text, variables)).map((r) => ({ rule: r.rule, path, message: r.message }));
}

const textOf = (components: Component[], type: string) => {
  const text = components.find((c) => upper(c?.type) === type)?.text;
  return typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().toLowerCase() : '';
};

/** `?dry_run=true` (decisions §18): every check and the review warnings, without the upstream or a write. */
export interface DryRunResult {
  valid: boolean;
  errors: ErrorDetail[];
  review_warnings: ReviewWarning[];
}

/**
 * Runs a request's checks as a dry run: what the real request would refuse with a 400 becomes `errors`;
 * anything else (403, 404, 502) is thrown as for the real request.
 */
export async function dryRun(check: () => unknown, warnings: ReviewWarning[]): Promise<DryRunResult> {
  try {
    await check();
    return { valid: true, errors: [], review_warnings: warnings };
  } catch (error) {
    if (!(error instanceof InvalidRequest)) throw error;
    return {
      valid: false,
      errors: error.details?.length ? error.details : [{ path: '', message: error.message }],
      review_warnings: warnings,
    };
  }
}

/** Every rule name a warning can carry. */
export const REVIEW_RULES = [...TEXT_RULES.map((r) => r.rule), 'duplicate_wording'];

/** Every warning for a draft: its body texts (carousel card bodies too), and its wording against the WABA's templates. */
export function reviewWarnings(components: Component[], others: WordedTemplate[] = []): ReviewWarning[] {
  const warnings: ReviewWarning[] = [];
  components.forEach((component, i) => {
    const type = upper(component?.type);
    if (type === 'BODY') warnings.push(...textWarnings(component.text, `components[${i}].text`));
    if (type === 'CAROUSEL' && Array.isArray(component.cards)) {
      component.cards.forEach((card: Component, j) => {
        const parts = Array.isArray(card?.components) ? (card.components as Component[]) : [];
        parts.forEach((part, k) => {
          if (upper(part?.type) === 'BODY') warnings.push(...textWarnings(part.text, `components[${i}].cards[${j}].components[${k}].text`));
        });
      });
    }
  });
  const body = textOf(components, 'BODY');
  const footer = textOf(components, 'FOOTER');
  const same = body ? others.find((t) => textOf(t.components, 'BODY') === body && textOf(t.components, 'FOOTER') === footer) : undefined;
  if (same) {
    const at = components.findIndex((c) => upper(c?.type) === 'BODY');
    warnings.push({
      rule: 'duplicate_wording',
      path: `components[${at}].text`,
      message: `has the same body and footer as the WABA's template ${same.name} (${same.language}); Meta rejects duplicates`,
    });
  }
  return warnings;
}
