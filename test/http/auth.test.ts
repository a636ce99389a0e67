import fc from 'fast-check';
import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { routes } from '#lib/manifest/routes.ts';
import { notAnId } from '../../local/hostile-claims.ts';
import { LOCAL_AUDIENCE, LOCAL_ISSUER } from '../../local/keys.ts';
import { call, expectErrorShape, token } from '../support/api.ts';

const PATH = '/v1/client-msg-channels';
const claims = { client_id: 7, permissions: [], campaigns: [31] };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function expectRefused(authorization: string | undefined) {
  // Act
  const response = await call('GET', PATH, { headers: authorization ? { authorization } : {} });
  // Assess
  const body = expectErrorShape(response, 401, 'unauthorized');
  expect(body.message).toBe('Unauthorized');
}

describe('bearer tokens (decisions §1)', () => {
  it('accepts a valid RS256 token from the local issuer', async () => {
    const response = await call('GET', PATH, { token: await token({ clientId: 7, campaigns: [31] }) });
    expect(response.status).toBe(200);
  });

  it('refuses a request without Authorization', () => expectRefused(undefined));

  it('refuses a malformed header', () => expectRefused('Bearer not-a-jwt'));

  it('refuses a non-Bearer scheme', async () => expectRefused(`Basic ${await token({ clientId: 7 })}`));

  it('refuses an expired token', async () => {
    // Prepare: expired ten seconds ago
    const expired = await token({ clientId: 7, expiresIn: '-10s' });
    await expectRefused(`Bearer ${expired}`);
  });

  it('refuses a token from another issuer', async () =>
    expectRefused(`Bearer ${await token({ clientId: 7, issuer: 'https://evil.example.com/' })}`));

  it('refuses a token for another audience', async () => expectRefused(`Bearer ${await token({ clientId: 7, audience: 'someone-else' })}`));

  it('refuses an HS256 token', async () => {
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: 'local-1' })
      .setSubject('mallory')
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-shared-secret-that-is-long-enough-for-hs256'));
    await expectRefused(`Bearer ${hs}`);
  });

  it('refuses an unsigned alg:none token', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, sub: 'mallory', iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE, exp })}.`;
    await expectRefused(`Bearer ${none}`);
  });

  it('refuses a token signed by another key with the same kid', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'local-1' })
      .setSubject('mallory')
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setExpirationTime('1h')
      .sign(privateKey);
    await expectRefused(`Bearer ${forged}`);
  });

  it('refuses a token without client_id', async () => expectRefused(`Bearer ${await token({ clientId: 'abc' })}`));
});

describe('claims that are no ids (decisions §29)', () => {
  /** Each route that needs a token, with its own sample request: a valid caller would reach its use case. */
  const guarded = routes.filter((r) => r.auth);
  const requestOf = (route: (typeof guarded)[number]) => ({
    path: `${route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(route.sample.path?.[name] ?? 'x'))}${
      route.sample.query ? `?${new URLSearchParams(route.sample.query)}` : ''
    }`,
    body: route.method === 'GET' ? undefined : (route.sample.body ?? {}),
  });

  it('refuses a client_id of 1e21 on PUT /v1/webhook/config (the hostile generator’s 500)', async () => {
    // Prepare
    const oversized = await token({ clientId: 7, claims: { client_id: 1e21 }, bsp: true });
    // Act
    const response = await call('PUT', '/v1/webhook/config', { token: oversized, body: { url: 'https://hooks.example.com/x' } });
    // Assess
    expect(expectErrorShape(response, 401, 'unauthorized').message).toBe('Unauthorized');
  });

  it('answers 401 on every route kind to a client id or campaign id that is not a safe positive integer (property)', async () => {
    // Prepare: a route, which claim is broken, and how
    const broken = fc.record({
      route: fc.constantFrom(...guarded),
      where: fc.constantFrom('client_id', 'campaigns', 'flattened campaigns'),
      value: notAnId,
      bsp: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(broken, async ({ route, where, value, bsp }) => {
        const claims =
          where === 'client_id'
            ? { client_id: value }
            : where === 'campaigns'
              ? { campaigns: [31, value] }
              : { campaigns: `[31 ${typeof value === 'string' && value !== '' && !/\s/.test(value) ? value : '1e+21'}]` };
        const { path, body } = requestOf(route);
        // Act
        const response = await call(route.method, path, { token: await token({ clientId: 7, campaigns: [31], bsp, claims }), body });
        // Assess
        expect(expectErrorShape(response, 401, 'unauthorized').message).toBe('Unauthorized');
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
