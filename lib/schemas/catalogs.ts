import * as v from 'valibot';
import { textParam, wholeNumberParam } from './common.ts';

export const DidPath = v.object({
  did: v.pipe(v.string(), v.trim(), v.minLength(1, 'did is required'), v.maxLength(64)),
});

export const ListCatalogsQuery = v.object({ client_id: v.optional(v.string()) });

export const ListProductsQuery = v.object({
  catalog_id: v.optional(textParam),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(1024))),
  limit: v.optional(wholeNumberParam),
  client_id: v.optional(v.string()),
});
