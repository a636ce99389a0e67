import fc from 'fast-check';
import { openApiDocument } from '#lib/openapi/openapi.ts';
import type { RouteDef } from '#lib/manifest/route.ts';
import { routes } from '#lib/manifest/routes.ts';
import { type HostileClaims, hostileClaims } from './hostile-claims.ts';

/**
 * Requests a hostile client might send to any route of the manifest: real paths with junk in their
 * parameters (bad percent-escapes included), junk queries, bodies that are arbitrary JSON, near-valid
 * templates and sends with one part broken, malformed JSON, multipart forms with parts lacking a name, a
 * filename or a content type (duplicated, empty, unclosed), every query parameter and body field the OpenAPI
 * document names set to an edge (numbers up to 2^53 and past it, wrong types), odd content types, and tokens
 * that are valid, missing or forged, and tokens whose claims carry ids no key can hold (1e21, 2^53, 0, -1,
 * 1.5, NaN-ish and huge strings, in the client id, the campaigns and a channels claim; decisions §29), which
 * must be answered 401. Used by the generated-input test and by
 * `npm run hostile` (scripts/hostile-run.ts).
 */
export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Which token to send: a valid one for client 7, a BSP one, none, a forged one, or one signed with `claims`. */
  auth: 'client' | 'bsp' | 'none' | 'forged' | 'claims';
  /** The claims of a token of `auth: 'claims'`, and whether the service must refuse them with 401. */
  claims?: HostileClaims;
}

/** The tokens a run sends: three minted once, and a signer for the generated claims. */
export interface HostileTokens {
  client: string;
  bsp: string;
  forged: string;
  sign: (claims: Record<string, unknown>) => Promise<string>;
}

const segment = fc.oneof(
  fc.constantFrom('5215550001', '5511990021', '65a1b2c3d4e5f60718293a4b', '%E0%A4%A', '%', '%00', '..', '%2F', 'sync-from-meta', 'status'),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{1,30}$/),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const queryValue = fc.oneof(
  fc.constantFrom('', '0', '-1', '7', '1e9', 'true', 'x', '%', '%ZZ', '[]'),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);
const queryKey = fc.constantFrom(
  'client_id',
  'page',
  'size',
  'limit',
  'cursor',
  'catalog_id',
  'deleted',
  'fields',
  'state',
  'name',
  'channel_id',
  'campaign_id',
  'did',
  'q',
  'x',
);
const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

const validTemplate = {
  name: 'hostile_template',
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['x']] } }],
};
const validSend = {
  did: '5215550001',
  type: 'template',
  channel: 'MSGCHAN',
  template: { name: 'order_update', language: 'es' },
  recipients: [{ to: '5215550009', params: { body: ['a'] } }],
};

/** A valid body with one field replaced by anything at all. */
const brokenField = (valid: Record<string, unknown>) =>
  fc
    .tuple(fc.constantFrom(...Object.keys(valid), 'surprise'), fc.jsonValue())
    .map(([key, value]) => JSON.stringify({ ...valid, [key]: value }));

const nested = fc.nat({ max: 60 }).map((depth) => {
  let value: unknown = { type: 'BODY', text: 'x' };
  for (let i = 0; i < depth; i++) value = { inner: value };
  return JSON.stringify({ ...validTemplate, components: [value] });
});

const body = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  brokenField(validTemplate),
  brokenField(validSend),
  fc.constantFrom(
    '{',
    '{"a":',
    'null',
    '[]',
    '"x"',
    '{"components":[{"type":"CAROUSEL","cards":[{"components":[null]},{"components":[null]}]}]}',
  ),
  fc.string({ maxLength: 40 }),
  nested,
);

/** Parts of a multipart form, each possibly missing its name, its filename or its content type, or empty. */
const formPart = fc.oneof(
  fc.constant(`Content-Disposition: form-data; name="template"\r\n\r\n${JSON.stringify(validTemplate)}`),
  fc.constant('Content-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc'),
  fc.constant('Content-Disposition: form-data; name="file"\r\n\r\nabc'),
  fc.constant('Content-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc'),
  fc.constant('Content-Disposition: form-data; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc'),
  fc.constant('Content-Disposition: form-data\r\n\r\n{}'),
  fc.constant('Content-Disposition: attachment; name="template"\r\n\r\n{}'),
  fc.constant('Content-Type: text/plain\r\n\r\nno disposition'),
  fc.constant('Content-Disposition: form-data; name=""\r\n\r\n{}'),
  fc.constant('Content-Disposition: form-data; name="template"\r\n\r\n'),
  fc.constant('\r\n'),
  fc.constant(''),
);
const multipart = fc.oneof(
  fc.constantFrom(
    '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc',
    `--XyZ\r\nContent-Disposition: form-data; name="template"\r\n\r\n${JSON.stringify(validTemplate)}\r\n--XyZ--\r\n`,
    '--XyZ--\r\n',
    'garbage',
  ),
  // Forms of one to four parts (duplicates too), well closed.
  fc.array(formPart, { minLength: 1, maxLength: 4 }).map((parts) => `${parts.map((p) => `--XyZ\r\n${p}\r\n`).join('')}--XyZ--\r\n`),
);

