import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mintToken, ROOT } from './keys.ts';
import type { MessageStatus } from './standins/graph/emulator.ts';
import { logFormatOf, writePrettyLogs } from './pretty-logs.ts';
import { startLocalStack } from './stack.ts';
import { GetApiDocs, GetOpenApi } from '#lib/manifest/routes/docs.ts';
import { GetConsole } from '#lib/manifest/routes/console.ts';
import { ListClientMsgChannels } from '#lib/manifest/routes/channels.ts';
import { ReceiveMetaWebhook } from '#lib/manifest/routes/meta.ts';

/** `npm start`: the whole service on 127.0.0.1. PORT, FIXTURE and GRAPH_API_URL as in decisions §10. */
const started = Date.now();
// One short line per request on a terminal, the functions' JSON lines otherwise (decisions §21).
if (logFormatOf(process.env.LOG_FORMAT, Boolean(process.stdout.isTTY)) === 'pretty') {
  writePrettyLogs(process.stdout);
  writePrettyLogs(process.stderr);
}
// What `npm run sam:env` reads to point sam local at this stack (removed at a clean stop).
const RUNNING_FILE = join(ROOT, '.local', 'running.json');
const starting = startLocalStack({
  port: process.env.PORT ? Number(process.env.PORT) : 3000,
  fixture: process.env.FIXTURE || undefined,
  graphApiUrl: process.env.GRAPH_API_URL || undefined,
  // A DynamoDB started apart (decisions §20) instead of DynamoDB Local.
  dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  // Kept between runs (decisions §16); FRESH=true starts from the fixture, KEEP_DATA=false keeps nothing (in memory).
  dataDir: process.env.KEEP_DATA === 'false' ? undefined : process.env.DATA_DIR || join(ROOT, '.local', 'data'),
  fresh: process.env.FRESH === 'true',
  // As Meta does: every accepted message is reported sent, then delivered (AUTO_STATUSES= turns it off).
  autoStatuses: (process.env.AUTO_STATUSES ?? 'sent,delivered').split(',').filter(Boolean) as MessageStatus[],
  // Workers not to run (SKIP_WORKERS=DispatchMessages,…): a test that puts a job where a worker gave up on it.
  skipWorkers: (process.env.SKIP_WORKERS ?? '').split(',').filter(Boolean),
  // Stream workers that cannot apply (FAILING_WORKERS=ApplyMetaStatuses): a test of the batches given up on.
  failingWorkers: (process.env.FAILING_WORKERS ?? '').split(',').filter(Boolean),
  // The dispatcher's timeout (DISPATCH_TIMEOUT_SECONDS, the manifest's 50 s when unset): a crash test's claims
  // then outlive a dead invocation by its timeout and DISPATCH_LEASE_MARGIN_MS, seconds rather than 80.
  ...(process.env.DISPATCH_TIMEOUT_SECONDS && { workerTimeouts: { DispatchMessages: Number(process.env.DISPATCH_TIMEOUT_SECONDS) } }),
  // Meta's throughput limit at the emulator: a rolling second may hold a number's level and this share more.
  ...(process.env.EMULATOR_BURST_SHARE && { burstShare: Number(process.env.EMULATOR_BURST_SHARE) }),
  log: (line) => console.error(line),
});

// Handlers first: a stop asked for while the stack starts waits for it, then stops it cleanly (its data kept).
let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.error(`${signal}: stopping`);
  const stack = await starting.catch(() => undefined);
  await stack?.stop();
  rmSync(RUNNING_FILE, { force: true });
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const stack = await starting;
mkdirSync(join(ROOT, '.local'), { recursive: true });
writeFileSync(RUNNING_FILE, `${JSON.stringify({ apiUrl: stack.apiUrl, graphUrl: stack.graphUrl, settings: stack.settings }, null, 2)}\n`);
const clientToken = await mintToken({ clientId: 7, campaigns: [31], sub: 'demo-agent' });
const bspToken = await mintToken({ clientId: 7, bsp: true, sub: 'demo-bsp' });
console.log(`Template Messaging Service ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`API base URL: ${stack.apiUrl}/v1`);
console.log(`OpenAPI:      ${stack.apiUrl}${GetOpenApi.path} (reference page: ${stack.apiUrl}${GetApiDocs.path})`);
console.log(`Graph API:    ${stack.graphUrl}${stack.emulator ? ' (emulator)' : ''}`);
console.log(
  `Meta webhooks: ${stack.apiUrl}${ReceiveMetaWebhook.path} (app secret ${process.env.META_APP_SECRET}, verify token ${process.env.META_VERIFY_TOKEN})`,
);
if (process.env.ALLOW_LOCAL_WEBHOOKS === 'true')
  console.log('Webhook receivers at http://127.0.0.1:<port>/ are allowed (ALLOW_LOCAL_WEBHOOKS)');
// The console signs in with the token in the address, then drops it from there (issue 45).
console.log(`Console as the client's agent: ${stack.apiUrl}${GetConsole.path}#token=${clientToken}`);
console.log(`Console as BSP_CN (picks a client): ${stack.apiUrl}${GetConsole.path}#token=${bspToken}`);
console.log(`Client token (client 7, campaigns 31):\n${clientToken}`);
console.log(`BSP_CN token (client 7):\n${bspToken}`);
console.log(`Try: curl -H "Authorization: Bearer <token>" ${stack.apiUrl}${ListClientMsgChannels.path}`);
