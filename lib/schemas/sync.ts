import * as v from 'valibot';
import { clientIdBody, wholeNumberParam } from './common.ts';

export const SyncBody = v.strictObject({ client_id: v.optional(clientIdBody) });

export const SyncStatusQuery = v.object({ client_id: v.optional(wholeNumberParam) });
