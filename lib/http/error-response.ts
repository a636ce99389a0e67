import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  Conflict,
  DomainError,
  Forbidden,
  InvalidRequest,
  NotFound,
  Unprocessable,
  UpstreamRejected,
  UpstreamUnavailable,
} from '#lib/domain/shared/errors.ts';
import { isServiceUnavailable } from '#lib/adapters/aws/service-unavailable.ts';
import { logger } from '#lib/log/logger.ts';
import { errorForLog } from '#lib/log/source-mapped-stack.ts';
import { ApiError, badRequest } from './api-error.ts';
import { jsonResponse, type HttpMiddleware } from './context.ts';

/** The contract's status and code of each domain error (decisions §2). */
function fromDomain(error: DomainError): ApiError {
  if (error instanceof InvalidRequest) return new ApiError(400, 'validation_failed', error.message, error.details);
  if (error instanceof UpstreamRejected) return new ApiError(400, 'upstream_rejected', `Upstream refused the request: ${error.message}`);
  if (error instanceof Forbidden) return new ApiError(403, 'forbidden', error.message);
  if (error instanceof NotFound) return new ApiError(404, 'not_found', error.message);
  if (error instanceof Conflict) return new ApiError(409, error.reason ?? 'conflict', error.message, undefined, error.figures);
  if (error instanceof Unprocessable) return new ApiError(422, error.reason ?? 'unprocessable', error.message, error.details);
  if (error instanceof UpstreamUnavailable) return new ApiError(502, 'upstream_unavailable', error.message);
  return new ApiError(500, 'internal_error', 'Internal server error');
}

/** Errors raised by middy's body parsers carry a statusCode: malformed input is a client error, never a 500. */
function fromParser(status: number): ApiError | undefined {
  if (status === 415) return new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
  if (status === 413) return new ApiError(413, 'payload_too_large', 'Request body exceeds the maximum size');
  if (status >= 400 && status < 500) return badRequest('Malformed request body');
  return undefined;
}

/** A service this request needs (the table, a queue) failed for its own sake: the caller may try again. */
const serviceUnavailable = () =>
  new ApiError(502, 'upstream_unavailable', 'A service this request needs did not answer: try again shortly');

/** Maps anything thrown to the contract's error body `{message, code, details?, request_id}`. */
export function toErrorResponse(error: unknown, requestId: string): APIGatewayProxyStructuredResultV2 {
  const parserStatus = (error as { statusCode?: number })?.statusCode;
  const known =
    error instanceof ApiError
      ? error
      : error instanceof DomainError
        ? fromDomain(error)
        : isServiceUnavailable(error)
          ? serviceUnavailable()
          : typeof parserStatus === 'number'
            ? fromParser(parserStatus)
            : undefined;
  if (!known || known.status >= 500) {
    logger.error(known ? 'request failed' : 'unhandled error', { error: errorForLog(error) });
  }
  const api = known ?? new ApiError(500, 'internal_error', 'Internal server error');
  const body: Record<string, unknown> = { message: api.message, code: api.code };
  if (api.details?.length) body.details = api.details;
  if (api.figures) Object.assign(body, api.figures);
  body.request_id = requestId;
  return jsonResponse(api.status, body, requestId);
}

/** onError: the response becomes the contract's error body. */
export const errorResponse = (): HttpMiddleware => ({
  onError: (request) => {
    request.response = toErrorResponse(request.error, request.context.requestId ?? 'unknown');
  },
});
