import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS_DIR, sampleEvents } from '../local/sample-events.ts';

/** `npm run events`: writes `events/<FunctionName>.json` from local/sample-events.ts (a test checks they match). */

export function sampleEventFiles(): Record<string, string> {
  return Object.fromEntries(Object.entries(sampleEvents()).map(([name, event]) => [`${name}.json`, `${JSON.stringify(event, null, 2)}\n`]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(EVENTS_DIR, { recursive: true });
  for (const file of readdirSync(EVENTS_DIR)) if (file.endsWith('.json')) rmSync(join(EVENTS_DIR, file));
  const files = sampleEventFiles();
  for (const [file, text] of Object.entries(files)) writeFileSync(join(EVENTS_DIR, file), text);
  console.log(`wrote ${Object.keys(files).length} sample events to events/`);
}
