import * as v from 'valibot';
import { checkNamedAreOwn, type OwnershipLookup } from '#lib/domain/shared/tenancy.ts';
import type { RouteRequest } from '#lib/manifest/route.ts';
import type { HttpMiddleware } from '../context.ts';

/**
 * The tenant's check before the body is read (decisions §1, issue 32): what the path names (a DID, a template
 * record) must be the caller's own, or the request ends here with the use case's own 403 / 404. A path its
 * schema refuses is left to validation: a 400 tells nothing of another tenant.
 */
export const ownedPath = (spec: RouteRequest, lookup: OwnershipLookup): HttpMiddleware => ({
  before: async (request) => {
    const caller = request.context.caller;
    const owned = spec.owned;
    if (!caller || !owned || !spec.path) return;
    const parsed = v.safeParse(spec.path, request.event.pathParameters ?? {});
    if (!parsed.success) return;
    const params = parsed.output as Record<string, string>;
    await checkNamedAreOwn(lookup, caller, {
      did: owned.did === undefined ? undefined : params[owned.did],
      recordId: owned.record === undefined ? undefined : params[owned.record],
    });
  },
});
