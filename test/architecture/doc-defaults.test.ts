import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '#lib/config.ts';
import { ROOT } from './imports.ts';

/**
 * Docs say what the code does (issue 44): every default a doc states for a setting of lib/config.ts equals the
 * setting's fallback there. A doc states one next to the setting's name ("`NAME` (300 s; …)", "`NAME`, default
 * 30", "(10 s, `NAME`", "100 by default") or, where it speaks of the setting without its name, in a phrase of
 * PHRASES ("`DispatchMessages` (10 at once)").
 */
const DOCS = ['README.md', 'BENCHMARKS.md', ...markdownUnder('docs')];

function markdownUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => join(folder, file));
}

/** The settings whose fallback is a value (not those the environment must give). */
const DEFAULTS = Object.entries(SETTINGS).flatMap(([name, row]) =>
  'fallback' in row && row.fallback !== undefined ? [{ name, fallback: row.fallback as unknown }] : [],
);

/** Phrases that state a setting's value without naming it; the group is the value. */
const PHRASES: Record<string, RegExp[]> = {
  DISPATCH_CONCURRENCY: [
    /`DispatchMessages` \(([\d,]+) at once/g,
    /\| dispatch \| `DispatchMessages`[^|]*\|[^|]*\|[^|]*\| ([\d,]+) at once/g,
    /`dispatchConcurrency` \| `([\d,]+)`/g,
    /at most ([\d,]+) dispatchers at once/g,
    /up to ([\d,]+) dispatcher invocations at once/g,
  ],
  GRAPH_API_TIMEOUT_MS: [/other Graph calls wait ([\d,.]+ ?(?:ms|s))\b/g],
};

const VALUE = String.raw`(-?[\d,]+(?:\.\d+)?(?:\s?(?:ms|s|seconds?|min|minutes?|h|hours?)\b)?|true|false|v\d+\.\d+)`;
/** What a doc may write right after a setting's name, or before it, to state its default. */
const AFTER = [
  new RegExp(String.raw`^\`?\s*\(\s*${VALUE}\s*[;,)]`),
  new RegExp(String.raw`\bdefaults?(?: is| to)?:?\s+\`?${VALUE}`),
  new RegExp(String.raw`${VALUE}\`?\s+(?:by default|when unset|when not set)`),
];
const BEFORE = new RegExp(String.raw`\(\s*${VALUE},\s*\`?$`);

interface Statement {
  doc: string;
  setting: string;
  stated: string;
  text: string;
}

/** A doc's passages: each table row, and each paragraph's lines joined (a statement may wrap). */
const passagesOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => (paragraph.trimStart().startsWith('|') ? paragraph.split('\n') : [paragraph.replace(/\s*\n\s*/g, ' ')]));

/** Every default the text states for a setting of `names`. */
function statedDefaults(doc: string, text: string, names: string[]): Statement[] {
  const found: Statement[] = [];
  const nameAt = new RegExp(`\\b(${names.join('|')})\\b`, 'g');
  for (const passage of passagesOf(text)) {
    for (const match of passage.matchAll(nameAt)) {
      const start = match.index;
      const end = start + match[0].length;
      // The window after the name ends at the sentence's end or at the next setting named.
      const rest = passage.slice(end, end + 200);
      const next = rest.search(new RegExp(`\\. |\\b(${names.join('|')})\\b`));
      const after = next === -1 ? rest : rest.slice(0, next);
      const before = passage.slice(Math.max(0, start - 30), start);
      const stated = [...AFTER.map((pattern) => after.match(pattern)?.[1]), before.match(BEFORE)?.[1]].find(Boolean);
      if (stated) found.push({ doc, setting: match[1], stated, text: passage.slice(Math.max(0, start - 30), end + 80) });
    }
    for (const [setting, phrases] of Object.entries(PHRASES)) {
      if (!names.includes(setting)) continue;
      for (const phrase of phrases)
        for (const match of passage.matchAll(phrase))
          found.push({ doc, setting, stated: match[1], text: passage.slice(Math.max(0, match.index - 30), match.index + 120) });
    }
  }
  return found;
}