/** Values at a field's edges, whatever its type: numbers up to 2^53 and past it, empty and huge strings, wrong types. */
const edgeValue = fc.constantFrom<unknown>(
  0,
  -1,
  1,
  0.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  '',
  ' ',
  '0',
  '-1',
  '999999999',
  '2147483648',
  '9007199254740993',
  'x'.repeat(5_000),
  '\u0000',
  '💥',
  null,
  true,
  [],
  {},
  [null],
);
/** The same edges as a query string's values. */
const edgeParam = fc.constantFrom(
  '0',
  '-1',
  '1',
  '999999999',
  '1000000000',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '1e3',
  '1.5',
  ' 1',
  '',
  'x'.repeat(2_000),
  '%00',
  '%',
  'true',
  '[]',
);

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[] };
type Operation = { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: Schema }> } };
const document = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };
const operationOf = (route: RouteDef) => document.paths[route.path][route.method.toLowerCase()];

/** Every field path of a body schema (objects and the first item of arrays, a few levels down). */
function fieldPaths(schema: Schema | undefined, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (!schema || depth > 4) return [];
  const variants = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  const paths: (string | number)[][] = [];
  for (const variant of variants) {
    for (const [key, child] of Object.entries(variant.properties ?? {})) {
      paths.push([...prefix, key], ...fieldPaths(child, [...prefix, key], depth + 1));
    }
    if (variant.items) paths.push([...prefix, 0], ...fieldPaths(variant.items, [...prefix, 0], depth + 1));
  }
  return paths;
}

/** A copy of `value` with the field at `path` set (made where missing). */
function withField(value: unknown, path: (string | number)[], field: unknown): unknown {
  if (path.length === 0) return field;
  const [head, ...rest] = path;
  const container = (
    Array.isArray(value) ? [...value] : value && typeof value === 'object' ? { ...value } : typeof head === 'number' ? [] : {}
  ) as Record<string | number, unknown>;
  container[head] = withField(container[head], rest, field);
  return container;
}

/** A route's sample request with the given query and body, its token the sample's kind. */
function sampleOf(route: RouteDef, query: Record<string, string>, body: unknown): HostileRequest {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(route.sample.path?.[name] ?? 'x'));
  const search = new URLSearchParams(query).toString();
  return {
    method: route.method,
    path: search ? `${path}?${search}` : path,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined || route.method === 'GET' ? undefined : JSON.stringify(body),
    auth: route.sample.token === 'delta' ? 'bsp' : 'client',
  };
}

/**
 * A route's own sample request (it reaches the use case), with one query parameter or body field, as the
 * OpenAPI document names them, set to an edge value: what a client reading the document might try.
 */
const documentedEdge: fc.Arbitrary<HostileRequest> = fc.constantFrom(...routes.filter((r) => r.auth)).chain((route) => {
  const operation = operationOf(route);
  const queryNames = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const bodyPaths = fieldPaths(bodySchema);
  const request = (query: Record<string, string>, body: unknown) => sampleOf(route, query, body);
  const choices: fc.Arbitrary<HostileRequest>[] = [];
  if (queryNames.length > 0)
    choices.push(
      fc
        .tuple(fc.constantFrom(...queryNames), edgeParam)
        .map(([name, value]) => request({ ...route.sample.query, [name]: value }, route.sample.body)),
    );
  if (bodyPaths.length > 0)
    choices.push(
      fc
        .tuple(fc.constantFrom(...bodyPaths), edgeValue)
        .map(([path, value]) => request(route.sample.query ?? {}, withField(route.sample.body ?? {}, path, value))),
    );
  return choices.length > 0 ? fc.oneof(...choices) : fc.constant(request(route.sample.query ?? {}, route.sample.body));
});

/** A route's own sample request (it reaches the use case) with a token of generated claims. */
const claimedSample: fc.Arbitrary<HostileRequest> = fc
  .tuple(fc.constantFrom(...routes.filter((r) => r.auth)), hostileClaims)
  .map(([route, claims]) => ({ ...sampleOf(route, route.sample.query ?? {}, route.sample.body), auth: 'claims', claims }));

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  '',
);

