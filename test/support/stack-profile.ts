import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * With STACK_PROFILE set to a file, the shared stack's process (vitest's main one) records a CPU profile for the
 * whole run and writes it there at the end: where a stall of the stack comes from (docs/console.md, "What it costs").
 */
export async function profileStackProcess(): Promise<() => Promise<void>> {
  const file = process.env.STACK_PROFILE;
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