/** A stated default in the setting's own unit (`_MS` milliseconds, `_SECONDS` seconds), or as text. */
function statedValue(setting: string, stated: string): unknown {
  if (stated === 'true' || stated === 'false') return stated === 'true';
  const [, number, unit] = stated.match(/^(-?[\d,]+(?:\.\d+)?)\s?([a-z]*)$/) ?? [];
  if (number === undefined) return stated;
  const seconds = { ms: 0.001, s: 1, second: 1, seconds: 1, min: 60, minute: 60, minutes: 60, h: 3600, hour: 3600, hours: 3600 };
  const n = Number(number.replaceAll(',', ''));
  if (!unit) return n;
  const inSeconds = n * seconds[unit as keyof typeof seconds];
  return setting.endsWith('_MS') ? Math.round(inSeconds * 1000) : inSeconds;
}

const fallbackOf = (setting: string) => DEFAULTS.find((d) => d.name === setting)?.fallback;
const names = DEFAULTS.map((d) => d.name);
const statements = DOCS.flatMap((doc) => statedDefaults(doc, readFileSync(join(ROOT, doc), 'utf8'), names));

describe('the defaults the docs state (issue 44)', () => {
  it('finds the statements (so the check below cannot pass vacuously)', () => {
    // Assess: the docs state these today, each at least once
    const stated = new Set(statements.map((s) => `${s.setting} in ${s.doc}`));
    for (const expected of [
      'DISPATCH_CONCURRENCY in README.md',
      'DISPATCH_CONCURRENCY in docs/operations.md',
      'DISPATCH_CONCURRENCY in docs/dispatch-jobs.md',
      'DISPATCH_CONCURRENCY in docs/decisions-made.md',
      'WEBHOOK_RETRY_BASE_SECONDS in README.md',
      'PAUSED_RECHECK_SECONDS in README.md',
      'GRAPH_MESSAGE_TIMEOUT_MS in docs/dispatch-jobs.md',
      'GRAPH_API_VERSION in README.md',
      'GRAPH_API_VERSION in docs/operations.md',
    ])
      expect(stated).toContain(expected);
  });

  it('has every stated default equal to its setting’s fallback in lib/config.ts', () => {
    // Act
    const wrong = statements
      .filter((s) => statedValue(s.setting, s.stated) !== fallbackOf(s.setting))
      .map((s) => `${s.doc}: ${s.setting} stated ${s.stated}, lib/config.ts ${String(fallbackOf(s.setting))} («${s.text}»)`);
    // Assess
    expect(wrong).toEqual([]);
  });

  it('catches the drift issue 44 found: "10 at once" where the default is 100', () => {
    // Prepare: the README's sentence and the operations table's row as they were
    const readme = 'The service dispatches its own jobs: `DispatchMessages` (10 at once) turns each recipient into one Cloud API';
    const operations = '| dispatch | `DispatchMessages` (50 s) | 300 s | 100 | 10 at once |';
    // Act
    const found = [...statedDefaults('README.md', readme, names), ...statedDefaults('docs/operations.md', operations, names)];
    // Assess
    expect(found.map((s) => [s.setting, statedValue(s.setting, s.stated)])).toEqual([
      ['DISPATCH_CONCURRENCY', 10],
      ['DISPATCH_CONCURRENCY', 10],
    ]);
    expect(found.every((s) => statedValue(s.setting, s.stated) !== fallbackOf(s.setting))).toBe(true);
  });

  it.each([
    ['`WEBHOOK_RETRY_BASE_SECONDS` (first retry delay, default 30; decisions §15)', 'WEBHOOK_RETRY_BASE_SECONDS', 30],
    ['every `PAUSED_RECHECK_SECONDS` (300 by default, at most its end)', 'PAUSED_RECHECK_SECONDS', 300],
    ['a setting (`DISPATCH_CONCURRENCY`, `-c dispatchConcurrency`), 100 by default', 'DISPATCH_CONCURRENCY', 100],
    ['request left (10 s, `GRAPH_MESSAGE_TIMEOUT_MS`, where', 'GRAPH_MESSAGE_TIMEOUT_MS', 10_000],
    ['`DISPATCH_LEASE_MARGIN_MS` (45 s) past', 'DISPATCH_LEASE_MARGIN_MS', 45_000],
    ['`ALLOW_LOCAL_WEBHOOKS` (default false)', 'ALLOW_LOCAL_WEBHOOKS', false],
    ['`GRAPH_API_VERSION` (default v24.0; `vNN.N`', 'GRAPH_API_VERSION', 'v24.0'],
  ])('reads «%s» as %s = %s', (text, setting, value) => {
    // Act
    const [statement] = statedDefaults('x.md', text, names);
    // Assess
    expect([statement?.setting, statedValue(statement?.setting ?? '', statement?.stated ?? '')]).toEqual([setting, value]);
  });
});
