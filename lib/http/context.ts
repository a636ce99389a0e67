import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type middy from '@middy/core';
import type { Caller } from '#lib/domain/shared/caller.ts';
import type { ErrorDetail } from '#lib/domain/shared/errors.ts';

/** A file part of a multipart request. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  content: Uint8Array;
}

/**
 * What the middlewares hand each other and the handler, on middy's `request.context` (as middy's own
 * middlewares do): each middleware sets one field and reads only the ones set before it.
 */
export interface ServiceContext extends Context {
  /** Set by requestContext: API Gateway's request id (or the invocation's). */
  requestId: string;
  /** Set by authenticateCaller. */
  caller?: Caller;
  /** Set by multipartBody when the request carried a file. */
  file?: UploadedFile;
  /** Set by metaSignature: the body as it arrived, once its signature is verified. */
  rawBody?: string;
  /** Set by validateRequest: the parsed path, query and body; in a dry run, the body's problems instead. */
  input?: { path?: unknown; query?: unknown; body?: unknown; dryRun?: boolean; invalid?: ErrorDetail[]; idempotencyKey?: string };
}

export type HttpRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ServiceContext>;
export type HttpMiddleware = middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ServiceContext>;

/** A JSON response of the service (security headers are added by their own middleware). */
export function jsonResponse(status: number, body: unknown, requestId: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': requestId },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/** A plain-text response (Meta's verification handshake answers its challenge as text/plain). */
export function textResponse(
  status: number,
  body: string,
  requestId: string,
  type: 'text/plain' | 'text/html' | 'text/csv' = 'text/plain',
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store', 'x-request-id': requestId },
    body,
  };
}

/** A body rendered as another type than JSON: text as is, bytes (a PDF) base64 with `isBase64Encoded`, as API Gateway wants. */
export function renderedResponse(
  status: number,
  type: 'text/csv' | 'application/pdf',
  body: string | Uint8Array,
  requestId: string,
): APIGatewayProxyStructuredResultV2 {
  if (typeof body === 'string') return textResponse(status, body, requestId, type === 'text/csv' ? 'text/csv' : 'text/plain');
  return {
    statusCode: status,
    headers: { 'content-type': type, 'cache-control': 'no-store', 'x-request-id': requestId },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
  };
}
