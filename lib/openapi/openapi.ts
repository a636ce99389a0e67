import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { routes } from '#lib/manifest/routes.ts';
import type { RouteDef } from '#lib/manifest/route.ts';
import { ErrorDetailShape } from '#lib/schemas/common.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid token',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  422: 'Unprocessable',
  500: 'Internal error',
  502: 'Upstream unavailable',
};

const TAGS: Record<string, string> = {
  'client-msg-channels': 'Client messaging channels (the directory)',
  webhook: 'Webhook notification configuration',
  'openapi.json': 'This document',
  console: 'The operator’s console: one page for a browser',
  templates: 'Template records, creation, edits, assignments and status',
  template: 'Sending templates',
  catalogs: 'Commerce catalogs and products',
  usage:
    'What delivered messages cost. Prices come from Meta’s rate cards kept in the repository (lib/domain/money/pricing/cards/: one file per effective date and currency, every market and category, two sources each); docs/rate-cards.md says how to add a card and how its tests check it against every region libphonenumber-js knows and a second source.',
};

/** A route's tag: its area, the path's segment after /v1 (the console's pages have no /v1). */
const tagOf = (route: RouteDef) => (route.path.startsWith('/v1/') ? route.path.split('/')[2] : route.path.split('/')[1]);

/** OpenAPI 3.1's schemas are JSON Schema 2020-12 (a tuple is `prefixItems`, not draft 7's `items` array). */
const schemaOf = (schema: v.GenericSchema) => {
  const { $schema: _drop, ...json } = toJsonSchema(schema, { errorMode: 'ignore', target: 'draft-2020-12' }) as Record<string, unknown>;
  return json;
};

function parameters(route: RouteDef) {
  const out: Record<string, unknown>[] = [];
  for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
    out.push({ name: match[1], in: 'path', required: true, description: route.params?.[match[1]] ?? match[1], schema: { type: 'string' } });
  }
  const query = route.request?.query ? schemaOf(route.request.query) : undefined;
  const props = (query?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((query?.required as string[] | undefined) ?? []);
  for (const [name, schema] of Object.entries(props)) {
    out.push({ name, in: 'query', required: required.has(name), schema });
  }
  if (route.request?.idempotencyKey) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Retries with the same key and body answer the first response (decisions §12), for 24 hours',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return out;
}

/** The other types a success body is answered as, by the caller's `Accept`: CSV rows, a PDF document. */
function alternatives(route: RouteDef) {
  const types = [...(route.csv ? ['text/csv'] : []), ...(route.renders ?? [])];
  return Object.fromEntries(
    [...new Set(types)].map((type) => [
      type,
      { schema: type === 'application/pdf' ? { type: 'string', format: 'binary' } : { type: 'string' } },
    ]),
  );
}

function operation(route: RouteDef) {
  const signedByMeta = route.request?.signedBy === 'meta';
  const requestBody = route.request?.body ? jsonRequestBody(route, route.request.body) : signedByMeta ? metaNotificationBody() : undefined;
  return {
    operationId: route.name[0].toLowerCase() + route.name.slice(1),
    summary: route.summary,
    tags: [tagOf(route)],
    parameters: [...parameters(route), ...(signedByMeta ? [metaSignatureHeader()] : [])],
    responses: responses(route),
    security: route.auth ? [{ bearerAuth: [] }] : [],
    ...(requestBody && { requestBody }),
  };
}

/** The route's success, then each error it may answer, by status. */
function responses(route: RouteDef) {
  const success = schemaOf(route.response);
  const dryRun = route.request?.dryRun;
  const responses: Record<string, unknown> = {
    [route.success]: route.produces
      ? { description: `Success, as ${route.produces}`, content: { [route.produces]: { schema: success } } }
      : dryRun
        ? {
            description: 'The result; with `?dry_run=true`, the dry run’s answer instead',
            content: { 'application/json': { schema: { oneOf: [success, schemaOf(dryRun.response)] } } },
          }
        : { description: 'Success', content: { 'application/json': { schema: success }, ...alternatives(route) } },
  };
  for (const status of documentedErrors(route)) {
    responses[status] = { $ref: `#/components/responses/Error${status}` };
  }
  return responses;
}

/**
 * A route's error statuses: its own; 401 behind the authorizer or Meta's signature (a bad one is a 401 as a bad
 * token is elsewhere); 502 where it uses the table or a queue (one failing for its own sake, try again:
 * lib/adapters/aws/service-unavailable.ts); and 500.
 */
export function documentedErrors(route: RouteDef): number[] {
  const signed = route.auth || route.request?.signedBy !== undefined;
  const usesAws = route.needs.table !== 'none' || (route.needs.queues?.length ?? 0) > 0;
  return [...new Set([...route.errors, ...(signed ? [401] : []), ...(usesAws ? [502] : []), 500])].sort();
}

/** The header Meta signs its calls with. */
const metaSignatureHeader = () => ({
  name: 'X-Hub-Signature-256',
  in: 'header',
  required: true,
  description: '`sha256=<hex HMAC-SHA256 of the raw body with the Meta app secret>`',
  schema: { type: 'string' },
});

/** What Meta's webhook calls carry. */
const metaNotificationBody = () => ({
  required: true,
  content: {
    'application/json': {
      schema: { type: 'object', description: 'Meta’s notification: `{object, entry: [{id, time, changes: [{field, value}]}]}`' },
    },
  },
});

/** The route's JSON body, and on routes that accept a file, the multipart form that carries it beside the file. */
function jsonRequestBody(route: RouteDef, body: v.GenericSchema) {
  const content: Record<string, unknown> = { 'application/json': { schema: schemaOf(body) } };
  const multipart = route.request?.multipart;
  if (multipart) {
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: [multipart.jsonPart],
        properties: {
          [multipart.jsonPart]: { type: 'string', description: 'The JSON body' },
          [multipart.filePart]: { type: 'string', format: 'binary', description: `At most ${multipart.maxBytes} bytes in all` },
        },
      },
    };
  }
  return { required: !route.request?.bodyOptional, content };
}

/** The OpenAPI 3.1 document, built from the route manifest and the same valibot schemas that validate requests. */
export function openApiDocument(serverUrl = '/') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route);
  }
  const errorResponses: Record<string, unknown> = {};
  const used = new Set(routes.flatMap(documentedErrors));
  for (const status of [...used].sort()) {
    errorResponses[`Error${status}`] = {
      description: STATUS_TEXT[Number(status)],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Template Messaging Service',
      version: '1.0.0',
      description: 'Multi-client management and dispatch layer for WhatsApp Business message templates.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['message', 'code', 'request_id'],
          properties: {
            message: { type: 'string' },
            code: { type: 'string' },
            details: {
              type: 'array',
              items: schemaOf(ErrorDetailShape),
            },
            request_id: { type: 'string' },
          },
        },
      },
      responses: errorResponses,
    },
  };
}
