import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, token } from '../support/api.ts';
import { hexId, seedDirectory, template, waba } from '../support/seed.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * Clients 310 and 311 share WABA w310. Each test works on its own template of that WABA, so tests do not
 * see each other's assignments.
 */
const A = 310;
const B = 311;
const rec = (n: number) => hexId(A, n);
const recB = (n: number) => hexId(B, n);

beforeAll(async () => {
  const templates = Array.from({ length: 12 }, (_, i) => template(`c${i}`, `assign_${i}`));
  await seedDirectory({
    clients: [
      { client_id: A, client_name: 'Assign A' },
      { client_id: B, client_name: 'Assign B' },
      { client_id: 312, client_name: 'Outsider' },
    ],
    wabas: [waba('w310', templates), waba('w312', [template('x1', 'outsider')])],
    channels: [
      { wa_id: '310001', client_id: A, waba_id: 'w310' },
      { wa_id: '311001', client_id: B, waba_id: 'w310' },
      { wa_id: '312001', client_id: 312, waba_id: 'w312' },
    ],
    campaigns: [
      { campaign_id: 3101, campaign_name: 'A-one', client_id: A },
      { campaign_id: 3102, campaign_name: 'A-two', client_id: A },
      { campaign_id: 3111, campaign_name: 'B-one', client_id: B },
    ],
    contact_channels: [
      { channel_id: 3201, name: 'A line', did: '310001', waba_id: 'w310', client_id: A },
      { channel_id: 3202, name: '', did: '310001', waba_id: 'w310', client_id: A },
      { channel_id: 3211, name: 'B line', did: '311001', waba_id: 'w310', client_id: B },
      { channel_id: 3221, name: 'Other WABA', did: '312001', waba_id: 'w312', client_id: 312 },
    ],
    template_records: [
      // c0: A has the placeholder
      {
        id: rec(0),
        client_id: A,
        waba_id: 'w310',
        template_id: 'c0',
        createdBy: 'creator-0',
        associatedFlow: 'flow-7',
        highQuality: true,
        dynamicPricing: false,
      },
      // c1: A holds (3201,3101); B holds (3211,3111)
      { id: rec(1), client_id: A, waba_id: 'w310', template_id: 'c1', channel_id: 3201, campaign_id: 3101, active: true },
      { id: recB(1), client_id: B, waba_id: 'w310', template_id: 'c1', channel_id: 3211, campaign_id: 3111, active: true },
      // c2: A holds two pairs
      {
        id: rec(2),
        client_id: A,
        waba_id: 'w310',
        template_id: 'c2',
        channel_id: 3201,
        campaign_id: 3101,
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: rec(20),
        client_id: A,
        waba_id: 'w310',
        template_id: 'c2',
        channel_id: 3202,
        campaign_id: 3102,
        created_at: '2026-01-02T00:00:00.000Z',
      },
      // c3, c4, c5, c6: placeholders of A
      { id: rec(3), client_id: A, waba_id: 'w310', template_id: 'c3' },
      { id: rec(4), client_id: A, waba_id: 'w310', template_id: 'c4', channel_id: 3201, campaign_id: 3101 },
      { id: rec(5), client_id: A, waba_id: 'w310', template_id: 'c5' },
      { id: rec(6), client_id: A, waba_id: 'w310', template_id: 'c6', channel_id: 3201, campaign_id: 3101 },
      { id: rec(7), client_id: A, waba_id: 'w310', template_id: 'c7' },
    ],
  });
});

const tA = () => token({ clientId: A, campaigns: [3101], sub: 'alice' });
const tB = () => token({ clientId: B, campaigns: [3111], sub: 'bob' });
const bsp = () => token({ clientId: 1, bsp: true });
const path = (id: string, suffix = 'channel-campaigns') => `/v1/templates/${id}/${suffix}`;
const grouped = async (id: string, t?: string) => call('GET', path(id, 'channel-campaigns-grouped'), { token: t ?? (await tA()) });
const listOf = async (client: number, metaId: string) =>
  (await call('GET', `/v1/templates?client_id=${client}&template_meta_id=${metaId}`, { token: await bsp() })).body.data[0];

