import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { HttpMiddleware, HttpRequest } from '../context.ts';

/**
 * middy's JSON body parser, applied only while the body is still a non-empty string: an absent body is the
 * validator's to judge, and a multipart body was already replaced by its JSON part.
 */
export const jsonBody = (): HttpMiddleware => {
  const parser = httpJsonBodyParser();
  return {
    before: async (request: HttpRequest) => {
      const body = request.event.body;
      if (typeof body === 'string' && body.length > 0 && parser.before) await parser.before(request as never);
    },
  };
};
