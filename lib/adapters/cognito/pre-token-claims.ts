import { claimedId } from '#lib/auth/caller.ts';
import type { ClaimNames } from '#lib/auth/claim-names.ts';

/** The user attributes the stack's user pool keeps (custom:client_id, custom:permissions, custom:campaigns). */
export type UserAttributes = Record<string, string | undefined>;

const words = (value: string | undefined) => (value ?? '').split(/[\s,]+/).filter(Boolean);

/**
 * The claims a user's access token gets: the client id as a number, permissions and campaigns as lists (each
 * attribute space- or comma-separated). A user without a client id gets none of them, so every route refuses it;
 * a campaign that is no id is left out, as the service would refuse a token carrying it (decisions §29).
 */
export function preTokenClaims(attributes: UserAttributes, names: ClaimNames): Record<string, string | number | string[]> {
  const clientId = claimedId(attributes['custom:client_id']?.trim());
  if (clientId === undefined) return {};
  return {
    [names.clientId]: clientId,
    [names.permissions]: words(attributes['custom:permissions']),
    [names.campaigns]: words(attributes['custom:campaigns']).filter((c) => claimedId(c) !== undefined),
  };
}
