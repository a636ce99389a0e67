import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../local/parts/network.ts';
import { ROOT } from '../../local/keys.ts';

/**
 * `npm start`'s command: Node with tsx's loader, no tsx CLI in between. The CLI relays SIGTERM and SIGKILLs its
 * child when the child does not acknowledge within 30 ms, which a loaded machine misses (exit 143, data unsaved).
 * Its own process group, so a crash can take it with its children (DynamoDB Local's JVM) as a power cut would.
 */
const start = (env: NodeJS.ProcessEnv) =>
  spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });

/** A whole local stack in a process of its own, as `npm start` runs it. */
export interface ChildStack {
  port: number;
  /** The API's base URL with `/v1`, as printed. */
  base: string;
  /** The API's root URL (no `/v1`), for `call` and the `/_local` endpoints. */
  apiUrl: string;
  graphUrl: string;
  /** The tokens it printed. */
  token: string;
  bspToken: string;
  /** What it printed on stdout so far. */
  readonly out: string;
  /** What it logged on stderr so far. */
  readonly log: string;
  /** SIGTERM, a clean stop; resolves with its log once it exited 0. */
  stop(): Promise<string>;
  /** SIGKILL to the stack and every process it started (a crash); resolves once it is gone. */
  kill(): Promise<void>;
}

/**
 * Runs `npm start` on a data folder until it is ready. The API's port is picked here and bound by the child
 * seconds later (after DynamoDB Local): another stack starting meanwhile may take it first, and then a new
 * port is tried (a start that failed binding its port has changed nothing but the parts it stopped).
 */
export async function startChildStack(dataDir: string, env: Record<string, string> = {}): Promise<ChildStack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(dataDir, env);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes(PORT_TAKEN)) throw error;
    }
  }
}

const PORT_TAKEN = 'EADDRINUSE';

async function startOnce(dataDir: string, env: Record<string, string>): Promise<ChildStack> {
  const port = await freePort();
  // The test run's shared stack set its settings in this process (GRAPH_API_URL, DYNAMODB_ENDPOINT among them):
  // `npm start` would take them as the user's, so the child gets the environment as it was before.
  const shared = new Set(['LOCAL_STACK_SETTINGS', ...(process.env.LOCAL_STACK_SETTINGS ?? '').split(',')]);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !shared.has(name)));
  // Errors only: what a 5xx answer's request logged is printed beside the failing test (api.ts `call`).
  const child = start({ ...inherited, PORT: String(port), LOG_LEVEL: 'ERROR', DATA_DIR: dataDir, ...env });
  let out = '';
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = Date.now();
  while (!out.includes('BSP_CN token') && child.exitCode === null && Date.now() - started < 90_000)
    await new Promise((r) => setTimeout(r, 100));
  if (!out.includes('BSP_CN token')) {
    killGroup(child);
    throw new Error(`the stack did not start:\n${out}\n${log}`);
  }
  const lines = out.split('\n');
  const base = /API base URL: (\S+)/.exec(out)?.[1] ?? '';
  return {
    port,
    base,
    apiUrl: base.replace(/\/v1$/, ''),
    graphUrl: /Graph API: +(\S+)/.exec(out)?.[1] ?? '',
    token: lines[lines.findIndex((l) => l.startsWith('Client token')) + 1],
    bspToken: lines[lines.findIndex((l) => l.startsWith('BSP_CN token')) + 1],
    get out() {
      return out;
    },
    get log() {
      return log;
    },
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the stack exited ${code}:\n${log}`);
      return log;
    },
    kill: async () => {
      killGroup(child);
      await exited;
    },
  };
}

function killGroup(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // Already gone.
  }
}
