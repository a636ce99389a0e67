import * as v from 'valibot';
import { clientIdBody } from './common.ts';

export const SyncBody = v.strictObject({ client_id: v.optional(clientIdBody) });
