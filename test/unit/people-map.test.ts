import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { preTokenClaims } from '#lib/adapters/cognito/pre-token-claims.ts';
import { GRAPH_TOKEN_UNSET, graphApiToken, UpstreamNotConfigured } from '#lib/adapters/graph/token.ts';
import { audienceMatches } from '#lib/auth/authenticate.ts';
import { callerFromClaims } from '#lib/auth/caller.ts';
import { CLAIM_DEFAULTS, claimNames, COGNITO_CLAIMS } from '#lib/auth/claim-names.ts';

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const COGNITO_SETTINGS = { CLAIM_CLIENT_ID: 'tms_client_id', CLAIM_PERMISSIONS: 'tms_permissions', CLAIM_CAMPAIGNS: 'tms_campaigns' };

/**
 * A function's settings for the modules imported after this: the claim names and the configuration are read once
 * per process (a cold start), and the unit files share their worker's modules, so these modules are fresh ones
 * and the settings go again afterwards (`restore`).
 */
function withSettings(settings: Record<string, string>) {
  const before = { ...process.env };
  Object.assign(process.env, settings);
  vi.resetModules();
  return () => {
    for (const name of Object.keys(settings)) {
      if (before[name] === undefined) delete process.env[name];
      else process.env[name] = before[name];
    }
    vi.resetModules();
  };
}

describe('claim names as settings (decisions §17)', () => {
  it('defaults to decisions §1 and takes the settings where given', () => {
    expect(claimNames({})).toEqual(CLAIM_DEFAULTS);
    expect(claimNames({ CLAIM_CLIENT_ID: 'tms_client_id', CLAIM_CAMPAIGNS: 'tms_campaigns' })).toEqual({
      clientId: 'tms_client_id',
      permissions: 'permissions',
      campaigns: 'tms_campaigns',
    });
    expect(() => claimNames({ CLAIM_PERMISSIONS: 'has space' })).toThrow('CLAIM_PERMISSIONS');
  });

  it('reads a caller from a Cognito access token’s claims under the configured names, never from its client_id', () => {
    // Prepare: Cognito's own client_id (the app client) beside the service's claims
    const claims = { sub: 'u-1', client_id: '5abc0appclient', tms_client_id: 7, tms_permissions: ['BSP_CN'], tms_campaigns: '[31 32]' };
    // Act
    const caller = callerFromClaims(claims, COGNITO_CLAIMS);
    // Assess
    expect(caller).toMatchObject({ clientId: 7, permissions: ['BSP_CN'], campaigns: [31, 32], isBsp: true });
    expect(callerFromClaims(claims, CLAIM_DEFAULTS)).toBeNull();
  });
});

describe('the user pool’s pre-token-generation trigger', () => {
  it('puts the client id, permissions and campaigns of the user’s attributes into both tokens', async () => {
    // Prepare
    const restore = withSettings(COGNITO_SETTINGS);
    const { handler: preTokenGeneration } = await import('../../functions/sign-in/pre-token-generation.ts');
    const event = {
      version: '2',
      triggerSource: 'TokenGeneration_Authentication',
      request: {
        userAttributes: { sub: 'u-1', 'custom:client_id': '7', 'custom:permissions': 'BSP_CN', 'custom:campaigns': '31, 32 x' },
        groupConfiguration: {},
        scopes: [],
      },
      response: {},
    };
    // Act
    const answered = (await preTokenGeneration(event as never)) as any;
    restore();
    // Assess
    const expected = { tms_client_id: 7, tms_permissions: ['BSP_CN'], tms_campaigns: ['31', '32'] };
    expect(answered.response.claimsAndScopeOverrideDetails.accessTokenGeneration.claimsToAddOrOverride).toEqual(expected);
    expect(answered.response.claimsAndScopeOverrideDetails.idTokenGeneration.claimsToAddOrOverride).toEqual(expected);
  });

  it.each([{}, { 'custom:client_id': '' }, { 'custom:client_id': '0' }, { 'custom:client_id': '7; drop' }])(
    'gives a user without a valid client id no service claims (%o)',
    (attributes) => {
      expect(preTokenClaims(attributes, COGNITO_CLAIMS)).toEqual({});
    },
  );
});

