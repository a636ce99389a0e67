import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { loadConfig } from '#lib/config.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { callerFromClaims } from './caller.ts';

/**
 * RS256 only: the one algorithm API Gateway's JWT authorizer verifies, so a token accepted here (sam local, the
 * local stack) is one a deployment accepts too. HS256 would let anyone holding a shared secret mint tokens.
 */
export const ACCEPTED_ALGORITHMS = ['RS256'];

/**
 * The audience check as API Gateway's JWT authorizer makes it: `aud` names the audience, or a token without
 * `aud` (a Cognito access token) carries it as `client_id`.
 */
export function audienceMatches(payload: Record<string, unknown>, audience: string): boolean {
  const aud = payload.aud;
  if (aud === undefined) return payload.client_id === audience;
  return Array.isArray(aud) ? aud.includes(audience) : aud === audience;
}

let jwks: { url: string; get: JWTVerifyGetKey } | undefined;
function keySet(url: string): JWTVerifyGetKey {
  if (!jwks || jwks.url !== url) jwks = { url, get: createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000 }) };
  return jwks.get;
}

type EventWithAuthorizer = APIGatewayProxyEventV2 & {
  requestContext: { authorizer?: { jwt?: { claims?: Record<string, unknown> } } };
};

/**
 * In AWS the HTTP API's JWT authorizer has verified the token and put the claims in the request context.
 * Where there is no such context (the local server, `sam local`, a misconfigured route) the token is
 * verified here against the same JWKS, so no path reaches a handler with an unverified caller.
 * Undefined: no caller (no token, a token refused, or claims that name no caller); the HTTP layer answers 401.
 */
export async function authenticate(event: APIGatewayProxyEventV2): Promise<Caller | undefined> {
  const claims = (event as EventWithAuthorizer).requestContext?.authorizer?.jwt?.claims;
  if (claims) return callerFromClaims(claims) ?? undefined;
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const match = header?.match(/^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i);
  if (!match) return undefined;
  const config = loadConfig('JWT_ISSUER', 'JWT_AUDIENCE', 'JWKS_URL');
  try {
    const { payload } = await jwtVerify(match[1], keySet(config.JWKS_URL), {
      issuer: config.JWT_ISSUER,
      algorithms: ACCEPTED_ALGORITHMS,
      requiredClaims: ['exp', 'sub'],
    });
    if (!audienceMatches(payload as Record<string, unknown>, config.JWT_AUDIENCE)) return undefined;
    return callerFromClaims(payload as Record<string, unknown>) ?? undefined;
  } catch {
    return undefined;
  }
}
