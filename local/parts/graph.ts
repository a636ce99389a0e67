import type { DirectoryFile } from '#lib/adapters/directory-file.ts';
import { GraphEmulator } from '../graph/emulator.ts';
import { startGraphServer } from '../graph/server.ts';
import type { Stop } from './network.ts';

/** Our Graph API emulator, loaded with the fixture's WABAs, served over HTTP. */
export async function startGraphEmulator(
  fixture: DirectoryFile,
  host: string,
): Promise<{ url: string; emulator: GraphEmulator; stop: Stop }> {
  const emulator = new GraphEmulator(fixture);
  const server = await startGraphServer(emulator, 0, host);
  return { url: server.url, emulator, stop: server.stop };
}
