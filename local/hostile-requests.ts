import fc from 'fast-check';
import { routes } from '#lib/routes.ts';

/**
 * Requests a hostile client might send to any route of the manifest: real paths with junk in their
 * parameters (bad percent-escapes included), junk queries, bodies that are arbitrary JSON, near-valid
 * templates and sends with one part broken, malformed JSON, multipart without its closing boundary, odd
 * content types, and tokens that are valid, missing or forged. Used by the generated-input test and by
 * `npm run hostile` (scripts/hostile-run.ts).
 */
export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Which token to send: a valid one for client 7, a BSP one, none, or a forged one. */
  auth: 'client' | 'bsp' | 'none' | 'forged';
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

const multipart = fc.constantFrom(
  '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc',
  `--XyZ\r\nContent-Disposition: form-data; name="template"\r\n\r\n${JSON.stringify(validTemplate)}\r\n--XyZ--\r\n`,
  '--XyZ--\r\n',
  'garbage',
);

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
  // Multipart bodies at the create route.
  fc.record({ body: multipart, boundary: fc.constantFrom('boundary=XyZ', 'boundary="XyZ"', '') }).map(
    ({ body: b, boundary }) =>
      ({
        method: 'POST',
        path: '/v1/templates/5215550001',
        headers: { 'content-type': `multipart/form-data; ${boundary}` },
        body: b,
        auth: 'client',
      }) as HostileRequest,
  ),
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

/** Sends one request and judges the answer: never a 5xx, every error in the contract's shape. */
export async function sendHostile(
  baseUrl: string,
  request: HostileRequest,
  tokens: Record<'client' | 'bsp' | 'forged', string>,
): Promise<HostileOutcome> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.auth !== 'none') headers.authorization = `Bearer ${tokens[request.auth]}`;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers, body: request.body });
  } catch (error) {
    return { request, status: 0, violation: `no answer: ${(error as Error).message}` };
  }
  const text = await response.text();
  if (response.status >= 500) return { request, status: response.status, violation: `server error: ${text.slice(0, 200)}` };
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
  tokens: Record<'client' | 'bsp' | 'forged', string>,
  parallel = 8,
) {
  const outcomes: HostileOutcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < requests.length) {
        const request = requests[next++];
        outcomes.push(await sendHostile(baseUrl, request, tokens));
      }
    }),
  );
  return outcomes;
}