export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.oneof(
  // A route of the manifest, with junk where its parameters go.
  fc
    .record({
      route: fc.constantFrom(...routes),
      params: fc.array(segment, { minLength: 2, maxLength: 2 }),
      query,
      body: fc.option(body, { nil: undefined }),
      contentType,
      auth: fc.constantFrom('client', 'client', 'client', 'bsp', 'none', 'forged'),
    })
    .map(({ route, params, query: q, body: b, contentType: type, auth }) => {
      let i = 0;
      const path = route.path.replace(/\{\w+\}/g, () => params[i++ % params.length]) + q;
      return {
        method: route.method,
        path,
        headers: type ? { 'content-type': type } : {},
        body: route.method === 'GET' ? undefined : b,
        auth,
      } as HostileRequest;
    }),
  // Multipart forms at every route that takes them, also in a dry run.
  fc
    .record({
      route: fc.constantFrom(...routes.filter((r) => r.request?.multipart)),
      body: multipart,
      boundary: fc.constantFrom('boundary=XyZ', 'boundary=XyZ', 'boundary="XyZ"', ''),
      dryRun: fc.boolean(),
    })
    .map(
      ({ route, body: b, boundary, dryRun }) =>
        ({
          method: route.method,
          path: `${route.path.replace(/\{(\w+)\}/g, (_, name: string) => route.sample.path?.[name] ?? 'x')}${dryRun ? '?dry_run=true' : ''}`,
          headers: { 'content-type': `multipart/form-data; ${boundary}` },
          body: b,
          auth: 'client',
        }) as HostileRequest,
    ),
  // A route's documented parameters and fields at their edges.
  documentedEdge,
  documentedEdge,
  // A route's sample with a token whose ids are valid or not.
  claimedSample,
  // Any method at any path.
  fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
      parts: fc.array(segment, { maxLength: 5 }),
      query,
    })
    .map(({ method, parts, query: q }) => ({ method, path: `/${parts.join('/')}${q}`, headers: {}, auth: 'client' }) as HostileRequest),
);

export interface HostileOutcome {
  request: HostileRequest;
  status: number;
  /** Why the answer breaks the contract, if it does. */
  violation?: string;
}

/** Far more than any route takes on this machine: a request without an answer by then got none. */
const ANSWER_WITHIN_MS = 30_000;

export interface JudgeOptions {
  /** A 502 upstream_unavailable is the answer to a Graph call slower than the stack's timeout, not a violation. */
  upstreamMayBeSlow?: boolean;
}

/** Sends one request and judges the answer: never a 5xx, every error in the contract's shape. */
export async function sendHostile(
  baseUrl: string,
  request: HostileRequest,
  tokens: HostileTokens,
  options: JudgeOptions = {},
): Promise<HostileOutcome> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.auth === 'claims') headers.authorization = `Bearer ${await tokens.sign(request.claims?.claims ?? {})}`;
  else if (request.auth !== 'none') headers.authorization = `Bearer ${tokens[request.auth]}`;
  let response: Response;
  try {
    // A request never answered is a violation too (a crash no invocation owned), not a run that hangs.
    response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: request.body,
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
  } catch (error) {
    return { request, status: 0, violation: `no answer: ${(error as Error).message}` };
  }
  const text = await response.text();
  // The suite's stack gives Graph calls 1 s (its timeout tests' setting): on a loaded machine a call may take
  // longer, and the contract's answer to that is a 502 upstream_unavailable, not a fault of the route.
  const slowUpstream = options.upstreamMayBeSlow && response.status === 502 && text.includes('"upstream_unavailable"');
  if (response.status >= 500 && !slowUpstream)
    return { request, status: response.status, violation: `server error: ${text.slice(0, 200)}` };
  // A token of huge claims may be past the headers' limit: 431 then refuses it before any authorizer.
  if (request.claims?.refused && response.status !== 401 && response.status !== 431)
    return { request, status: response.status, violation: `claims not refused: ${response.status} ${text.slice(0, 200)}` };
  if (response.status >= 400 && request.method !== 'HEAD') {
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { request, status: response.status, violation: `error body is not JSON: ${text.slice(0, 100)}` };
    }
    const shaped =
      typeof parsed?.message === 'string' &&
      typeof parsed?.code === 'string' &&
      typeof parsed?.request_id === 'string' &&
      (parsed.details === undefined ||
        (Array.isArray(parsed.details) && parsed.details.every((d) => typeof d?.path === 'string' && typeof d?.message === 'string')));
    if (!shaped) return { request, status: response.status, violation: `error body outside the contract: ${text.slice(0, 200)}` };
  }
  return { request, status: response.status };
}

/** Sends the requests with bounded parallelism; resolves with every outcome. */
export async function sendAll(
  baseUrl: string,
  requests: HostileRequest[],
  tokens: HostileTokens,
  parallel = 8,
  options: JudgeOptions = {},
) {
  const outcomes: HostileOutcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < requests.length) {
        const request = requests[next++];
        outcomes.push(await sendHostile(baseUrl, request, tokens, options));
      }
    }),
  );
  return outcomes;
}
