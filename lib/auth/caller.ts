import { BSP_PERMISSION, type Caller } from '#lib/domain/shared/caller.ts';
import { type ClaimNames, claimNames } from './claim-names.ts';

/**
 * API Gateway's JWT authorizer hands claims over flattened to strings: an array claim arrives as
 * "[a b c]". Verified tokens give real arrays. Both are read the same way here; undefined when the claim is
 * neither a list nor text.
 */
function listClaim(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.startsWith('[') && text.endsWith(']')) {
    const inner = text.slice(1, -1).trim();
    if (inner === '') return [];
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      /* not JSON: API Gateway's space-separated form */
    }
    return inner.split(/[\s,]+/).filter(Boolean);
  }
  return text.split(/[\s,]+/).filter(Boolean);
}

/** A word of API Gateway's flattened list that is not a plain string: a nested list, an object or JSON text. */
const NOT_A_WORD = /["[\]{}]/;

/**
 * The permissions a claim grants (decisions §32): only a flat list of strings counts, as a verified token's array
 * or as API Gateway's flattening of one ("[a b]"). Anything else grants none, whatever it holds: a nested list
 * (`[["BSP_CN"]]`, flattened "[[BSP_CN]]"), a list with an item that is not a string, a bare string ("BSP_CN",
 * which no array flattens to) or JSON text in a string (API Gateway never writes quotes).
 */
export function permissionsClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string') ? value : [];
  if (typeof value !== 'string') return [];
  const flattened = value.trim().match(/^\[(.*)\]$/s);
  const words = flattened?.[1].split(/[\s,]+/).filter(Boolean) ?? [];
  return words.some((word) => NOT_A_WORD.test(word)) ? [] : words;
}

/**
 * An id a claim carries: a safe positive integer, or its decimal digits (decisions §1 accepts a numeric string,
 * and API Gateway flattens every claim to text). Anything else (1e21, 2^53, 0, -1, 1.5, "07", "1e3") is no id:
 * such a number would name no key the table can hold (decisions §29).
 */
export function claimedId(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Every id of a list claim, or undefined when one of them is no id. */
function claimedIds(value: unknown): number[] | undefined {
  const ids = listClaim(value)?.map(claimedId);
  return ids?.every((id) => id !== undefined) ? (ids as number[]) : undefined;
}

/** The settings are read once per process (a cold start), not at every request. */
let settled: ClaimNames | undefined;
const processClaimNames = () => (settled ??= claimNames());

/**
 * Returns null when the claims do not describe a caller this service accepts: no subject, or a client id or
 * campaign id that is not a safe positive integer (decisions §29). The claim names are settings (decisions §17),
 * the defaults those of decisions §1.
 */
export function callerFromClaims(claims: Record<string, unknown>, names: ClaimNames = processClaimNames()): Caller | null {
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') return null;
  const clientId = claimedId(claims[names.clientId]);
  const campaigns = claimedIds(claims[names.campaigns]);
  if (clientId === undefined || campaigns === undefined) return null;
  const permissions = permissionsClaim(claims[names.permissions]);
  return {
    sub,
    clientId,
    permissions,
    campaigns,
    role: typeof claims.role === 'string' ? claims.role : undefined,
    isBsp: permissions.includes(BSP_PERMISSION),
  };
}
