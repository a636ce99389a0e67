import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError, notFound } from '#lib/http/api-error.ts';
import { toErrorResponse } from '#lib/http/error-response.ts';
import { securityHeaders } from '#lib/http/middlewares/security-headers.ts';
import { matchPath } from '#lib/http/match-path.ts';
import { routes } from '#lib/manifest/routes.ts';
import middy from '@middy/core';

/**
 * The `$default` route: anything the manifest does not know. A known path with another method is a 405
 * (decisions §10), everything else a 404, both in the contract's error shape.
 */
export function unmatchedRoute(method: string, path: string): ApiError {
  const allowed = routes.filter((r) => matchPath(r.path, path)).map((r) => r.method);
  if (allowed.length > 0 && !allowed.includes(method as never)) {
    return new ApiError(405, 'method_not_allowed', `Method ${method} not allowed; use ${allowed.join(', ')}`);
  }
  return notFound(`No route for ${method} ${path}`);
}

export const handler = middy(async (event: APIGatewayProxyEventV2) =>
  toErrorResponse(
    unmatchedRoute(event.requestContext?.http?.method ?? 'GET', event.rawPath ?? '/'),
    event.requestContext?.requestId ?? crypto.randomUUID(),
  ),
).use(securityHeaders() as never);
