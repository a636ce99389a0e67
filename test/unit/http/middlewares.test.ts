import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { Conflict, InvalidRequest, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { ApiError } from '#lib/http/api-error.ts';
import type { HttpMiddleware, HttpRequest, ServiceContext } from '#lib/http/context.ts';
import { errorResponse, toErrorResponse } from '#lib/http/error-response.ts';
import { authenticateCaller } from '#lib/http/middlewares/authenticate-caller.ts';
import { jsonBody } from '#lib/http/middlewares/json-body.ts';
import { MAX_NOTIFICATION_BYTES, metaSignature } from '#lib/http/middlewares/meta-signature.ts';
import { metaSignature as signatureOf } from '#lib/adapters/meta/webhook-signature.ts';
import { multipartBody } from '#lib/http/middlewares/multipart-body.ts';
import { requestContext } from '#lib/http/middlewares/request-context.ts';
import { securityHeaders } from '#lib/http/middlewares/security-headers.ts';
import { validateRequest } from '#lib/http/middlewares/validate-request.ts';
import * as v from 'valibot';
import { InternalServerError, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { clientIdParam } from '#lib/schemas/common.ts';

/** Each named middleware alone, on a request shaped as middy hands it over. */
function requestOf(event: Partial<APIGatewayProxyEventV2> = {}, context: Partial<ServiceContext> = {}): HttpRequest {
  return {
    event: { headers: {}, requestContext: { requestId: 'req-1', http: { method: 'POST' } }, ...event } as APIGatewayProxyEventV2,
    context: { awsRequestId: 'aws-1', ...context } as ServiceContext,
    response: undefined,
    error: undefined,
    internal: {},
  } as unknown as HttpRequest;
}

const run = async (middleware: HttpMiddleware, request: HttpRequest, phase: 'before' | 'after' | 'onError' = 'before') =>
  (middleware[phase] as (r: HttpRequest) => unknown)(request);
const statusOf = async (promise: Promise<unknown> | unknown) => {
  try {
    await promise;
    return 0;
  } catch (error) {
    return toErrorResponse(error, 'r').statusCode;
  }
};

describe('requestContext', () => {
  it('names the request by API Gateway’s id, else the invocation’s', async () => {
    const request = requestOf();
    await run(requestContext(), request);
    expect(request.context.requestId).toBe('req-1');
    const bare = requestOf({ requestContext: undefined as never });
    await run(requestContext(), bare);
    expect(bare.context.requestId).toBe('aws-1');
  });
});

describe('authenticateCaller', () => {
  it('reads the caller from the authorizer’s claims, and refuses a request with none with 401', async () => {
    const request = requestOf({
      requestContext: { requestId: 'r', authorizer: { jwt: { claims: { sub: 'ann', client_id: '7', permissions: '[BSP_CN]' } } } } as never,
    });
    await run(authenticateCaller(), request);
    expect(request.context.caller).toMatchObject({ sub: 'ann', clientId: 7, isBsp: true });
    expect(await statusOf(run(authenticateCaller(), requestOf()))).toBe(401);
  });
});

describe('metaSignature', () => {
  it('hands on the raw body (text or base64) only with Meta’s signature of it; else 401, and 413 when too large', async () => {
    // Prepare
    process.env.META_APP_SECRET = 'unit-secret';
    process.env.META_VERIFY_TOKEN = 'unit-token';
    const body = '{"object":"whatsapp_business_account","entry":[]}';
    const signed = { 'x-hub-signature-256': signatureOf(body, 'unit-secret') };
    const text = requestOf({ headers: signed, body });
    const base64 = requestOf({ headers: signed, body: Buffer.from(body).toString('base64'), isBase64Encoded: true });
    // Act
    await run(metaSignature(), text);
    await run(metaSignature(), base64);
    // Assess
    expect(text.context.rawBody).toBe(body);
    expect(base64.context.rawBody).toBe(body);
    expect(await statusOf(run(metaSignature(), requestOf({ body })))).toBe(401);
    expect(await statusOf(run(metaSignature(), requestOf({ headers: signed, body: `${body} ` })))).toBe(401);
    expect(await statusOf(run(metaSignature(), requestOf({ headers: signed, body: 'x'.repeat(MAX_NOTIFICATION_BYTES + 1) })))).toBe(413);
  });
});

describe('jsonBody', () => {
  it('parses a JSON string body, leaves an absent or already parsed one alone, and refuses malformed JSON as 400', async () => {
    const request = requestOf({ headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    await run(jsonBody(), request);
    expect(request.event.body).toEqual({ a: 1 });
    const absent = requestOf({ headers: { 'content-type': 'application/json' } });
    await run(jsonBody(), absent);
    expect(absent.event.body).toBeUndefined();
    expect(await statusOf(run(jsonBody(), requestOf({ headers: { 'content-type': 'application/json' }, body: '{"a":' })))).toBe(400);
    expect(await statusOf(run(jsonBody(), requestOf({ headers: { 'content-type': 'text/plain' }, body: 'x' })))).toBe(415);
  });
});

describe('multipartBody', () => {
  const spec = { jsonPart: 'template', filePart: 'file', maxBytes: 1024 };
  const multipart = (body: string, boundary = 'XyZ') =>
    requestOf({ headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
  const part = (name: string, value: string, file = false) =>
    `--XyZ\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.png"\r\nContent-Type: image/png' : ''}\r\n\r\n${value}\r\n`;

  it('makes the JSON part the body and the file part context.file', async () => {
    const request = multipart(`${part('template', '{"name":"x"}')}${part('file', 'abc', true)}--XyZ--\r\n`);
    await run(multipartBody(spec), request);
    expect(request.event.body).toEqual({ name: 'x' });
    expect(request.context.file).toMatchObject({ filename: 'a.png', mimetype: 'image/png' });
  });

  it('refuses an unclosed body, a missing boundary, unknown parts and an oversized body with a 4xx (never a crash)', async () => {
    const unclosed = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc';
    expect(await statusOf(run(multipartBody(spec), multipart(unclosed)))).toBe(400);
    expect(await statusOf(run(multipartBody(spec), requestOf({ headers: { 'content-type': 'multipart/form-data' }, body: 'x' })))).toBe(
      400,
    );
    expect(await statusOf(run(multipartBody(spec), multipart(`${part('other', '1')}--XyZ--\r\n`)))).toBe(400);
    expect(await statusOf(run(multipartBody(spec), multipart(`${part('template', 'x'.repeat(2000))}--XyZ--\r\n`)))).toBe(413);
  });

  it('passes a JSON request through untouched', async () => {
    const request = requestOf({ headers: { 'content-type': 'application/json' }, body: '{}' });
    await run(multipartBody(spec), request);
    expect(request.event.body).toBe('{}');
  });
});

describe('validateRequest', () => {
  const spec = { path: v.object({ id: v.string() }), body: v.strictObject({ n: v.number() }), invalidMessage: 'Nope' };

  it('puts the parsed input on the context', async () => {
    const request = requestOf({ pathParameters: { id: 'a' }, body: { n: 1 } as never });
    await run(validateRequest(spec), request);
    expect(request.context.input).toEqual({ path: { id: 'a' }, body: { n: 1 } });
  });

  it('fails with the route’s message and one detail per field, and requires a body unless it is optional', async () => {
    const error = toErrorResponse(
      await Promise.resolve(run(validateRequest(spec), requestOf({ pathParameters: { id: 'a' }, body: { n: 'x', m: 1 } as never }))).catch(
        (e) => e,
      ),
      'r',
    );
    expect(error.statusCode).toBe(400);
    expect(JSON.parse(String(error.body))).toMatchObject({
      message: 'Nope',
      details: [{ path: 'n' }, { path: 'm', message: 'Unknown field' }],
    });
    expect(await statusOf(run(validateRequest(spec), requestOf({ pathParameters: { id: 'a' } })))).toBe(400);
    const optional = requestOf({ pathParameters: { id: 'a' } });
    await run(validateRequest({ body: v.object({}), bodyOptional: true }), optional);
    expect(optional.context.input?.body).toEqual({});
  });

  const bodyOfError = async (middleware: HttpMiddleware, request: HttpRequest) =>
    JSON.parse(String(toErrorResponse(await Promise.resolve(run(middleware, request)).catch((e) => e), 'r').body));

  it('answers the contract’s wording for a bad client_id and a missing required field, the route’s otherwise', async () => {
    // Prepare
    const query = { query: v.object({ client_id: v.optional(clientIdParam), size: v.optional(v.string()) }), invalidMessage: 'Nope' };
    const body = { body: v.strictObject({ url: v.string(), active: v.optional(v.boolean()) }), invalidMessage: 'Nope' };
    // Act
    const badClientId = await bodyOfError(validateRequest(query), requestOf({ queryStringParameters: { client_id: 'x7' } }));
    const onlyOne = await bodyOfError(
      validateRequest({ ...query, queryMessage: 'client_id or size bad' }),
      requestOf({ queryStringParameters: { client_id: '0' } }),
    );
    const missing = await bodyOfError(validateRequest(body), requestOf({ body: { active: true } as never }));
    const wrong = await bodyOfError(validateRequest(body), requestOf({ body: { url: 1 } as never }));
    // Assess
    expect(badClientId).toMatchObject({
      message: 'invalid client_id: x7',
      details: [{ path: 'client_id', message: 'must be a whole number ≥ 1' }],
    });
    expect(onlyOne.message).toBe('client_id or size bad');
    expect(missing).toMatchObject({ message: 'url is required', details: [{ path: 'url', message: 'is required' }] });
    expect(wrong.message).toBe('Nope');
  });

  it('reads a dry run’s body as the route says: its schema’s problems handed on, or the route’s own reading', async () => {
    // Prepare
    const template = { body: v.strictObject({ name: v.string() }), dryRun: { response: v.unknown() } };
    const recipients = {
      body: v.strictObject({ to: v.array(v.string()) }),
      dryRun: {
        response: v.unknown(),
        read: (raw: unknown) =>
          Array.isArray((raw as { to?: unknown })?.to) ? { count: 2 } : { problems: [{ path: 'to', message: 'must be an array' }] },
      },
    };
    const dry = (body: unknown) => requestOf({ queryStringParameters: { dry_run: 'true' }, body: body as never });
    // Act
    const invalidTemplate = dry({ name: 3 });
    await run(validateRequest(template), invalidTemplate);
    const read = dry({ to: [] });
    await run(validateRequest(recipients), read);
    const unreadable = await statusOf(run(validateRequest(recipients), dry({ to: 'x' })));
    // Assess
    expect(invalidTemplate.context.input).toMatchObject({ dryRun: true, invalid: [{ path: 'name' }] });
    expect(read.context.input).toMatchObject({ dryRun: true, body: { count: 2 } });
    expect(unreadable).toBe(400);
  });
});

/** A transaction cancelled only by concurrent ones after its tries, and one cancelled by a condition of ours. */
const cancelled = (codes: string[]) =>
  new TransactionCanceledException({ message: 'secret detail', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
const conflictOnly = cancelled(['None', 'TransactionConflict']);
const conditionFailed = cancelled(['ConditionalCheckFailed', 'TransactionConflict']);

describe('errorResponse and securityHeaders', () => {
  it('maps each domain error to the contract’s status and code, and anything else to a 500 that tells nothing', () => {
    const cases: [unknown, number, string][] = [
      [new InvalidRequest('bad', [{ path: 'a', message: 'm' }]), 400, 'validation_failed'],
      [new Conflict('taken'), 409, 'conflict'],
      [new UpstreamUnavailable(), 502, 'upstream_unavailable'],
      [new ApiError(413, 'payload_too_large', 'big'), 413, 'payload_too_large'],
      [new Error('secret detail'), 500, 'internal_error'],
      // A service the request needs failing for its own sake: try again (lib/adapters/aws/service-unavailable.ts)
      [new InternalServerError({ message: 'secret detail', $metadata: {} }), 502, 'upstream_unavailable'],
      [new ProvisionedThroughputExceededException({ message: 'secret detail', $metadata: {} }), 502, 'upstream_unavailable'],
      [Object.assign(new Error('secret detail'), { code: 'ECONNRESET' }), 502, 'upstream_unavailable'],
      [conflictOnly, 502, 'upstream_unavailable'],
      // The table refusing our own call (a malformed expression) is our bug: 500
      [Object.assign(new Error('secret detail'), { name: 'ValidationException', $fault: 'client' }), 500, 'internal_error'],
      [conditionFailed, 500, 'internal_error'],
    ];
    for (const [error, status, code] of cases) {
      const response = toErrorResponse(error, 'req-9');
      expect(response.statusCode).toBe(status);
      expect(JSON.parse(String(response.body))).toMatchObject({ code, request_id: 'req-9' });
      expect(String(response.body)).not.toContain('secret detail');
    }
  });

  it('sets the error body on the request, and the security headers on any response', async () => {
    const request = requestOf({}, { requestId: 'req-2' });
    request.error = new Conflict('x');
    await run(errorResponse(), request, 'onError');
    await run(securityHeaders(), request, 'onError');
    expect(request.response?.statusCode).toBe(409);
    const headers = Object.fromEntries(Object.entries(request.response?.headers ?? {}).map(([k, value]) => [k.toLowerCase(), value]));
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-request-id': 'req-2' });
    expect(String(headers['strict-transport-security'])).toContain('max-age=63072000');
    expect(String(headers['content-security-policy'])).toContain("default-src 'none'");
  });
});
