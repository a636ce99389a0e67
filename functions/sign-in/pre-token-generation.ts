import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { preTokenClaims } from '#lib/adapters/cognito/pre-token-claims.ts';
import { claimNames } from '#lib/auth/claim-names.ts';
import { logger } from '#lib/log/logger.ts';

/**
 * Cognito's pre-token-generation trigger (V2) of the stack's user pool (decisions §17): the user's client id,
 * permissions and campaigns go into the access token (and the id token) under the configured claim names.
 */
export const handler = async (event: PreTokenGenerationV2TriggerEvent) => {
  // V2 takes numbers and lists of strings as claim values; the type says strings only.
  const claims = preTokenClaims(event.request.userAttributes, claimNames()) as unknown as Record<string, string>;
  if (Object.keys(claims).length === 0)
    logger.warn('user without a client id: token carries no service claims', { sub: event.request.userAttributes.sub });
  event.response = {
    claimsAndScopeOverrideDetails: {
      accessTokenGeneration: { claimsToAddOrOverride: claims },
      idTokenGeneration: { claimsToAddOrOverride: claims },
    },
  };
  return event;
};
