import { claimNameSettings } from '#lib/config.ts';

/**
 * Which token claims carry a caller's client id, permissions and campaigns (decisions §17). Settings, so an
 * identity provider that reserves a name (Cognito access tokens own `client_id`) can be used as it is.
 */
export interface ClaimNames {
  clientId: string;
  permissions: string;
  campaigns: string;
}

/** The names of decisions §1, used when the settings are not given. */
export const CLAIM_DEFAULTS: ClaimNames = { clientId: 'client_id', permissions: 'permissions', campaigns: 'campaigns' };

/** What the stack's Cognito user pool puts in its access tokens (its pre-token-generation trigger). */
export const COGNITO_CLAIMS: ClaimNames = { clientId: 'tms_client_id', permissions: 'tms_permissions', campaigns: 'tms_campaigns' };

/** The settings that name them. */
export const CLAIM_SETTINGS = { clientId: 'CLAIM_CLIENT_ID', permissions: 'CLAIM_PERMISSIONS', campaigns: 'CLAIM_CAMPAIGNS' } as const;

const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_:.-]{0,99}$/;

/** The claim names of this process: the settings where given (and sane), else the defaults. */
export function claimNames(env: Record<string, string | undefined> = claimNameSettings()): ClaimNames {
  const pick = (key: keyof ClaimNames) => {
    const value = env[CLAIM_SETTINGS[key]];
    if (value === undefined || value === '') return CLAIM_DEFAULTS[key];
    if (!CLAIM_NAME.test(value)) throw new Error(`Configuration error: ${CLAIM_SETTINGS[key]} is not a claim name`);
    return value;
  };
  return { clientId: pick('clientId'), permissions: pick('permissions'), campaigns: pick('campaigns') };
}
