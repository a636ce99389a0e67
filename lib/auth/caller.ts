import * as v from 'valibot';
import { BSP_PERMISSION, type Caller } from '#lib/domain/caller.ts';
import { type ClaimNames, claimNames } from './claim-names.ts';

/**
 * API Gateway's JWT authorizer hands claims over flattened to strings: an array claim arrives as
 * "[a b c]". Verified tokens give real arrays. Both are read the same way here.
 */
function listClaim(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[') && text.endsWith(']')) {
      const inner = text.slice(1, -1).trim();
      if (inner === '') return [];
      try {
        const parsed = JSON.parse(text);
        if (Array.isArray(parsed)) return parsed.map(String);
      } catch {
        /* not JSON: API Gateway's space-separated form */
      }
      return inner.split(/[\s,]+/).filter(Boolean);
    }
    return text.split(/[\s,]+/).filter(Boolean);
  }
  return [];
}

const ClientIdClaim = v.union([
  v.pipe(v.number(), v.integer(), v.minValue(1)),
  v.pipe(v.string(), v.regex(/^[1-9][0-9]*$/), v.transform(Number)),
]);

/** The settings are read once per process (a cold start), not at every request. */
let settled: ClaimNames | undefined;
const processClaimNames = () => (settled ??= claimNames());

/**
 * Returns null when the claims do not describe a caller this service accepts. The claim names are settings
 * (decisions §17), the defaults those of decisions §1.
 */
export function callerFromClaims(claims: Record<string, unknown>, names: ClaimNames = processClaimNames()): Caller | null {
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') return null;
  const client = v.safeParse(ClientIdClaim, claims[names.clientId]);
  if (!client.success) return null;
  const permissions = listClaim(claims[names.permissions]);
  const campaigns = listClaim(claims[names.campaigns])
    .map(Number)
    .filter((n) => Number.isInteger(n));
  return {
    sub,
    clientId: client.output,
    permissions,
    campaigns,
    role: typeof claims.role === 'string' ? claims.role : undefined,
    isBsp: permissions.includes(BSP_PERMISSION),
  };
}
