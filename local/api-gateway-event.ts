import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { RouteDef } from '#lib/manifest/route.ts';

const TEXT_TYPES = /^(application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml)|text\/)/i;

/** An HTTP request as API Gateway sees it: headers lower-cased, one value each. */
export interface HttpRequestParts {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
  protocol: string;
  sourceIp: string;
}

/**
 * The event API Gateway (HTTP API, payload 2.0) would hand the function, without an authorizer context: for the
 * local server's requests and for the sample events of `events/` alike.
 */
export function apiGatewayEvent(
  request: HttpRequestParts,
  route: RouteDef | undefined,
  pathParameters: Record<string, string> | undefined,
  requestId: string,
  now = new Date(),
): APIGatewayProxyEventV2 {
  const { headers, url, body } = request;
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const isText = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? '');
  const routeKey = route ? `${route.method} ${route.path}` : '$default';
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie?.split(';').map((c) => c.trim()),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: pathParameters && Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method,
        path: url.pathname,
        protocol: request.protocol,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
  };
}
