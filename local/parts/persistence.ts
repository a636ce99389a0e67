import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `npm start` keeps between runs (decisions §16), in one folder: DynamoDB Local's files, the Graph
 * emulator's state and the queues' journal (every message accepted and deleted). The folder remembers which fixture its data came from; another
 * fixture, or `FRESH=true`, starts from that fixture afresh.
 */
export interface DataDir {
  root: string;
  dynamoPath: string;
  graphFile: string;
  queuesFile: string;
  /** The scheduled sends' schedules not run yet (local/standins/scheduler.ts). */
  schedulesFile: string;
  /** The onboardings' secrets (lib/adapters/local-file-vault.ts). */
  vaultDir: string;
  /** True when nothing was kept: the fixture is loaded. */
  fresh: boolean;
}

/** The file whole or not at all, on disk before it replaces the old one (a crash or power cut keeps one of them). */
const writeAtomically = (file: string, text: string) => {
  const fd = openSync(`${file}.tmp`, 'w');
  writeFileSync(fd, text);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(`${file}.tmp`, file);
};

export function prepareDataDir(root: string, fixturePath: string, forceFresh: boolean): DataDir {
  const marker = join(root, 'fixture.json');
  const fixture = { path: fixturePath, sha256: createHash('sha256').update(readFileSync(fixturePath)).digest('hex') };
  const kept = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as typeof fixture) : undefined;
  const fresh = forceFresh || kept?.sha256 !== fixture.sha256;
  if (fresh) rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'dynamodb'), { recursive: true });
  writeAtomically(marker, JSON.stringify(fixture));
  return {
    root,
    dynamoPath: join(root, 'dynamodb'),
    graphFile: join(root, 'graph.json'),
    queuesFile: join(root, 'queues.jsonl'),
    schedulesFile: join(root, 'schedules.json'),
    vaultDir: join(root, 'vault'),
    fresh,
  };
}

export function saveJson(file: string, value: unknown) {
  writeAtomically(file, JSON.stringify(value));
}

export function loadJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}
