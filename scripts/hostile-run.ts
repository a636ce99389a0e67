import fc from 'fast-check';
import { hostileRequest, sendAll } from '../local/hostile-requests.ts';
import { mintToken } from '../local/keys.ts';

/**
 * `npm run hostile [-- N]`: starts the local stack on its real parts, sends N generated hostile requests
 * (default 10,000) to every route, and reports the statuses and every answer outside the contract: any 5xx,
 * any error body outside the error shape. Exits 1 when there is one, or when the stack stops serving.
 */
process.env.LOG_LEVEL ??= 'SILENT';
const count = Number(process.argv[2] ?? 10_000);
const { startLocalStack } = await import('../local/stack.ts');
const stack = await startLocalStack({});
try {
  const seed = Date.now();
  const tokens = {
    client: await mintToken({ clientId: 7, campaigns: [31, 32] }),
    bsp: await mintToken({ clientId: 7, bsp: true }),
    forged: `${(await mintToken({ clientId: 7 })).slice(0, -4)}AAAA`,
    sign: (claims: Record<string, unknown>) => mintToken({ clientId: 'claims', claims }),
  };
  const started = Date.now();
  const outcomes = await sendAll(stack.apiUrl, fc.sample(hostileRequest, { numRuns: count, seed }), tokens);
  const byStatus = new Map<number, number>();
  for (const o of outcomes) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
  const violations = outcomes.filter((o) => o.violation);
  const alive =
    (await fetch(`${stack.apiUrl}/v1/client-msg-channels`, { headers: { authorization: `Bearer ${tokens.client}` } })).status === 200;
  console.log(`${outcomes.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed})`);
  console.log(
    `statuses: ${[...byStatus.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(', ')}`,
  );
  console.log(
    `5xx: ${outcomes.filter((o) => o.status >= 500).length}; outside the error shape: ${violations.length}; still serving: ${alive}`,
  );
  const claimed = outcomes.filter((o) => o.request.auth === 'claims');
  console.log(
    `tokens of generated claims: ${claimed.length}, ${claimed.filter((o) => o.request.claims?.refused).length} of them carrying a refused id (each must be 401)`,
  );
  for (const v of violations.slice(0, 20))
    console.log(`  ${v.request.method} ${v.request.path} ${v.request.body?.slice(0, 200) ?? ''} → ${v.violation}`);
  process.exitCode = violations.length === 0 && alive ? 0 : 1;
} finally {
  await stack.stop();
}
