import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HIGH_TIER_RATE, hotItemRows, hotItemsTable, type KindTally, PARTITION_WRITE_UNITS } from './hot-items.ts';
import { GLOBAL_CATEGORIES } from './global-sender.ts';
import { CAP_RUNS, measureSendPath, type SendPathRun } from './send-path.ts';

/**
 * What BENCHMARKS.md says of the global sender (issue 54 item 2) and the hot items (item 4), from the send-path
 * bench's runs: the STANDARD run first, the global senders after it (bench/send-path.ts).
 */

/** Issue 54's target for a global sender: write units a message, transactional writes counted. */
export const GLOBAL_SENDER_TARGET = 5;

const perMessage = (units: number, run: SendPathRun) => (units / run.messages).toFixed(2);
/** A kind's units a message on a run and its largest item, or a dash where the run wrote none of it. */
const kindCell = (run: SendPathRun, kind: string) => {
  const tally = run.kinds.find((k: KindTally) => k.kind === kind);
  return tally ? `${perMessage(tally.units, run)} (${(tally.largestBytes / 1024).toFixed(1)} KB)` : '—';
};

/**
 * The global senders beside the STANDARD run of the same bench, by item kind: units a message and each kind's
 * largest item (the first `count` kinds of the first global sender, the rest together), the total against the target.
 */
export function globalSenderLines(runs: SendPathRun[], count = 10): string[] {
  const compared = [runs[0], ...runs.filter((run) => run.label.startsWith('global sender'))];
  const shown = compared[1].kinds.slice(0, count).map((k) => k.kind);
  const rest = (run: SendPathRun) => run.kinds.filter((k) => !shown.includes(k.kind)).reduce((sum, k) => sum + k.units, 0);
  const lines = [
    `| item kind | ${compared.map((run) => `${run.label.split(':')[0]}: units / message (largest item)`).join(' | ')} |`,
    `|---|${compared.map(() => '---|').join('')}`,
    ...shown.map((kind) => `| \`${kind}\` | ${compared.map((run) => kindCell(run, kind)).join(' | ')} |`),
    `| every other kind | ${compared.map((run) => perMessage(rest(run), run)).join(' | ')} |`,
    `| **all** (messages) | ${compared.map((run) => `**${perMessage(run.writes.units, run)}** (${run.messages})`).join(' | ')} |`,
    '',
  ];
  for (const run of compared.slice(1)) {
    const over = run.writes.units / run.messages - GLOBAL_SENDER_TARGET;
    lines.push(
      `- ${run.label}: ${perMessage(run.writes.units, run)} write units a message, ${(run.writes.units / compared[0].writes.units / (run.messages / compared[0].messages)).toFixed(2)}× the STANDARD run's; issue 54's target is at most ${GLOBAL_SENDER_TARGET} write units a message: ${over <= 0 ? 'met' : `NOT met, ${over.toFixed(2)} over`}.`,
    );
  }
  return lines;
}

const kindUnits = (run: SendPathRun, prefix: string) =>
  run.kinds.filter((k) => k.kind.startsWith(prefix)).reduce((sum, k) => sum + k.units, 0) / run.messages;
const LEDGER_DAY = 'LEDGER#w…#C…#… / DAY#';
const NUMBER_IDENTITY = 'IDENTITY#b#p:';
const BSUID_IDENTITY = 'IDENTITY#b#u:';

/** Issue 54's global-sender rows before its cuts (707831b, the same bench): priced, without a list, and the STANDARD run. */
const BEFORE_CUTS = { priced: 8.9, unpriced: 8.08, standard: 6.28 } as const;

/** Where a global sender's units go beyond the STANDARD run's, and what carries the rest. */
function carriedBy(run: SendPathRun, standard: SendPathRun): string {
  const more = run.kinds
    .map((k) => ({
      kind: k.kind,
      more: k.units / run.messages - (standard.kinds.find((s) => s.kind === k.kind)?.units ?? 0) / standard.messages,
    }))
    .filter((k) => Math.abs(k.more) >= 0.05)
    .map((k) => `\`${k.kind}\` ${k.more > 0 ? '+' : ''}${k.more.toFixed(2)}`);
  const ledger = run.kinds.filter((k) => k.kind.startsWith(LEDGER_DAY));
  const largestLedger = Math.max(0, ...ledger.map((k) => k.largestBytes)) / 1024;
  return [
    `Against the STANDARD run: ${more.join(', ')}.`,
    `Before issue 54's cuts the same bench read ${BEFORE_CUTS.priced} (priced), ${BEFORE_CUTS.unpriced} (no price list) and ${BEFORE_CUTS.standard} (STANDARD) units a message: each message's state was an item of its own, written in each status transaction at 2 units (2.96 a message), and the ledger's day item held every category, 23 KB late in the day (2.48).`,
    `A message's state is now an attribute of its block's latest item (${kindUnits(run, 'SEND#…#P… / LATEST#').toFixed(2)} a message), and a ledger item is a number's day in one category (${kindUnits(run, LEDGER_DAY).toFixed(2)} a message together, the largest ${largestLedger.toFixed(1)} KB), bounded by the card's markets whatever the day holds.`,
    `The rest: the blocks (${kindUnits(run, 'SEND#…#P… / BLOCK#').toFixed(2)}) and each new person's two identity halves (${(kindUnits(run, NUMBER_IDENTITY) + kindUnits(run, BSUID_IDENTITY)).toFixed(2)}), one for each key a later lookup comes by (docs/data-model.md, the people map: one item cannot answer both, and an index's write is billed as one more).`,
  ].join(' ');
}

