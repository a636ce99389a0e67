import type { DirectoryFile } from '#lib/adapters/directory-file.ts';
import { GraphEmulator } from '../standins/graph/emulator.ts';
import type { SentMessage } from '../standins/graph/model.ts';
import { startGraphServer } from '../standins/graph/server.ts';
import { DurableLog } from '../standins/sqs-journal/durable-log.ts';
import type { Stop } from './network.ts';
import { loadJson, saveJson } from './persistence.ts';

/**
 * Our Graph API emulator, loaded with the fixture's WABAs, served over HTTP. With a state file, the state
 * kept there (if any) is loaded instead, and every change is on disk before its answer leaves: an accepted
 * message is appended to a journal beside the file (one line, not the whole state, at thousands a second),
 * any other change writes the state whole. A start folds the journal into the state.
 */
export async function startGraphEmulator(
  fixture: DirectoryFile,
  host: string,
  state?: { file: string; load: boolean },
  options: { burstShare?: number } = {},
): Promise<{ url: string; emulator: GraphEmulator; stop: Stop }> {
  const emulator = new GraphEmulator(fixture, undefined, options);
  if (state) {
    const journal = `${state.file}.sent.jsonl`;
    const kept = state.load ? loadJson<ReturnType<GraphEmulator['model']['snapshot']>>(state.file) : undefined;
    if (kept) emulator.model.restore(kept);
    if (state.load) {
      const known = new Set(emulator.model.sent.map((m) => m.id));
      for (const message of DurableLog.read<SentMessage>(journal)) if (!known.has(message.id)) emulator.model.sent.push(message);
    }
    const save = () => saveJson(state.file, emulator.model.snapshot());
    // The state whole first, then an empty journal: a crash between the two leaves lines the state holds already.
    save();
    let accepted = DurableLog.rewrite<SentMessage>(journal, []);
    emulator.onChange = (message) => (message ? accepted.append(message) : save());
    const server = await startGraphServer(emulator, 0, host);
    return {
      url: server.url,
      emulator,
      stop: async () => {
        await server.stop();
        await accepted.close();
        save();
        accepted = DurableLog.rewrite<SentMessage>(journal, []);
        await accepted.close();
      },
    };
  }
  const server = await startGraphServer(emulator, 0, host);
  return { url: server.url, emulator, stop: server.stop };
}