describe('channel-campaigns (spec §3, decisions §3)', () => {
  it('POST after the placeholder: the placeholder becomes the first pair and keeps its id; others are exact copies', async () => {
    // Act
    const response = await call('POST', path(rec(0)), {
      token: await tA(),
      body: {
        channel_campaigns: [
          { channel_id: 3201, campaign_id: 3101 },
          { channel_id: 3202, campaign_id: 3102 },
        ],
      },
    });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.success).toBe(true);
    expect(response.body.ids[0]).toBe(rec(0));
    expect(response.body.ids[1]).toMatch(/^[0-9a-f]{24}$/);
    expect(response.body.ids[1]).not.toBe(rec(0));
    const groups = (await grouped(rec(0))).body;
    expect(groups).toEqual([
      {
        campaign_id: 3101,
        campaign_name: 'A-one',
        channels: [{ channel_id: 3201, name: 'A line', did: '310001', type: 'MSGCHAN', waba_id: 'w310' }],
      },
      { campaign_id: 3102, campaign_name: 'A-two', channels: [{ channel_id: 3202, did: '310001', type: 'MSGCHAN', waba_id: 'w310' }] },
    ]);
  });

  it('POST copies every field of the original, createdBy included, with only the pair changed', async () => {
    // Prepare: the sibling made in the previous shape on another template
    const response = await call('POST', path(rec(3)), {
      token: await tA(),
      body: {
        channel_campaigns: [
          { channel_id: 3201, campaign_id: 3101 },
          { channel_id: 3201, campaign_id: 3102 },
        ],
      },
    });
    const { DynamoTemplateRecords } = await import('#lib/adapters/dynamo/templates/template-records.ts');
    const store = new DynamoTemplateRecords(table);
    const [original, copy] = await Promise.all([store.get(rec(3)), store.get(response.body.ids[1])]);
    const { channel: _a, campaign: _b, id: _c, updated_at: _d, ...originalRest } = original!;
    const { channel: _e, campaign: copyCampaign, id: copyId, updated_at: _f, ...copyRest } = copy!;
    expect(copyRest).toEqual(originalRest);
    expect(copyId).not.toBe(rec(3));
    expect(copyCampaign).toEqual({ campaign_id: 3102, campaign_name: 'A-two' });
  });

  it('POST of a pair the client holds creates nothing and returns that record’s id', async () => {
    const response = await call('POST', path(rec(1)), {
      token: await tA(),
      body: { channel_campaigns: [{ channel_id: 3201, campaign_id: 3101 }] },
    });
    expect(response.status).toBe(201);
    expect(response.body.ids).toEqual([rec(1)]);
    expect((await grouped(rec(1))).body).toHaveLength(1);
  });

  it('DELETE of the last pair leaves a placeholder for that client only; the sharing client keeps its assignments', async () => {
    // Act
    const response = await call('DELETE', path(rec(1)), { token: await tA() });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ids: null, success: true });
    expect((await grouped(rec(1))).body).toEqual([]);
    expect((await listOf(A, 'c1')).channel_campaigns).toEqual([]);
    expect(
      (await call('GET', `/v1/templates?client_id=${A}&template_meta_id=c1&campaign_name=Unassigned`, { token: await bsp() })).body.total,
    ).toBe(1);
    const theirs = (await grouped(recB(1), await tB())).body;
    expect(theirs).toEqual([
      {
        campaign_id: 3111,
        campaign_name: 'B-one',
        channels: [{ channel_id: 3211, name: 'B line', did: '311001', type: 'MSGCHAN', waba_id: 'w310' }],
      },
    ]);
  });

  it('DELETE of one pair by channel_id and campaign_id removes only it', async () => {
    const response = await call('DELETE', `${path(rec(2))}?channel_id=3202&campaign_id=3102`, { token: await tA() });
    expect(response.status).toBe(200);
    expect((await grouped(rec(2))).body.map((g: { campaign_id: number }) => g.campaign_id)).toEqual([3101]);
    expectErrorShape(await call('DELETE', `${path(rec(2))}?channel_id=3202&campaign_id=3102`, { token: await tA() }), 404);
    expectErrorShape(await call('DELETE', `${path(rec(2))}?channel_id=3202`, { token: await tA() }), 400);
  });

  it('PUT sets exactly the given pairs: held ones keep their record, new ones are added, missing ones removed', async () => {
    // Prepare: c4 holds (3201,3101)
    // Act
    const response = await call('PUT', path(rec(4)), {
      token: await tA(),
      body: {
        channel_campaigns: [
          { channel_id: 3201, campaign_id: 3101 },
          { channel_id: 3202, campaign_id: 3102 },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ids: null, success: true });
    expect((await grouped(rec(4))).body.map((g: { campaign_id: number }) => g.campaign_id)).toEqual([3101, 3102]);
    expect((await listOf(A, 'c4')).id).toBe(rec(4));
    await call('PUT', path(rec(4)), { token: await tA(), body: { channel_campaigns: [{ channel_id: 3202, campaign_id: 3102 }] } });
    // The record of the removed pair is gone; the template lives on in the remaining one.
    expectErrorShape(await grouped(rec(4)), 404);
    const remaining = (await listOf(A, 'c4')).id;
    expect((await grouped(remaining)).body.map((g: { campaign_id: number }) => g.campaign_id)).toEqual([3102]);
    // An empty list leaves the placeholder, which keeps the last record's id
    await call('PUT', path(remaining), { token: await tA(), body: { channel_campaigns: [] } });
    expect((await grouped(remaining)).body).toEqual([]);
    expect(
      (await call('GET', `/v1/templates?client_id=${A}&template_meta_id=c4&campaign_name=Unassigned`, { token: await bsp() })).body.total,
    ).toBe(1);
  });

  it('answers 400 naming an unknown pair, another client’s channel or campaign, and a channel of another WABA; nothing is written', async () => {
    for (const pair of [
      { channel_id: 9999, campaign_id: 3101 },
      { channel_id: 3211, campaign_id: 3101 },
      { channel_id: 3201, campaign_id: 3111 },
      { channel_id: 3221, campaign_id: 3101 },
    ]) {
      const body = expectErrorShape(
        await call('POST', path(rec(5)), {
          token: await tA(),
          body: { channel_campaigns: [{ channel_id: 3202, campaign_id: 3102 }, pair] },
        }),
        400,
        'validation_failed',
      );
      expect(body.message).toContain(`channel_id: ${pair.channel_id}, campaign_id: ${pair.campaign_id}`);
      expect(body.details?.[0].path).toMatch(/^channel_campaigns\[1\]\./);
    }
    expect((await grouped(rec(5))).body).toEqual([]);
  });

  it('answers 400 for malformed bodies and an empty POST', async () => {
    for (const body of [
      { channel_campaigns: [{ channel_id: '1', campaign_id: 2 }] },
      { channel_campaigns: {} },
      { extra: 1 },
      { channel_campaigns: [] },
    ]) {
      expectErrorShape(await call('POST', path(rec(5)), { token: await tA(), body }), 400);
    }
  });

  it('answers 404 for an unknown record and for another client’s record without BSP_CN', async () => {
    expectErrorShape(await grouped('ffffffffffffffffffffffff'), 404, 'not_found');
    expectErrorShape(
      await call('POST', path('ffffffffffffffffffffffff'), {
        token: await tA(),
        body: { channel_campaigns: [{ channel_id: 3201, campaign_id: 3101 }] },
      }),
      404,
    );
    expectErrorShape(await grouped(recB(1), await tA()), 404);
    expectErrorShape(await call('DELETE', path(recB(1)), { token: await tA() }), 404);
  });

  it('answers 403 for a client_id other than the token’s without BSP_CN', async () => {
    const body = expectErrorShape(
      await call('POST', path(rec(6)), {
        token: await tA(),
        body: { client_id: B, channel_campaigns: [{ channel_id: 3211, campaign_id: 3111 }] },
      }),
      403,
    );
    expect(body.message).toBe('BSP_CN permission required for cross-client access');
    expectErrorShape(await call('PUT', path(rec(6)), { token: await tA(), body: { client_id: B } }), 403);
    expectErrorShape(await call('DELETE', `${path(rec(6))}?client_id=${B}`, { token: await tA() }), 403);
  });

  it('with BSP_CN assigns for a client sharing the WABA, and refuses a client without it with 403', async () => {
    const response = await call('POST', path(rec(6)), {
      token: await bsp(),
      body: { client_id: B, channel_campaigns: [{ channel_id: 3211, campaign_id: 3111 }] },
    });
    expect(response.status).toBe(201);
    const theirs = await listOf(B, 'c6');
    expect(theirs).toMatchObject({ id: response.body.ids[0], client_id: B });
    expect((await listOf(A, 'c6')).channel_campaigns.map((g: { campaign_id: number }) => g.campaign_id)).toEqual([3101]);
    expectErrorShape(
      await call('POST', path(rec(6)), {
        token: await bsp(),
        body: { client_id: 312, channel_campaigns: [{ channel_id: 3221, campaign_id: 3101 }] },
      }),
      403,
    );
  });

  it('never gives a client the same pair twice under concurrent POSTs', async () => {
    const t = await tA();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('POST', path(rec(7)), { token: t, body: { channel_campaigns: [{ channel_id: 3202, campaign_id: 3102 }] } }),
      ),
    );
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(results.some((r) => r.status === 201)).toBe(true);
    const groups = (await grouped(rec(7))).body;
    expect(groups).toEqual([
      { campaign_id: 3102, campaign_name: 'A-two', channels: [{ channel_id: 3202, did: '310001', type: 'MSGCHAN', waba_id: 'w310' }] },
    ]);
  });
});
