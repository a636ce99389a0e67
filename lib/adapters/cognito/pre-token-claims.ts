import type { ClaimNames } from '#lib/auth/claim-names.ts';

/** The user attributes the stack's user pool keeps (custom:client_id, custom:permissions, custom:campaigns). */
export type UserAttributes = Record<string, string | undefined>;

const words = (value: string | undefined) => (value ?? '').split(/[\s,]+/).filter(Boolean);

/**
 * The claims a user's access token gets: the client id as a number, permissions and campaigns as lists (each
 * attribute space- or comma-separated). A user without a client id gets none of them, so every route refuses it.
 */
export function preTokenClaims(attributes: UserAttributes, names: ClaimNames): Record<string, string | number | string[]> {
  const clientId = attributes['custom:client_id']?.trim() ?? '';
  if (!/^[1-9][0-9]{0,15}$/.test(clientId)) return {};
  return {
    [names.clientId]: Number(clientId),
    [names.permissions]: words(attributes['custom:permissions']),
    [names.campaigns]: words(attributes['custom:campaigns']).filter((c) => /^[0-9]+$/.test(c)),
  };
}
