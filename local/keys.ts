import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

/**
 * The local identity provider: one RS256 key pair kept in the git-ignored `.local/keys`, its public half
 * served as the JWKS the functions verify against. Tokens minted here are what the local stack accepts.
 */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY_DIR = process.env.LOCAL_KEY_DIR ?? join(ROOT, '.local', 'keys');
const PRIVATE_FILE = join(KEY_DIR, 'signing-key.json');

export const LOCAL_ISSUER = 'https://auth.local.template-messaging/';
export const LOCAL_AUDIENCE = 'template-messaging-service';
const KID = 'local-1';

async function loadOrCreateKey(): Promise<JWK> {
  if (existsSync(PRIVATE_FILE)) return JSON.parse(readFileSync(PRIVATE_FILE, 'utf8')) as JWK;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: KID, alg: 'RS256', use: 'sig' };
  mkdirSync(dirname(PRIVATE_FILE), { recursive: true });
  writeFileSync(PRIVATE_FILE, JSON.stringify(jwk), { mode: 0o600 });
  return jwk;
}

export async function publicJwks(): Promise<{ keys: JWK[] }> {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicPart } = await loadOrCreateKey();
  return { keys: [publicPart] };
}

export interface TokenOptions {
  clientId: number | string;
  bsp?: boolean;
  campaigns?: number[];
  sub?: string;
  role?: string;
  expiresIn?: string;
  /** Overrides for tests of refused tokens. */
  issuer?: string;
  audience?: string;
  permissions?: string[];
  /** Claims set as given over the ones above, for tests of claims the service must refuse (decisions §29). */
  claims?: Record<string, unknown>;
}

export async function mintToken(options: TokenOptions): Promise<string> {
  const key = await importJWK(await loadOrCreateKey(), 'RS256');
  const permissions = options.permissions ?? (options.bsp ? ['BSP_CN'] : []);
  return new SignJWT({
    client_id: options.clientId,
    permissions,
    campaigns: options.campaigns ?? [],
    role: options.role ?? 'supervisor',
    ...options.claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
    .setSubject(options.sub ?? `user-${options.clientId}`)
    .setIssuer(options.issuer ?? LOCAL_ISSUER)
    .setAudience(options.audience ?? LOCAL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(key);
}
