/**
 * The contract's error model (decisions §2). Every failure a client can cause is an ApiError;
 * the HTTP error middleware turns it into `{message, code, details?, request_id}`.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new ApiError(400, 'validation_failed', message, details);
export const unauthorized = () => new ApiError(401, 'unauthorized', 'Unauthorized');
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
export const unprocessable = (message: string, details?: ErrorDetail[]) =>
  new ApiError(422, 'unprocessable', message, details);
export const payloadTooLarge = (message: string) => new ApiError(413, 'payload_too_large', message);
export const upstreamUnavailable = (message = 'External service unreachable') =>
  new ApiError(502, 'upstream_unavailable', message);
