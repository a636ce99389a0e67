import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiUrl, call, token } from '../support/api.ts';
import { hostileRequest, sendAll } from '../../local/hostile-requests.ts';

/**
 * Generated input over every route of the manifest (fast-check): 2,000 requests per run across paths,
 * queries, bodies, headers, multipart and tokens (claims with ids no key can hold among them, each a 401). None
 * may get a 5xx or an error outside the contract's shape, and the stack must still serve afterwards. `npm run hostile` runs 10,000 of them.
 */
const REQUESTS = 2_000;

describe('hostile input on every route', () => {
  it(`answers ${REQUESTS} generated requests without a 5xx, every error in the contract's shape`, async () => {
    // Prepare
    const seed = Date.now();
    const requests = fc.sample(hostileRequest, { numRuns: REQUESTS, seed });
    const tokens = {
      client: await token({ clientId: 7, campaigns: [31, 32] }),
      bsp: await token({ clientId: 7, bsp: true }),
      forged: `${(await token({ clientId: 7 })).slice(0, -4)}AAAA`,
      sign: (claims: Record<string, unknown>) => token({ clientId: 'claims', claims }),
    };
    // Act
    // This stack gives Graph calls 1 s (global-setup.ts): a loaded machine's slow call is a contract 502.
    const outcomes = await sendAll(apiUrl(), requests, tokens, 8, { upstreamMayBeSlow: true });
    // Assess
    const violations = outcomes.filter((o) => o.violation).map((o) => `${o.request.method} ${o.request.path} → ${o.violation}`);
    expect(violations, `seed ${seed}`).toEqual([]);
    expect(outcomes).toHaveLength(REQUESTS);
    expect(outcomes.filter((o) => o.request.claims?.refused).length).toBeGreaterThan(20);
    expect(new Set(outcomes.map((o) => o.request.path.split('?')[0].split('/')[2])).size).toBeGreaterThan(4);
    expect((await call('GET', '/v1/client-msg-channels', { token: tokens.client })).status).toBe(200);
  }, 120_000);
});
