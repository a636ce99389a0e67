import { afterEach, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, tokens } from '../support/api.ts';
import { PAST_GRAPH_TIMEOUT_MS } from '../support/graph-timeouts.ts';

const DID = '5215550001'; // client 7, WABA 100200300 (catalogs cat-1 with 230 products, cat-2)

afterEach(async () => {
  await emulator('DELETE', 'faults?path=/product_catalogs');
  await emulator('DELETE', 'faults?path=/products');
});

describe('GET /v1/catalogs/{did} (spec §10)', () => {
  it('lists the WABA’s catalogs as {id, name, vertical}', async () => {
    const response = await call('GET', `/v1/catalogs/${DID}`, { token: await tokens.acme() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        { id: 'cat-1', name: 'Shoes', vertical: 'commerce' },
        { id: 'cat-2', name: 'Accessories', vertical: 'commerce' },
      ],
    });
  });

  it('lets a client sharing the WABA see its catalogs through its own DID', async () => {
    const response = await call('GET', '/v1/catalogs/5215550011', { token: await tokens.beta() });
    expect(response.body.data.map((c: any) => c.id)).toEqual(['cat-1', 'cat-2']);
  });

  it('answers 403 for a DID of another client, and for an unknown DID', async () => {
    expectErrorShape(await call('GET', '/v1/catalogs/5511990021', { token: await tokens.acme() }), 403, 'forbidden');
    expectErrorShape(await call('GET', '/v1/catalogs/999999999', { token: await tokens.acme() }), 403, 'forbidden');
  });

  it('answers 403 for another client_id without BSP_CN, and serves it with BSP_CN', async () => {
    expectErrorShape(await call('GET', `/v1/catalogs/5511990021?client_id=9`, { token: await tokens.acme() }), 403);
    const bsp = await call('GET', `/v1/catalogs/5511990021?client_id=9`, { token: await tokens.bsp() });
    expect(bsp.body.data.map((c: any) => c.id)).toEqual(['cat-9']);
  });

  it('answers 400 for a non-numeric client_id and a blank did', async () => {
    const body = expectErrorShape(await call('GET', `/v1/catalogs/${DID}?client_id=x7`, { token: await tokens.acme() }), 400);
    expect(body.message).toBe('invalid client_id: x7');
    expectErrorShape(await call('GET', '/v1/catalogs/%20', { token: await tokens.acme() }), 400);
  });

  it('answers 502 when the upstream stays unavailable', async () => {
    await emulator('POST', 'faults', { path: '/product_catalogs', status: 503 });
    expectErrorShape(await call('GET', `/v1/catalogs/${DID}`, { token: await tokens.acme() }), 502, 'upstream_unavailable');
  });

  it('retries a passing upstream failure and succeeds', async () => {
    await emulator('POST', 'faults', { path: '/product_catalogs', status: 500, times: 1 });
    expect((await call('GET', `/v1/catalogs/${DID}`, { token: await tokens.acme() })).status).toBe(200);
  });
});

describe('GET /v1/catalogs/{did}/products (spec §4)', () => {
  const products = async (query: string, t?: string) =>
    call('GET', `/v1/catalogs/${DID}/products${query}`, { token: t ?? (await tokens.acme()) });

  it('pages through 230 products with limit=100: every product once, in 3 pages', async () => {
    // Act
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await products(`?catalog_id=cat-1&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.status).toBe(200);
      pages++;
      seen.push(...response.body.data.map((p: any) => p.id));
      cursor = response.body.paging.next;
    } while (cursor && pages < 10);
    // Assess
    expect(pages).toBe(3);
    expect(seen).toHaveLength(230);
    expect(new Set(seen).size).toBe(230);
  });

  it('returns every product field of the spec, image_urls as strings and price as the upstream string', async () => {
    const response = await products('?catalog_id=cat-1&limit=2');
    expect(response.body.data[1]).toEqual({
      id: 'cat1-p-002',
      name: 'Product 002',
      retailer_id: 'CAT1-SKU-002',
      image_urls: ['https://img.example.com/cat1/002.png'],
      description: 'Description of product 002',
      currency: 'USD',
      price: '$11.00',
      url: 'https://shop.example.com/cat1/002',
      category: 'shoes',
      unique_id: 'cat1-u-002',
    });
    expect(response.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
  });

  it('defaults limit to 25 and lowers a larger limit to 100', async () => {
    expect((await products('?catalog_id=cat-1')).body.data).toHaveLength(25);
    expect((await products('?catalog_id=cat-1&limit=500')).body.data).toHaveLength(100);
  });

  it.each(['0', '-1', 'ten', '2.5'])('answers 400 for limit=%s', async (limit) => {
    const body = expectErrorShape(await products(`?catalog_id=cat-1&limit=${limit}`), 400, 'validation_failed');
    expect(body.details?.[0].path).toBe('limit');
  });

  it('answers 400 when catalog_id is missing', async () => {
    const body = expectErrorShape(await products(''), 400);
    expect(body.message).toBe('catalog_id is required');
  });

  it('answers 400 for an invalid client_id and a cursor the upstream does not know', async () => {
    expectErrorShape(await products('?catalog_id=cat-1&client_id=abc'), 400);
    const body = expectErrorShape(await products('?catalog_id=cat-1&cursor=bogus'), 400);
    expect(body.details?.[0].path).toBe('cursor');
  });

  it('answers 404 for a catalog of another WABA', async () => {
    expectErrorShape(await products('?catalog_id=cat-9'), 404, 'not_found');
  });

  it('answers 403 for a DID of another client and for another client_id without BSP_CN', async () => {
    expectErrorShape(await call('GET', '/v1/catalogs/5511990021/products?catalog_id=cat-9', { token: await tokens.acme() }), 403);
    expectErrorShape(await products('?catalog_id=cat-1&client_id=8'), 403);
  });

  it('answers 502 when the upstream is unavailable or times out', async () => {
    await emulator('POST', 'faults', { path: '/products', status: 502 });
    expectErrorShape(await products('?catalog_id=cat-1'), 502, 'upstream_unavailable');
    await emulator('DELETE', 'faults?path=/products');
    await emulator('POST', 'faults', { path: '/products', delayMs: PAST_GRAPH_TIMEOUT_MS });
    expectErrorShape(await products('?catalog_id=cat-1'), 502, 'upstream_unavailable');
  });
});
