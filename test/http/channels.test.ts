import { describe, expect, it } from 'vitest';
import { call, expectErrorShape, token, tokens } from '../support/api.ts';

const list = async (query: string, t: string) => call('GET', `/v1/client-msg-channels${query}`, { token: t });

describe('GET /v1/client-msg-channels (spec §8)', () => {
  it('without BSP_CN returns only the token client’s channels, deleted excluded, default fields', async () => {
    // Act
    const response = await list('', await tokens.acme());
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((c: any) => c.wa_id)).toEqual(['5215550001', '5215550002']);
    expect(Object.keys(response.body.data[0])).toEqual([
      'wa_id',
      'client_id',
      'client_name',
      'waba_id',
      'waba_name',
      'status',
      'business_id',
      'business_name',
    ]);
    expect(response.body).toMatchObject({ total: 2, page: 1, page_size: 20 });
    expect(response.body.fields).toBe('wa_id,client_id,client_name,waba_id,waba_name,status,business_id,business_name');
  });

  it('with BSP_CN lists every client ordered by client_id then wa_id', async () => {
    // Other test files seed clients of their own, so look at the order and at the demo clients' entries.
    const response = await list('?size=100', await tokens.bsp());
    expect(response.status).toBe(200);
    const data = response.body.data as { client_id: number; wa_id: string }[];
    const sorted = [...data].sort((a, b) => a.client_id - b.client_id || a.wa_id.localeCompare(b.wa_id));
    expect(data).toEqual(sorted);
    const demo = data.filter((c) => c.client_id >= 7 && c.client_id <= 10).map((c) => `${c.client_id}:${c.wa_id}`);
    expect(demo).toEqual(['7:5215550001', '7:5215550002', '8:5215550011', '9:5511990021', '9:5511990022', '10:15550100031']);
  });

  it('with BSP_CN filters another client', async () => {
    const response = await list('?client_id=9', await tokens.bsp());
    expect(response.body.data.map((c: any) => c.wa_id)).toEqual(['5511990021', '5511990022']);
  });

  it('lets a client name itself in client_id', async () => {
    const response = await list('?client_id=7', await tokens.acme());
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(2);
  });

  it('refuses another client’s client_id without BSP_CN with 403', async () => {
    const body = expectErrorShape(await list('?client_id=8', await tokens.acme()), 403, 'forbidden');
    expect(body.message).toBe('BSP_CN permission required for cross-client access');
  });

  it.each([
    ['client_id', '?client_id=seven'],
    ['client_id', '?client_id=0'],
    ['deleted', '?deleted=yes'],
    ['page', '?page=0'],
    ['page', '?page=1.5'],
    ['size', '?size=-3'],
    ['size', '?size=ten'],
  ])('answers 400 naming %s for %s', async (field, query) => {
    const body = expectErrorShape(await list(query, await tokens.bsp()), 400, 'validation_failed');
    expect(body.details?.map((d) => d.path)).toContain(field);
  });

  it('filters by wa_id, waba_id, status and business_id exactly', async () => {
    const t = await tokens.bsp();
    expect((await list('?wa_id=5215550011', t)).body.data.map((c: any) => c.client_id)).toEqual([8]);
    expect((await list('?waba_id=100200300', t)).body.data.map((c: any) => c.wa_id)).toEqual(['5215550001', '5215550011']);
    expect((await list('?status=FLAGGED', t)).body.data.map((c: any) => c.wa_id)).toEqual(['5511990022']);
    expect((await list('?business_id=777', t)).body.total).toBe(2);
    expect((await list('?business_id=77', t)).body.total).toBe(0);
  });

  it('matches business_name case-insensitively in part', async () => {
    const response = await list('?business_name=gamma%20HEALTH', await tokens.bsp());
    expect(response.body.data.map((c: any) => c.wa_id)).toEqual(['5511990021', '5511990022']);
  });

  it('q searches client_name, waba_name, wa_id and waba_id case-insensitively', async () => {
    const t = await tokens.bsp();
    expect((await list('?q=beta', t)).body.data.map((c: any) => c.wa_id)).toEqual(['5215550011']);
    expect((await list('?q=FLEET', t)).body.data.map((c: any) => c.wa_id)).toEqual(['15550100031']);
    expect((await list('?q=9900', t)).body.total).toBe(2);
    expect((await list('?q=100200301', t)).body.data.map((c: any) => c.wa_id)).toEqual(['5215550002']);
  });

  it('deleted=true returns deleted channels only', async () => {
    const response = await list('?deleted=true', await tokens.acme());
    expect(response.body.data.map((c: any) => c.wa_id)).toEqual(['5215550003']);
    expect((await list('?deleted=false', await tokens.acme())).body.total).toBe(2);
  });

  it('pages with page and size and reports the size used', async () => {
    const t = await tokens.bsp();
    const first = await list('?business_id=555&size=2', t);
    expect(first.body.data.map((c: any) => c.wa_id)).toEqual(['5215550001', '5215550002']);
    const second = await list('?business_id=555&size=2&page=2', t);
    expect(second.body.data.map((c: any) => c.wa_id)).toEqual(['5215550011']);
    expect(second.body).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect((await list('?business_id=555&size=2&page=9', t)).body.data).toEqual([]);
  });

  it('lowers a size above 100 to 100', async () => {
    const response = await list('?size=500', await tokens.bsp());
    expect(response.body.page_size).toBe(100);
  });

  it('returns only the chosen known fields and ignores unknown ones', async () => {
    const response = await list('?fields=wa_id,phone_number_id,nonsense,quality_rating', await tokens.acme());
    expect(response.body.fields).toBe('wa_id,phone_number_id,quality_rating');
    expect(response.body.data[0]).toEqual({ wa_id: '5215550001', phone_number_id: '110001', quality_rating: 'GREEN' });
    expect(response.body.data[1]).toEqual({ wa_id: '5215550002', phone_number_id: '110002' });
  });

  it('falls back to the default fields when all are unknown', async () => {
    const response = await list('?fields=foo,bar', await tokens.acme());
    expect(response.body.fields).toBe('wa_id,client_id,client_name,waba_id,waba_name,status,business_id,business_name');
  });

  it('ignores query parameters it does not know', async () => {
    expect((await list('?colour=blue', await tokens.acme())).status).toBe(200);
  });

  it('any authenticated supervisor or agent may list, limited to its client', async () => {
    const agent = await token({ clientId: 9, role: 'agent' });
    const response = await list('', agent);
    expect(response.body.data.every((c: any) => c.client_id === 9)).toBe(true);
  });
});
