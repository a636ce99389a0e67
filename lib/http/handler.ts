import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as v from 'valibot';
import { authenticate } from '#lib/auth/authenticate.ts';
import type { Caller } from '#lib/auth/caller.ts';
import { ApiError, badRequest, payloadTooLarge } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import { parseOrThrow } from './validation.ts';

export interface HttpRequest<Q, B, P> {
  query: Q;
  body: B;
  path: P;
  caller: Caller;
  requestId: string;
  event: APIGatewayProxyEventV2;
  /** The file part of a multipart request, when the function accepts one. */
  file?: UploadedFile;
}

export interface UploadedFile {
  filename: string;
  mimetype: string;
  content: Uint8Array;
}

export interface MultipartSpec {
  /** The part holding the JSON body. */
  jsonPart: string;
  /** The part holding the file. */
  filePart: string;
  maxBytes: number;
}

export interface HttpResult {
  status: number;
  body?: unknown;
}

export interface HttpFunctionSpec<QS extends v.GenericSchema, BS extends v.GenericSchema, PS extends v.GenericSchema> {
  query?: QS;
  body?: BS;
  path?: PS;
  /** Message of the 400 when the query or body fails validation (the spec's wording where it has one). */
  invalidMessage?: string;
  /** Accept multipart/form-data too: a JSON part validated like a JSON body, plus one file. */
  multipart?: MultipartSpec;
  /** An absent body counts as `{}` (endpoints whose every body field is optional). */
  bodyOptional?: boolean;
  /** Skips authentication (only for routes that serve public documents). */
  public?: boolean;
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

const SECURITY_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

function requestIdOf(event: APIGatewayProxyEventV2, context: Context): string {
  return event.requestContext?.requestId || context?.awsRequestId || crypto.randomUUID();
}

export function respond(status: number, body: unknown, requestId: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { ...SECURITY_HEADERS, 'x-request-id': requestId },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/** Maps anything thrown in the pipeline to the contract's error body (decisions §2). */
export function toErrorResponse(error: unknown, requestId: string): APIGatewayProxyStructuredResultV2 {
  if (error instanceof ApiError) {
    const body: Record<string, unknown> = { message: error.message, code: error.code };
    if (error.details?.length) body.details = error.details;
    body.request_id = requestId;
    return respond(error.status, body, requestId);
  }
  // Errors raised by middy's body parsers carry a statusCode: malformed JSON is a client error, never a 500.
  const status = (error as { statusCode?: number })?.statusCode;
  if (status === 415) {
    return toErrorResponse(new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json'), requestId);
  }
  if (status === 413) {
    return toErrorResponse(new ApiError(413, 'payload_too_large', 'Request body exceeds the maximum size'), requestId);
  }
  if (status && status >= 400 && status < 500) {
    return toErrorResponse(badRequest('Malformed request body'), requestId);
  }
  logger.error('unhandled error', { error: error as Error });
  return respond(500, { message: 'Internal server error', code: 'internal_error', request_id: requestId }, requestId);
}

function hasBody(event: APIGatewayProxyEventV2): boolean {
  return typeof event.body === 'string' && event.body.length > 0;
}

/**
 * The one middy stack every HTTP function uses: request id and structured logs, authentication, body parsing,
 * validation, errors and security headers. A function file supplies its schemas and one call into lib/.
 */
export function httpFunction<
  QS extends v.GenericSchema = never,
  BS extends v.GenericSchema = never,
  PS extends v.GenericSchema = never,
>(
  spec: HttpFunctionSpec<QS, BS, PS>,
  run: (request: HttpRequest<Out<QS>, Out<BS>, Out<PS>>) => Promise<HttpResult>,
) {
  const invalid = spec.invalidMessage ?? 'Request validation failed';
  const core = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const requestId = requestIdOf(event, context);
    const caller = callers.get(event) as Caller;
    const query = spec.query ? parseOrThrow(spec.query, event.queryStringParameters ?? {}, invalid) : undefined;
    const path = spec.path ? parseOrThrow(spec.path, event.pathParameters ?? {}, invalid) : undefined;
    let body: unknown;
    if (spec.body) {
      const absent = event.body === undefined || event.body === null || (event.body as unknown) === '';
      if (absent && !spec.bodyOptional) throw badRequest('Request body is required');
      body = parseOrThrow(spec.body, absent ? {} : event.body, invalid);
    }
    const result = await run({
      query: query as Out<QS>,
      body: body as Out<BS>,
      path: path as Out<PS>,
      caller,
      requestId,
      event,
      file: files.get(event),
    });
    return respond(result.status, result.body, requestId);
  };

  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(core);
  const started = new WeakMap<object, number>();
  const callers = new WeakMap<object, Caller>();
  const files = new WeakMap<object, UploadedFile>();
  type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;
  // One structured line per request, whether it succeeded or failed; nothing from headers or bodies.
  const logRequest = (request: Request) => {
    logger.info('request', {
      method: request.event.requestContext?.http?.method,
      route: request.event.routeKey,
      status: request.response?.statusCode,
      duration_ms: Date.now() - (started.get(request) ?? Date.now()),
    });
    logger.resetKeys();
  };
  handler.use({
    before: (request) => {
      started.set(request, Date.now());
      logger.appendKeys({ request_id: requestIdOf(request.event, request.context) });
    },
    after: logRequest,
    onError: (request) => {
      request.response = toErrorResponse(request.error, requestIdOf(request.event, request.context));
      logRequest(request);
    },
  });
  if (!spec.public) {
    // Authenticate before touching the body, so an anonymous caller learns nothing about validation.
    handler.use({
      before: async (request) => {
        callers.set(request.event, await authenticate(request.event));
      },
    });
  }
  if (spec.body) {
    if (spec.multipart) handler.use(multipartToJson(spec.multipart, files));
    // Parse JSON only when the body is still a string: a multipart parser before this one may have replaced it.
    const json = httpJsonBodyParser();
    handler.use({
      before: async (request) => {
        if (hasBody(request.event) && json.before) await json.before(request as never);
      },
    });
  }
  return handler;
}

const isMultipart = (event: APIGatewayProxyEventV2) =>
  /^multipart\/form-data/i.test(event.headers?.['content-type'] ?? event.headers?.['Content-Type'] ?? '');

/**
 * File mode: the size is checked before parsing (413 over the limit), middy's multipart parser splits the
 * parts, and the JSON part becomes the body the function's schema validates, so both modes share one check.
 */
function multipartToJson(spec: MultipartSpec, files: WeakMap<object, UploadedFile>): middy.MiddlewareObj<APIGatewayProxyEventV2> {
  const parser = httpMultipartBodyParser({ busboy: { limits: { fileSize: spec.maxBytes, files: 1, fields: 5 } } });
  return {
    before: async (request) => {
      const event = request.event;
      if (!isMultipart(event) || typeof event.body !== 'string') return;
      const size = event.isBase64Encoded ? Buffer.byteLength(event.body, 'base64') : Buffer.byteLength(event.body);
      if (size > spec.maxBytes) throw payloadTooLarge(`Multipart body exceeds ${spec.maxBytes} bytes`);
      await parser.before!(request as never);
      const parts = (event.body ?? {}) as unknown as Record<string, unknown>;
      const unknown = Object.keys(parts).filter((name) => name !== spec.jsonPart && name !== spec.filePart);
      if (unknown.length > 0) throw badRequest('Unknown multipart parts', unknown.map((path) => ({ path, message: 'Unknown part' })));
      const json = parts[spec.jsonPart];
      if (typeof json !== 'string') throw badRequest(`The ${spec.jsonPart} part is required`, [{ path: spec.jsonPart, message: 'is required' }]);
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        throw badRequest(`The ${spec.jsonPart} part is not valid JSON`, [{ path: spec.jsonPart, message: 'must be JSON' }]);
      }
      const file = parts[spec.filePart] as { filename?: string; mimetype?: string; content?: Buffer } | undefined;
      if (file !== undefined) {
        if (!file?.content) throw badRequest(`The ${spec.filePart} part must be a file`, [{ path: spec.filePart, message: 'must be a file' }]);
        files.set(event, { filename: file.filename ?? 'upload', mimetype: (file.mimetype ?? '').toLowerCase(), content: file.content });
      }
      (event as { body: unknown }).body = parsed;
    },
  };
}
