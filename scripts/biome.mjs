// Runs Biome's own binary for this machine. The registry this project installs from serves only Biome's
// Linux builds, and `@biomejs/biome` lists every platform's build as an optional dependency, which `npm ci`
// then cannot match to the lock file; so the two Linux builds are the project's own optional dependencies and
// this picks the one that installed.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const target = `@biomejs/cli-${process.platform}-${process.arch}/biome`;
let binary;
try {
  binary = require.resolve(target);
} catch {
  console.error(`No Biome build for ${process.platform}-${process.arch} is installed (${target}).`);
  process.exit(1);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
process.exit(result.status ?? 1);
