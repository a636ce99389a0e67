import * as v from 'valibot';
import type { RouteRequest } from '#lib/manifest/route.ts';
import type { ErrorDetail } from '#lib/domain/shared/errors.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import { badRequest } from '../api-error.ts';
import type { HttpMiddleware, HttpRequest } from '../context.ts';

/** Decisions §12: 1 to 255 printable ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The 400's message: the contract's own wording where it has one for the problem ("invalid client_id: <value>",
 * "url is required"), else the route's. A route whose spec names one message for all its query problems
 * (`queryMessage`) keeps it.
 */
function messageFor(details: ErrorDetail[], input: unknown, spec: RouteRequest, part: 'path' | 'query' | 'body'): string {
  if (part === 'query' && spec.queryMessage) return spec.queryMessage;
  const badClientId = part === 'query' && details.find((d) => d.path === 'client_id');
  if (badClientId) return `invalid client_id: ${(input as { client_id?: string }).client_id}`;
  if (details.length === 1 && details[0].message === 'is required') return `${details[0].path} is required`;
  return spec.invalidMessage ?? 'Request validation failed';
}

/** Parses with a schema; a failure is a 400 whose details name every failing field. */
function parseOrThrow<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  spec: RouteRequest,
  part: 'path' | 'query' | 'body',
): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const details = issuesToDetails(result.issues);
  throw badRequest(messageFor(details, input, spec, part), details);
}

/**
 * Validates path parameters, query and body against the route's schemas and sets `context.input`; a failure
 * is one 400 whose details name every failing field.
 */
export const validateRequest = (spec: RouteRequest = {}): HttpMiddleware => {
  return {
    before: (request) => {
      const event = request.event;
      const input: NonNullable<HttpRequest['context']['input']> = {};
      if (spec.path) input.path = parseOrThrow(spec.path, event.pathParameters ?? {}, spec, 'path');
      if (spec.query) input.query = parseOrThrow(spec.query, event.queryStringParameters ?? {}, spec, 'query');
      if (spec.body) {
        const absent = event.body === undefined || event.body === null || (event.body as unknown) === '';
        const dryRun = event.queryStringParameters?.dry_run === 'true' ? spec.dryRun : undefined;
        if (absent && !spec.bodyOptional && !dryRun) throw badRequest('Request body is required');
        if (dryRun) {
          input.dryRun = true;
          const raw = absent ? undefined : event.body;
          if (dryRun.read) {
            // The route's own reading: what it cannot read at all is a 400, as for the request itself.
            const read = dryRun.read(raw);
            if ('problems' in read) throw badRequest(spec.invalidMessage ?? 'Request validation failed', read.problems);
            input.body = read;
          } else {
            const result = v.safeParse(spec.body, raw, { abortPipeEarly: true });
            if (result.success) input.body = result.output;
            else input.invalid = absent ? [{ path: '', message: 'Request body is required' }] : issuesToDetails(result.issues);
          }
        } else input.body = parseOrThrow(spec.body, absent ? {} : event.body, spec, 'body');
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
