import { authenticate } from '#lib/auth/authenticate.ts';
import type { HttpMiddleware } from '../context.ts';

/** Sets `context.caller` from the verified token, or fails with 401 before the body is even parsed. */
export const authenticateCaller = (): HttpMiddleware => ({
  before: async (request) => {
    request.context.caller = await authenticate(request.event);
  },
});
