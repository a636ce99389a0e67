import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchPath } from '#lib/http/match-path.ts';
import { routes } from '#lib/manifest/routes.ts';
import type { RouteDef } from '#lib/manifest/route.ts';
import { listenLocally } from './standins/local-server.ts';
import { apiGatewayEvent } from './api-gateway-event.ts';
import { ROOT } from './keys.ts';
import { recordInvocation } from './usage.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** The request being served, so local instrumentation (DynamoDB call counts) can attribute work to it. */
export const currentRequest = new AsyncLocalStorage<{
  requestId: string;
  dynamoDelayMs?: number;
  /** `X-Local-DynamoDB-Fault: writes`: each DynamoDB write of this request fails as the service's own fault. */
  dynamoFault?: 'writes';
  /**
   * The function's own clock, when a test asks for one (`X-Local-Clock: dynamodb`): it moves only by the DynamoDB
   * calls' delays (`X-Local-DynamoDB-Delay-Ms` each), which are then not waited for, so the function's remaining
   * time and every deadline it computes are exact whatever the machine's load.
   */
  virtual?: { spentMs: number };
  crashed?: (error: unknown) => void;
}>();

/**
 * A handler that throws from a callback no promise holds (an event emitter's, a timer's) ends a Lambda runtime:
 * that invocation fails (API Gateway answers 502) and the next one starts cold. Locally the error is taken
 * from the process and given to the invocation it came from (its async context), which answers 502; the stack
 * and every other request go on. An error outside any invocation still ends the process, as Node's default does.
 */
let isolating = false;
function isolateCrashes() {
  if (isolating || process.hasUncaughtExceptionCaptureCallback()) return;
  isolating = true;
  // The capture callback, not a listener: listeners all hear an error (a test runner's would count it as its own).
  process.setUncaughtExceptionCaptureCallback((error) => {
    const crashed = currentRequest.getStore()?.crashed;
    if (crashed) return crashed(error);
    if (process.listenerCount('uncaughtException') > 0)
      (process.emit as (event: string, ...args: unknown[]) => boolean)('uncaughtException', error, 'uncaughtException');
    else {
      console.error(error);
      process.exit(1);
    }
  });
}

/** One invocation of a handler, isolated: a crash of its own answers 502 in the contract's error shape. */
export function invokeIsolated(
  handler: Handler,
  event: APIGatewayProxyEventV2,
  context: Context,
  options: { dynamoDelayMs?: number; dynamoFault?: 'writes'; virtual?: { spentMs: number } } = {},
): Promise<APIGatewayProxyStructuredResultV2> {
  isolateCrashes();
  const requestId = context.awsRequestId;
  return new Promise((resolve, reject) => {
    const crashed = (error: unknown) => {
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'the function crashed: a deployed runtime would end',
          function: context.functionName,
          request_id: requestId,
          error: String(error),
        }),
      );
      resolve(errorBody(502, 'function_crashed', 'The function ended without answering', requestId));
    };
    const request = {
      requestId,
      dynamoDelayMs: options.dynamoDelayMs,
      dynamoFault: options.dynamoFault,
      virtual: options.virtual,
      crashed,
    };
    currentRequest
      .run(request, () => handler(event, context))
      .then(resolve, reject)
      // Work the request left running (a module it imported first, a fill of a shared cache) keeps its store:
      // its fault ends with its answer.
      .finally(() => {
        request.dynamoFault = undefined;
      });
  });
}

/** API Gateway's HTTP API payload limit. */
const MAX_PAYLOAD = 10 * 1024 * 1024;

/** Literal segments win over parameters, as in API Gateway (`/v1/templates/status` before `/v1/templates/{did}`). */
const ROUTES_BY_SPECIFICITY = [...routes].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));

/**
 * Routes whose requests Meta sends to a function URL (lib/manifest/route.ts `functionUrl`, issue 54), with the
 * route whose function has the URL: served here as the URL serves them, that function invoked with the URL's event
 * (payload 2.0, its route `$default`), whichever of its routes the request is.
 */
const URL_OWNERS = new Map(
  routes.flatMap((owner) => (owner.functionUrl ? [owner, ...owner.functionUrl.alsoServes].map((served) => [served.name, owner]) : [])),
);

const handlers = new Map<string, Promise<Handler>>();
/** The route a request reaches, and its path parameters: as API Gateway matches them. */
export function routeFor(method: string, path: string): { route?: RouteDef; params?: Record<string, string> } {
  for (const route of ROUTES_BY_SPECIFICITY) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return {};
}

