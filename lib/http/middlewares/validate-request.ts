import * as v from 'valibot';
import type { RouteRequest } from '#lib/routes.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import { badRequest } from '../api-error.ts';
import type { HttpMiddleware, HttpRequest } from '../context.ts';

/** Decisions §12: 1 to 255 printable ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** Parses with a schema; a failure is a 400 whose details name every failing field. */
function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, message: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (!result.success) throw badRequest(message, issuesToDetails(result.issues));
  return result.output;
}

/**
 * Validates path parameters, query and body against the route's schemas and sets `context.input`; a failure
 * is one 400 whose details name every failing field.
 */
export const validateRequest = (spec: RouteRequest = {}): HttpMiddleware => {
  const message = spec.invalidMessage ?? 'Request validation failed';
  return {
    before: (request) => {
      const event = request.event;
      const input: NonNullable<HttpRequest['context']['input']> = {};
      if (spec.path) input.path = parseOrThrow(spec.path, event.pathParameters ?? {}, message);
      if (spec.query) input.query = parseOrThrow(spec.query, event.queryStringParameters ?? {}, message);
      if (spec.body) {
        const absent = event.body === undefined || event.body === null || (event.body as unknown) === '';
        const dryRun = spec.dryRun && event.queryStringParameters?.dry_run === 'true';
        if (absent && !spec.bodyOptional && !dryRun) throw badRequest('Request body is required');
        if (dryRun) {
          input.raw = absent ? undefined : event.body;
          const result = v.safeParse(spec.body, absent ? undefined : event.body, { abortPipeEarly: true });
          if (result.success) input.body = result.output;
          else input.invalid = absent ? [{ path: '', message: 'Request body is required' }] : issuesToDetails(result.issues);
        } else input.body = parseOrThrow(spec.body, absent ? {} : event.body, message);
      }
      if (spec.idempotencyKey) {
        const key = event.headers?.['idempotency-key'];
        if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
          throw badRequest('Idempotency-Key must be 1 to 255 printable characters', [
            { path: 'Idempotency-Key', message: 'must be 1 to 255 printable characters' },
          ]);
        }
        input.idempotencyKey = key;
      }
      request.context.input = input;
    },
  };
};
