import type { DirectoryFile } from '#lib/adapters/directory-file.ts';
import { GraphEmulator } from '../graph/emulator.ts';
import { startGraphServer } from '../graph/server.ts';
import type { Stop } from './network.ts';
import { loadJson, saveJson } from './persistence.ts';

/**
 * Our Graph API emulator, loaded with the fixture's WABAs, served over HTTP. With a state file, the state
 * kept there (if any) is loaded instead, and every change is written back to it (batched, and on stop).
 */
export async function startGraphEmulator(
  fixture: DirectoryFile,
  host: string,
  state?: { file: string; load: boolean },
): Promise<{ url: string; emulator: GraphEmulator; stop: Stop }> {
  const emulator = new GraphEmulator(fixture);
  if (state) {
    const kept = state.load ? loadJson<ReturnType<GraphEmulator['model']['snapshot']>>(state.file) : undefined;
    if (kept) emulator.model.restore(kept);
    const save = () => saveJson(state.file, emulator.model.snapshot());
    // Written at most twice a second: a dispatch of thousands of messages must not rewrite the file per message.
    let pending: NodeJS.Timeout | undefined;
    emulator.onChange = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        save();
      }, 500);
    };
    save();
    const server = await startGraphServer(emulator, 0, host);
    return {
      url: server.url,
      emulator,
      stop: async () => {
        await server.stop();
        clearTimeout(pending);
        save();
      },
    };
  }
  const server = await startGraphServer(emulator, 0, host);
  return { url: server.url, emulator, stop: server.stop };
}