describe('token verification where no authorizer ran (sam local, the local stack)', () => {
  const ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_test';
  const AUDIENCE = '5abc0appclient';
  let server: Server;
  let rsa: SigningKey;
  let ec: SigningKey;
  let authenticate: typeof import('#lib/auth/authenticate.ts').authenticate;
  let restore: () => void;

  beforeAll(async () => {
    // Prepare: a JWKS holding an RSA and an EC key, as an issuer might publish
    const rsaPair = await generateKeyPair('RS256', { extractable: true });
    const ecPair = await generateKeyPair('ES256', { extractable: true });
    rsa = rsaPair.privateKey;
    ec = ecPair.privateKey;
    const keys = [
      { ...(await exportJWK(rsaPair.publicKey)), kid: 'rsa', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(ecPair.publicKey)), kid: 'ec', alg: 'ES256', use: 'sig' },
    ];
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    restore = withSettings({
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
      JWKS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
      ...COGNITO_SETTINGS,
    });
    ({ authenticate } = await import('#lib/auth/authenticate.ts'));
  });
  afterAll(() => {
    restore();
    server.close();
  });

  const cognitoAccessToken = (key: SigningKey, alg: string, kid: string, extra: Record<string, unknown> = {}) =>
    new SignJWT({ token_use: 'access', client_id: AUDIENCE, tms_client_id: 7, tms_campaigns: [31], ...extra })
      .setProtectedHeader({ alg, kid })
      .setSubject('u-1')
      .setIssuer(ISSUER)
      .setExpirationTime('5m')
      .sign(key);
  const withBearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` }, requestContext: {} }) as never;

  it('accepts an RS256 Cognito access token: no aud, the app client as client_id, the tms_ claims', async () => {
    const caller = await authenticate(withBearer(await cognitoAccessToken(rsa, 'RS256', 'rsa')));
    expect(caller).toMatchObject({ sub: 'u-1', clientId: 7, campaigns: [31] });
  });

  it('refuses an ES256 token signed by a key of the same issuer: API Gateway would not verify it', async () => {
    expect(await authenticate(withBearer(await cognitoAccessToken(ec, 'ES256', 'ec')))).toBeUndefined();
  });

  it('refuses a token for another app client', async () => {
    const other = await cognitoAccessToken(rsa, 'RS256', 'rsa', { client_id: 'another-client' });
    expect(await authenticate(withBearer(other))).toBeUndefined();
  });

  it('matches the audience as API Gateway does', () => {
    expect(audienceMatches({ aud: 'a' }, 'a')).toBe(true);
    expect(audienceMatches({ aud: ['b', 'a'] }, 'a')).toBe(true);
    expect(audienceMatches({ aud: 'b', client_id: 'a' }, 'a')).toBe(false);
    expect(audienceMatches({ client_id: 'a' }, 'a')).toBe(true);
    expect(audienceMatches({}, 'a')).toBe(false);
  });
});

describe('the Graph API token', () => {
  it('answers UpstreamNotConfigured, saying what to set, while the secret holds the stack’s marker or nothing', async () => {
    const env = { GRAPH_API_TOKEN_SECRET: 'tms/graph' };
    await expect(graphApiToken(env, async () => GRAPH_TOKEN_UNSET)).rejects.toThrow(UpstreamNotConfigured);
    await expect(graphApiToken(env, async () => '  ')).rejects.toThrow(/tms\/graph holds no token yet/);
    await expect(graphApiToken({}, async () => 'x')).rejects.toThrow(/GRAPH_API_TOKEN_SECRET/);
    expect(await graphApiToken(env, async () => 'EAAG-real\n')).toBe('EAAG-real');
  });
});