/** The global sender's part of the send-path section: how it was run, the kinds beside the STANDARD run's, and the target. */
export function globalSenderSection(runs: SendPathRun[]): string[] {
  const globals = runs.filter((run) => run.label.startsWith('global sender'));
  if (globals.length === 0) return [];
  const perSend = globals[0].messages / GLOBAL_CATEGORIES.length;
  return [
    '### A global sender late in its day (issue 54 item 2)',
    '',
    `After the STANDARD run, in the same process (bench/global-sender.ts): a client whose recipients are new people in each of the ${globals[0].label.match(/(\d+) markets/)?.[1]} markets of the card in force and its templates' three categories (${GLOBAL_CATEGORIES.join(', ')}: a send of ${perSend} each, at once, on one STANDARD number reporting sent, delivered and read), once with a price list (Meta's cost + 37.5 %, \`PUT /v1/clients/{id}/price-list\`) and once without. Late in a busy day: before the meters start, a first batch of one message a market and category is sent and settled, and each of the day's 8 ledger shard items of the number is then given every entry any of them holds (\`fillBusyDay\`, entries added at 0 so the day's totals stay), as a day of such sends leaves them. Units as DynamoDB bills them: an item's size in whole KB, twice in a transaction, an update at the item's size after the run (the largest it reached).`,
    '',
    ...globalSenderLines(runs),
    '',
    carriedBy(globals[0], runs[0]),
  ];
}

/** The hot-item table of a run at 1,000 messages a second, with what is above DynamoDB's partition limit said plainly. */
export function hotItemsLines(run: SendPathRun): string[] {
  const rows = hotItemRows(run.kinds, run.messages);
  const over = rows.filter((row) => row.overPartitionLimit);
  const hottest = [...rows].sort((a, b) => b.keyUnitsPerSecond - a.keyUnitsPerSecond)[0];
  return [
    ...hotItemsTable(run.kinds, run.messages),
    '',
    over.length === 0
      ? `No partition key is above ${PARTITION_WRITE_UNITS.toLocaleString('en-US')} write units a second at ${HIGH_TIER_RATE.toLocaleString('en-US')} messages a second; the hottest is \`${hottest.kind}\`'s, ${Math.round(hottest.keyUnitsPerSecond)}.`
      : `Above ${PARTITION_WRITE_UNITS.toLocaleString('en-US')} write units a second on one partition key at ${HIGH_TIER_RATE.toLocaleString('en-US')} messages a second: ${over.map((row) => `\`${row.kind}\` (${Math.round(row.keyUnitsPerSecond)})`).join(', ')}.`,
  ];
}

/**
 * The hot-item section: the priced global sender's kinds (the heaviest run: its ledger at a busy day's size) at
 * 1,000 messages a second, what is above the partition limit said plainly, and what the runs did not write.
 */
export function hotItemsSection(runs: SendPathRun[]): string[] {
  const run = runs.find((r) => r.label.startsWith('global sender, priced'));
  if (!run) return [];
  const ledger = hotItemRows(run.kinds, run.messages).find((row) => row.kind.startsWith(LEDGER_DAY));
  const numbers = ledger ? Math.floor(PARTITION_WRITE_UNITS / ledger.keyUnitsPerSecond) : 0;
  return [
    '## Hot items at 1,000 messages a second (issue 54)',
    '',
    `Every item kind the send and status paths wrote in the run of "${run.label}" above, the heaviest, with its writes and units a message measured and scaled to ${HIGH_TIER_RATE.toLocaleString('en-US')} messages a second on one number (bench/hot-items.ts: a figure is the run's writes a message × ${HIGH_TIER_RATE.toLocaleString('en-US')}). For an item the whole run shares (the pace, the ledger and budget shards, the count shards) that is its rate at that speed; an item of a block or a message lives a moment, and its last column, every write of its life, is the most any one second could take. A partition key's figure counts every item under it (a send part's blocks, latest states, message states and recipients share one). The run went at ${run.perSecond.toFixed(0)} messages a second: at ${HIGH_TIER_RATE.toLocaleString('en-US')} a status batch carries more statuses, so the items each status transaction writes once (ledger, budget, count shards, latest states) take fewer writes a message than here: these are upper bounds. Reproduce with \`npx tsx bench/send-path-report.ts\` (the STANDARD and global-sender runs, about 3 minutes here; \`npm run bench\` writes the section with the rest).`,
    '',
    ...hotItemsLines(run),
    '',
    ...(ledger
      ? [
          `- The ledger's partition key is the client's shard on its WABA (\`LEDGER#<waba>#C<client>#NN\`), shared by every number of the client on that WABA: at ${Math.round(ledger.keyUnitsPerSecond)} units a second for one number at ${HIGH_TIER_RATE.toLocaleString('en-US')}, ${numbers <= 1 ? 'a second such number' : `${numbers + 1} such numbers`} of one client on one WABA would put it above ${PARTITION_WRITE_UNITS.toLocaleString('en-US')}; its items (the largest ${(Math.max(...run.kinds.filter((k) => k.kind.startsWith(LEDGER_DAY)).map((k) => k.largestBytes)) / 1024).toFixed(1)} KB late in this day) are a number's day in one category each, at most the card's markets × their currencies.`,
        ]
      : []),
    run.kinds.some((k) => k.kind.startsWith('TIERS#'))
      ? '- No event of these sends went through the outbox (`OUTBOX`): it is not in the table.'
      : "- Not written by these runs: the tier month item (`TIERS#… / MONTH#…`, one of a portfolio's 8 shards, one write a status transaction with tier-counted charges), written only while the card in force has volume tiers; and no event of these sends went through the outbox (`OUTBOX`).",
  ];
}

