import * as v from 'valibot';
import { clientIdParam, wholeNumberParam } from './common.ts';

export const DidPath = v.object({
  did: v.pipe(v.string(), v.trim(), v.minLength(1, 'did is required'), v.maxLength(64)),
});

export const ListCatalogsQuery = v.object({ client_id: v.optional(clientIdParam) });

export const ListProductsQuery = v.object({
  catalog_id: v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(512)),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(1024))),
  limit: v.optional(wholeNumberParam),
  client_id: v.optional(clientIdParam),
});

export const ListCatalogsResponse = v.object({
  data: v.array(v.object({ id: v.string(), name: v.optional(v.string()), vertical: v.optional(v.string()) })),
});

/** Products as the upstream describes them (spec §4), passed through. */
export const ListProductsResponse = v.object({
  data: v.array(v.looseObject({ id: v.string() })),
  paging: v.object({
    cursors: v.object({ before: v.optional(v.string()), after: v.optional(v.string()) }),
    next: v.optional(v.string()),
  }),
});
