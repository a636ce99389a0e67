import { authenticate } from '#lib/auth/authenticate.ts';
import { unauthorized } from '../api-error.ts';
import type { HttpMiddleware } from '../context.ts';

/** Sets `context.caller` from the verified token, or fails with 401 before the body is even parsed. */
export const authenticateCaller = (): HttpMiddleware => ({
  before: async (request) => {
    const caller = await authenticate(request.event);
    if (!caller) throw unauthorized();
    request.context.caller = caller;
  },
});
