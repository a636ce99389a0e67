import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteDef } from '#lib/manifest/route.ts';
import { ApiError, notFound } from './api-error.ts';
import { toErrorResponse } from './error-response.ts';
import { matchPath } from './match-path.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | undefined>;

/** The routes a function with a URL answers there: its own and those it also serves (lib/manifest/route.ts `functionUrl`). */
export const servedAtUrl = (route: RouteDef) => [route, ...(route.functionUrl?.alsoServes ?? [])];

/**
 * A route's function that has a Lambda function URL too (issue 54): the HTTP API's requests go to the route's
 * handler as before; a request to the URL (payload 2.0 as the HTTP API's, its route `$default`) goes to the
 * handler of the served route its method and path match, as if that route had been called, and anything else is
 * a 404, or a 405 on a served path, in the contract's error shape.
 */
export function withFunctionUrl(route: RouteDef, handlers: Record<string, Handler>): Handler {
  const served = servedAtUrl(route);
  for (const each of served) if (!handlers[each.name]) throw new Error(`${route.name}'s URL serves ${each.name}: pass its handler`);
  return async (event, context) => {
    if (event.routeKey !== '$default') return handlers[route.name](event, context);
    const method = event.requestContext?.http?.method ?? 'GET';
    const path = event.rawPath ?? '/';
    const onPath = served.filter((each) => matchPath(each.path, path));
    const match = onPath.find((each) => each.method === method);
    if (!match) {
      const error =
        onPath.length > 0
          ? new ApiError(405, 'method_not_allowed', `Method ${method} not allowed; use ${onPath.map((each) => each.method).join(', ')}`)
          : notFound(`No route for ${method} ${path}`);
      return toErrorResponse(error, event.requestContext?.requestId ?? context.awsRequestId);
    }
    const routeKey = `${match.method} ${match.path}`;
    return handlers[match.name]({ ...event, routeKey, requestContext: { ...event.requestContext, routeKey } }, context);
  };
}
