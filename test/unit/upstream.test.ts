import { describe, expect, it } from 'vitest';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphUpstream, toProduct } from '#lib/adapters/graph/graph-upstream.ts';
import { UpstreamRejected, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { toErrorResponse } from '#lib/http/error-response.ts';

const graphError = (status: number, error: Record<string, unknown>) =>
  new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });

function upstreamWith(responses: (() => Response | Promise<Response>)[]) {
  const seen: { url: string; authorization: string; body?: unknown }[] = [];
  const fake = (async (url: URL, init: RequestInit) => {
    seen.push({ url: String(url), authorization: (init.headers as Record<string, string>).authorization, body: init.body });
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    return next();
  }) as unknown as typeof fetch;
  const client = new GraphClient({
    baseUrl: 'https://graph.test',
    token: async () => 'secret-token',
    fetch: fake,
    baseDelayMs: 1,
    log: silentLog,
  });
  return { upstream: new GraphUpstream(client, 'app-1'), seen };
}

const statusOf = (error: unknown) => toErrorResponse(error, 'r').statusCode;

describe('Graph upstream adapter', () => {
  it('retries a GET on 5xx and 429 and returns the first good answer', async () => {
    // Prepare
    const { upstream, seen } = upstreamWith([
      () => graphError(503, { code: 2, message: 'unavailable' }),
      () => graphError(429, { code: 80007, message: 'rate' }),
      () => Response.json({ data: [{ id: 7, name: 'Shop' }] }),
    ]);
    // Act
    const catalogs = await upstream.catalogsOf('1');
    // Assess
    expect(catalogs).toEqual([{ id: '7', name: 'Shop', vertical: '' }]);
    expect(seen).toHaveLength(3);
    expect(seen[0].url).toBe('https://graph.test/v24.0/1/product_catalogs?fields=id%2Cname%2Cvertical');
  });

  it('never retries a create, and reports the duplicate name+language as such', async () => {
    const { upstream, seen } = upstreamWith([
      () =>
        graphError(400, { code: 100, error_subcode: 2388024, message: 'dup', error_user_msg: 'Content in this language already exists' }),
    ]);
    const draft = { name: 'n', language: 'en', category: 'UTILITY', components: [], parameter_format: 'POSITIONAL' as const };
    const error = await upstream.createTemplate('1', draft).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect((error as UpstreamRejected).reason).toBe('duplicate_template');
    expect(seen).toHaveLength(1);
  });

  it('sends the optimization as Graph’s bid_spec', async () => {
    const { upstream, seen } = upstreamWith([() => Response.json({ id: '9', status: 'PENDING', category: 'MARKETING' })]);
    const created = await upstream.createTemplate('1', {
      name: 'n',
      language: 'en',
      category: 'MARKETING',
      components: [],
      parameter_format: 'POSITIONAL',
      optimization: { bid_amount: 1 },
    });
    expect(created).toEqual({ id: '9', status: 'PENDING', category: 'MARKETING' });
    expect(JSON.parse(String(seen[0].body))).toMatchObject({ bid_spec: { bid_amount: 1 } });
    expect(JSON.parse(String(seen[0].body))).not.toHaveProperty('optimization');
  });

  it('maps network failures after retries to 502 without the token in the message', async () => {
    const { upstream } = upstreamWith([0, 1, 2].map(() => () => Promise.reject(new TypeError('fetch failed'))));
    const error = await upstream.namespaceOf('1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    const response = toErrorResponse(error, 'r');
    expect(response.statusCode).toBe(502);
    expect(response.body).not.toContain('secret-token');
  });

  it('treats refused service credentials as unavailable (502), not as the caller’s fault', async () => {
    const { upstream } = upstreamWith([() => graphError(401, { code: 190, message: 'Invalid OAuth access token' })]);
    expect(statusOf(await upstream.catalogsOf('1').catch((e: unknown) => e))).toBe(502);
  });

  it('treats an answer of another shape as unavailable, never passing it on', async () => {
    const { upstream } = upstreamWith([() => Response.json({ data: [{ name: 'no id' }] })]);
    expect(await upstream.findTemplate('1', 'x', 'en').catch((e: unknown) => e)).toBeInstanceOf(UpstreamUnavailable);
  });

  it('pages through a WABA’s templates until Graph gives no next page', async () => {
    const template = (id: number) => ({ id, name: `t${id}`, language: 'en', status: 'APPROVED', category: 'UTILITY', components: [] });
    const { upstream, seen } = upstreamWith([
      () => Response.json({ data: [template(1)], paging: { cursors: { after: 'A' }, next: 'https://graph.test/next' } }),
      () => Response.json({ data: [template(2)], paging: { cursors: { after: 'B' } } }),
    ]);
    const pages: string[][] = [];
    for await (const page of upstream.templatesOf('1')) pages.push(page.map((t) => t.id));
    expect(pages).toEqual([['1'], ['2']]);
    expect(seen[1].url).toContain('after=A');
  });
});

describe('Graph client: a message send (exchange)', () => {
  /** A fetch that answers only when its signal aborts, after `answerMs`; records when it was aborted. */
  const answeringAfter = (answerMs: number) =>
    (async (_url: URL, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        const timer = setTimeout(() => resolve(Response.json({ messages: [{ id: 'wamid.1' }] })), answerMs);
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(Object.assign(new Error('aborted'), { name: 'TimeoutError' }));
        });
      })) as unknown as typeof fetch;
  const clientWith = (answering: typeof fetch) =>
    new GraphClient({
      baseUrl: 'https://graph.test',
      token: async () => 't',
      fetch: answering,
      timeoutMs: 20,
      exchangeTimeoutMs: 200,
      log: silentLog,
    });

  it('waits its own, longer timeout for an answer: one later than other calls wait still counts', async () => {
    // Prepare: an answer after 60 ms, beyond the 20 ms other calls wait
    const client = clientWith(answeringAfter(60));
    // Act
    const answer = await client.exchange('p1/messages', { to: '1' });
    // Assess
    expect(answer).toEqual({ status: 200, body: { messages: [{ id: 'wamid.1' }] } });
  });

  it('reports a timeout, never an error, when no answer comes within it', async () => {
    // Prepare: an answer after 1 s, beyond the 200 ms a send waits
    const client = clientWith(answeringAfter(1_000));
    // Act
    const answer = await client.exchange('p1/messages', { to: '1' });
    // Assess
    expect(answer).toEqual({ failure: 'timeout' });
  });
});

describe('product mapping', () => {
  it('gathers image_url and additional_image_urls into image_urls', () => {
    const product = toProduct({
      id: '1',
      image_url: 'https://a/1.png',
      additional_image_urls: ['https://a/2.png'],
      price: '$1.00',
      retailer_id: 'R',
      name: '',
      description: '',
      currency: '',
      url: '',
      category: '',
    });
    expect(product).toMatchObject({
      id: '1',
      image_urls: ['https://a/1.png', 'https://a/2.png'],
      price: '$1.00',
      unique_id: 'R',
      name: '',
    });
  });
});