function loadHandler(entry: string): Promise<Handler> {
  if (!handlers.has(entry)) {
    handlers.set(
      entry,
      import(pathToFileURL(join(ROOT, entry)).href).then((m: { handler: Handler }) => m.handler),
    );
  }
  return handlers.get(entry)!;
}

export function lambdaContext(functionName: string, requestId: string, timeoutMs = 29_000, virtual?: { spentMs: number }): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    awsRequestId: requestId,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, virtual ? timeoutMs - virtual.spentMs : deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The local request as API Gateway's event (local/api-gateway-event.ts). */
function toApiGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  route: RouteDef | undefined,
  pathParameters: Record<string, string> | undefined,
  requestId: string,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const request = {
    method: req.method ?? 'GET',
    url,
    headers,
    body,
    protocol: `HTTP/${req.httpVersion}`,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
  };
  return apiGatewayEvent(request, route, pathParameters, requestId);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_PAYLOAD ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** An answer of the local server itself, in the contract's error shape. */
function errorBody(status: number, code: string, message: string, requestId: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ message, code, request_id: requestId }),
  };
}

function write(res: ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  res.writeHead(result.statusCode ?? 200, (result.headers ?? {}) as Record<string, string>);
  res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
}

export interface ApiServerOptions {
  port: number;
  host: string;
  /** Extra routes served before the manifest's (the local JWKS, the EventBridge endpoint). */
  extra?: (req: IncomingMessage, url: URL, body: Buffer, res: ServerResponse) => Promise<boolean>;
}

/** Serves the manifest's routes by invoking the same handlers the stack deploys. */
export async function startApiServer(options: ApiServerOptions): Promise<{ server: Server; url: string }> {
  const notFound = (await loadHandler('functions/http/route-not-found.ts')) as Handler;
  const server = createServer(async (req, res) => {
    const requestId = randomUUID();
    try {
      // Routing needs only the path: the Host header (which a client may garble) is never parsed.
      // A path that starts with `//` is a path here, never a host (as it is for API Gateway).
      let url: URL;
      try {
        url = new URL(`http://localhost${(req.url ?? '/').startsWith('/') ? req.url : `/${req.url}`}`);
      } catch {
        return write(res, errorBody(400, 'bad_request', 'Malformed request path', requestId));
      }
      const body = await readBody(req);
      if (body === null) return write(res, errorBody(413, 'payload_too_large', 'Request body exceeds the 10 MiB limit', requestId));
      if (options.extra && (await options.extra(req, url, body, res))) return;
      const { route: matched, params } = routeFor(req.method ?? '', url.pathname);
      const owner = matched && URL_OWNERS.get(matched.name);
      const route = owner ?? matched;
      const event = owner
        ? toApiGatewayEvent(req, url, body, undefined, undefined, requestId)
        : toApiGatewayEvent(req, url, body, route, params, requestId);
      const handler = route ? await loadHandler(route.entry) : notFound;
      // A test may shorten the function's time (`X-Local-Function-Timeout-Ms`) and slow its DynamoDB calls
      // (`X-Local-DynamoDB-Delay-Ms`, each call of this request alone), on the function's own clock if it asks
      // (`X-Local-Clock: dynamodb`): the local server's own fault controls, never deployed.
      const timeoutMs = Number(req.headers['x-local-function-timeout-ms']) || undefined;
      const dynamoDelayMs = Number(req.headers['x-local-dynamodb-delay-ms']) || undefined;
      const dynamoFault = req.headers['x-local-dynamodb-fault'] === 'writes' ? ('writes' as const) : undefined;
      const started = performance.now();
      const virtual = req.headers['x-local-clock'] === 'dynamodb' ? { spentMs: 0 } : undefined;
      const result = await invokeIsolated(handler, event, lambdaContext(route?.name ?? 'RouteNotFound', requestId, timeoutMs, virtual), {
        dynamoDelayMs,
        dynamoFault,
        virtual,
      });
      recordInvocation(route?.name ?? 'RouteNotFound', performance.now() - started);
      write(res, result);
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'local server failure', request_id: requestId, error: String(error) }));
      write(res, errorBody(500, 'internal_error', 'Internal server error', requestId));
    }
  });
  // Requests Node refuses before any handler runs (headers too large, malformed request lines) still get the
  // contract's error body, as API Gateway answers them with its own.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const result = tooLarge
      ? errorBody(431, 'request_header_fields_too_large', 'Request headers are too large', randomUUID())
      : errorBody(400, 'bad_request', 'Malformed HTTP request', randomUUID());
    const text = String(result.body);
    socket.end(
      `HTTP/1.1 ${result.statusCode} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
  const { url } = await listenLocally(server, options.host, options.port);
  return { server, url };
}
