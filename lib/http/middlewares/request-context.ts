import { logger } from '#lib/log/logger.ts';
import type { HttpMiddleware, HttpRequest } from '../context.ts';

const started = new WeakMap<object, number>();

/**
 * Names the request (API Gateway's request id, else the invocation's) on the context and in every log line,
 * and writes one structured line per request, whether it succeeded or failed: never headers or bodies.
 */
export const requestContext = (): HttpMiddleware => {
  const logRequest = (request: HttpRequest) => {
    logger.info('request', {
      method: request.event.requestContext?.http?.method,
      route: request.event.routeKey,
      status: request.response?.statusCode,
      duration_ms: Date.now() - (started.get(request) ?? Date.now()),
    });
  };
  return {
    before: (request) => {
      started.set(request, Date.now());
      const requestId = request.event.requestContext?.requestId || request.context?.awsRequestId || crypto.randomUUID();
      request.context.requestId = requestId;
      // The invocation's logger (httpFunction) names the function; the request id is also the correlation id its
      // events, jobs and deliveries carry on (decisions §15).
      logger.appendKeys({ request_id: requestId, correlation_id: requestId });
    },
    after: logRequest,
    onError: logRequest,
  };
};
