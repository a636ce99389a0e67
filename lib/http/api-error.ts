import type { ErrorDetail } from '#lib/domain/shared/errors.ts';

/**
 * The contract's error model (decisions §2) at the HTTP edge: a status, a code and a message. Use cases throw
 * domain errors (lib/domain/shared/errors.ts), mapped in error-response.ts; failures of the edge itself (auth,
 * parsing, validation) are ApiErrors directly.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly figures?: Record<string, number>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new ApiError(400, 'validation_failed', message, details);
export const unauthorized = () => new ApiError(401, 'unauthorized', 'Unauthorized');
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const payloadTooLarge = (message: string) => new ApiError(413, 'payload_too_large', message);
