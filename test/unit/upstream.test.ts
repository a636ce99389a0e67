import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/errors.ts';
import { toProduct } from '#lib/domain/catalogs.ts';
import { GraphClient, UpstreamError } from '#lib/upstream/graph-client.ts';
import { upstreamToApiError } from '#lib/upstream/errors.ts';

const graphError = (status: number, error: Record<string, unknown>) =>
  new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });

function clientWith(responses: (() => Response | Promise<Response>)[]) {
  const seen: { url: string; authorization: string }[] = [];
  const fake = (async (url: URL, init: RequestInit) => {
    seen.push({ url: String(url), authorization: (init.headers as Record<string, string>).authorization });
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    return next();
  }) as unknown as typeof fetch;
  return { client: new GraphClient({ baseUrl: 'https://graph.test', token: async () => 'secret-token', fetch: fake, baseDelayMs: 1 }), seen };
}

describe('Graph client', () => {
  it('retries a GET on 5xx and 429 and returns the first good answer', async () => {
    const { client, seen } = clientWith([
      () => graphError(503, { code: 2, message: 'unavailable' }),
      () => graphError(429, { code: 80007, message: 'rate' }),
      () => Response.json({ data: [] }),
    ]);
    expect(await client.listCatalogs('1')).toEqual({ data: [] });
    expect(seen).toHaveLength(3);
    expect(seen[0].url).toBe('https://graph.test/v23.0/1/product_catalogs?fields=id%2Cname%2Cvertical');
  });

  it('never retries a create, and reports a refusal with the upstream message', async () => {
    const { client, seen } = clientWith([() => graphError(400, { code: 100, error_subcode: 2388024, message: 'dup', error_user_msg: 'Content in this language already exists' })]);
    const error = (await client.createTemplate('1', {}).catch((e: unknown) => e)) as UpstreamError;
    expect(error.kind).toBe('rejected');
    expect(seen).toHaveLength(1);
    const mapped = upstreamToApiError(error) as ApiError;
    expect(mapped.status).toBe(409);
  });

  it('maps network failures after retries to 502 without the token in the message', async () => {
    const { client } = clientWith([0, 1, 2].map(() => () => Promise.reject(new TypeError('fetch failed'))));
    const error = (await client.getWaba('1', ['id']).catch((e: unknown) => e)) as UpstreamError;
    const mapped = upstreamToApiError(error) as ApiError;
    expect(mapped.status).toBe(502);
    expect(JSON.stringify(mapped) + mapped.message).not.toContain('secret-token');
  });

  it('treats refused service credentials as unavailable (502), not as the caller’s fault', async () => {
    const { client } = clientWith([() => graphError(401, { code: 190, message: 'Invalid OAuth access token' })]);
    const mapped = upstreamToApiError(await client.listCatalogs('1').catch((e: unknown) => e)) as ApiError;
    expect(mapped.status).toBe(502);
  });
});

describe('product mapping', () => {
  it('gathers image_url and additional_image_urls into image_urls', () => {
    const product = toProduct({ id: 1, image_url: 'https://a/1.png', additional_image_urls: ['https://a/2.png'], price: '$1.00', retailer_id: 'R' });
    expect(product).toMatchObject({ id: '1', image_urls: ['https://a/1.png', 'https://a/2.png'], price: '$1.00', unique_id: 'R', name: '' });
  });
});