/**
 * What a cap on marketing per person costs (issue 56 item 4): the two MARKETING runs of the same bench, without a
 * cap and under one, their units and reads a message, and the people's count items alone.
 */
export function frequencyCapSection(runs: SendPathRun[]): string[] {
  const without = runs.find((run) => run.label === CAP_RUNS.without);
  const under = runs.find((run) => run.label === CAP_RUNS.under);
  if (!without || !under) return [];
  const counts = under.kinds.filter((k) => k.kind.startsWith('MARKETING_COUNT#'));
  const countUnits = counts.reduce((sum, k) => sum + k.units, 0) / under.messages;
  const largest = Math.max(0, ...counts.map((k) => k.largestBytes));
  const more = under.writes.units / under.messages - without.writes.units / without.messages;
  const reads = under.itemsRead / under.messages - without.itemsRead / without.messages;
  return [
    '### A cap on marketing per person (issue 56 item 4)',
    '',
    `After the STANDARD run, in the same process (bench/send-path.ts, \`capRuns\`): two MARKETING sends of ${under.messages / 2} new people at once on a STANDARD number reporting sent, delivered and read, for a client without a frequency cap and then for one under a cap of 3 per 7 days (\`PUT /v1/clients/{id}/frequency-cap\`; every message counted, none skipped). Each message takes its person's place at its launch (lib/domain/sends/dispatch/frequency-cap.ts): a consistent read of the person's count and one conditional PutItem of it (docs/frequency-caps.md).`,
    '',
    "| run | messages | write units / message | people's counts: units / message (largest item) | items read / message |",
    '|---|---|---|---|---|',
    `| ${without.label} | ${without.messages} | ${(without.writes.units / without.messages).toFixed(2)} | — | ${(without.itemsRead / without.messages).toFixed(2)} |`,
    `| ${under.label} | ${under.messages} | ${(under.writes.units / under.messages).toFixed(2)} | ${countUnits.toFixed(2)} (${largest} bytes) | ${(under.itemsRead / under.messages).toFixed(2)} |`,
    '',
    `- A MARKETING message under a cap adds ${countUnits.toFixed(2)} write units: its person's count item, ${counts.reduce((n, k) => n + k.writes, 0)} writes of at most ${largest} bytes for ${under.messages} messages, the floor of a count kept per person with a conditional write (one item a person, under 1 KB, docs/frequency-caps.md); and one consistent GetItem (one read unit). UTILITY and AUTHENTICATION messages, and a client without a cap, add nothing. The runs' totals differ by ${more.toFixed(2)} units and ${reads.toFixed(2)} item reads a message: the rest of the two runs (status batches, progress records) varies more from run to run than the count's own unit.`,
  ];
}

// `npx tsx bench/send-path-report.ts [runs.json]`: the STANDARD run and the global senders measured (or read back
// from the file a run saved in the temporary folder), their lines printed.
// `npx tsx bench/send-path-report.ts cap [per send]`: the STANDARD run and the frequency cap's, their section printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cap = process.argv[2] === 'cap';
  const saved = cap ? undefined : process.argv[2];
  const runs = saved
    ? (JSON.parse(readFileSync(saved, 'utf8')) as SendPathRun[])
    : measureSendPath(cap ? Number(process.argv[3] ?? 800) : 800, cap ? 'cap' : 'global');
  if (!saved) writeFileSync(join(tmpdir(), 'send-path-runs.json'), JSON.stringify(runs));
  const sections = cap ? frequencyCapSection(runs) : [...globalSenderSection(runs), '', ...hotItemsSection(runs)];
  for (const line of sections) console.log(line);
}
