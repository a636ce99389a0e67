import { fileURLToPath } from 'node:url';
import { measureSendPath, type SendPathRun } from './send-path.ts';

/**
 * What BENCHMARKS.md says of the performance aggregates (decisions §33, issue 56: at most +0.5 write units a
 * message): from the send-path bench's runs, each run's units with and without them (local/performance-writes.ts),
 * and the STANDARD run's replies apart. `npx tsx bench/performance-report.ts` measures the STANDARD run alone.
 */

/** Issue 56's bound: write units a message the aggregates may add to the send path. */
export const AGGREGATES_TARGET = 0.5;

const kindsText = (kinds: [string, number][], per: number) =>
  kinds.map(([kind, units]) => `\`${kind}\` ${(units / per).toFixed(3)}`).join(', ');

export function performanceSection(runs: SendPathRun[]): string[] {
  const standard = runs[0];
  const lines = [
    '## What the performance aggregates add (issue 56)',
    '',
    "The same runs as the send path's above, each write summed twice (bench/send-path.ts): as it was made, and as it would have been without the performance aggregates of decisions §33 (local/performance-writes.ts: no template day item, reply index item or reply item, no write of a send's count shard for figures alone, and no figures on the count shards, delivery times on the latest items or variant on a block): at the items' real sizes after the run, transactional writes twice. Then, on the STANDARD run's two sends, every tenth person presses a quick-reply button and every twentieth (from the sixth) writes without quoting the message, measured alone.",
    '',
    `| run | messages | write units / message | without the aggregates | added / message (≤ ${AGGREGATES_TARGET}) | where (units / message) |`,
    '|---|---|---|---|---|---|',
    ...runs.map((run) => {
      const added = run.aggregates.units / run.messages;
      return `| ${run.label} | ${run.messages} | ${(run.writes.units / run.messages).toFixed(2)} | ${((run.writes.units - run.aggregates.units) / run.messages).toFixed(2)} | ${added.toFixed(3)}: ${added <= AGGREGATES_TARGET ? 'met' : 'NOT met'} | ${kindsText(run.aggregates.kinds, run.messages)} |`;
    }),
    '',
  ];
  if (standard.replies)
    lines.push(
      `Replies (the STANDARD run): ${standard.replies.replies} replies wrote ${standard.replies.units} units, ${(standard.replies.units / standard.replies.replies).toFixed(2)} a reply (${kindsText(standard.replies.kinds, standard.replies.replies)}): its block's reply item, the send's count shard and its template's day, in one transaction; at a reply rate r a send adds ${(standard.replies.units / standard.replies.replies).toFixed(1)}r units a message more.`,
      '',
    );
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of performanceSection(measureSendPath(Number(process.argv[2] ?? 800), 'standard'))) console.log(line);
}
