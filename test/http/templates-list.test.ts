import { beforeAll, describe, expect, it } from 'vitest';
import { call, meterOf, expectErrorShape, token } from '../support/api.ts';
import { hexId, seedDirectory, template, waba } from '../support/seed.ts';

/** Client 300 owns WABA w300 (DID 300001) and shares nothing; client 301 shares WABA w300. */
const C = 300;
const id = (n: number) => hexId(C, n);

beforeAll(async () => {
  await seedDirectory({
    clients: [
      { client_id: C, client_name: 'Listing Co' },
      { client_id: 301, client_name: 'Other Co' },
    ],
    wabas: [
      waba('w300', [
        template('t1', 'alpha_notice', { quality_score: { score: 'GREEN' }, previous_category: '', rejected_reason: null, example: {} }),
        template('t2', 'alpha_notice', { language: 'es', status: 'PENDING', category: 'MARKETING', quality_score: { score: 'YELLOW' } }),
        template('t3', 'beta_offer', {
          status: 'REJECTED',
          category: 'MARKETING',
          rejected_reason: 'PROMOTIONAL',
          quality_score: { score: 'RED' },
        }),
        template('t4', 'direct_only'),
        template('t5', 'gamma_gone'),
        template('t6', 'delta_multi'),
      ]),
      waba('w301', [template('t9', 'zeta_elsewhere')]),
    ],
    channels: [
      { wa_id: '300001', client_id: C, waba_id: 'w300' },
      { wa_id: '300002', client_id: C, waba_id: 'w301' },
      { wa_id: '301001', client_id: 301, waba_id: 'w300' },
    ],
    campaigns: [
      { campaign_id: 3001, campaign_name: 'North', client_id: C },
      { campaign_id: 3002, campaign_name: 'South', client_id: C },
      { campaign_id: 3011, campaign_name: 'Theirs', client_id: 301 },
    ],
    contact_channels: [
      { channel_id: 3101, name: 'Main line', did: '300001', waba_id: 'w300', client_id: C },
      { channel_id: 3102, name: '', did: '300001', waba_id: 'w300', client_id: C },
      { channel_id: 3111, name: 'Theirs', did: '301001', waba_id: 'w300', client_id: 301 },
    ],
    template_records: [
      {
        id: id(1),
        client_id: C,
        waba_id: 'w300',
        template_id: 't1',
        channel_id: 3101,
        campaign_id: 3001,
        active: false,
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: id(2),
        client_id: C,
        waba_id: 'w300',
        template_id: 't1',
        channel_id: 3102,
        campaign_id: 3001,
        active: true,
        created_at: '2026-01-02T00:00:00.000Z',
      },
      {
        id: id(3),
        client_id: C,
        waba_id: 'w300',
        template_id: 't1',
        channel_id: 3101,
        campaign_id: 3002,
        active: false,
        created_at: '2026-01-03T00:00:00.000Z',
      },
      { id: id(4), client_id: C, waba_id: 'w300', template_id: 't2' },
      { id: id(5), client_id: C, waba_id: 'w300', template_id: 't3', channel_id: 3102, campaign_id: 3002 },
      { id: id(6), client_id: C, waba_id: 'w300', template_id: 't4', isDirectMessage: true },
      { id: id(7), client_id: C, waba_id: 'w300', template_id: 't5', deleted: true },
      { id: id(8), client_id: C, waba_id: 'w301', template_id: 't9', active: true },
      { id: id(9), client_id: 301, waba_id: 'w300', template_id: 't1', channel_id: 3111, campaign_id: 3011, active: true },
      { id: id(10), client_id: C, waba_id: 'w300', template_id: 't6', isDirectMessage: false },
    ],
  });
});

const bsp = () => token({ clientId: 1, bsp: true });
const agent = () => token({ clientId: C, campaigns: [3001] });
const list = async (query: string, t?: string) => call('GET', `/v1/templates${query}`, { token: t ?? (await bsp()) });
const names = (response: { body: { data: { meta_template: { name: string; language: string } }[] } }) =>
  response.body.data.map((e) => `${e.meta_template.name}/${e.meta_template.language}`);

describe('GET /v1/templates (spec §5)', () => {
  it('lists one entry per template, ordered by name then language, without direct-message or deleted ones', async () => {
    const response = await list(`?client_id=${C}`);
    expect(response.status).toBe(200);
    expect(names(response)).toEqual([
      'alpha_notice/en_US',
      'alpha_notice/es',
      'beta_offer/en_US',
      'delta_multi/en_US',
      'zeta_elsewhere/en_US',
    ]);
    expect(response.body).toMatchObject({ total: 5, page: 1, pageSize: 20, paging: null });
  });

  it('shows the oldest record’s id, active when any record is, and the campaign groups', async () => {
    const entry = (await list(`?client_id=${C}&name=alpha_notice&lang=en_US`)).body.data[0];
    expect(entry).toMatchObject({ id: id(1), active: true, client_id: C, waba_id: 'w300', namespace: 'ns_w300' });
    expect(entry.channel_campaigns).toEqual([
      {
        campaign_id: 3001,
        campaign_name: 'North',
        channels: [
          { channel_id: 3101, name: 'Main line', did: '300001', type: 'MSGCHAN', waba_id: 'w300' },
          { channel_id: 3102, did: '300001', type: 'MSGCHAN', waba_id: 'w300' },
        ],
      },
      {
        campaign_id: 3002,
        campaign_name: 'South',
        channels: [{ channel_id: 3101, name: 'Main line', did: '300001', type: 'MSGCHAN', waba_id: 'w300' }],
      },
    ]);
  });

  it('omits empty meta_template fields and gives an empty channel_campaigns for a placeholder', async () => {
    const first = (await list(`?client_id=${C}&template_meta_id=t1`)).body.data[0];
    expect(first.meta_template).not.toHaveProperty('example');
    expect(first.meta_template).not.toHaveProperty('previous_category');
    expect(first.meta_template).not.toHaveProperty('rejected_reason');
    expect(first.meta_template.quality_score).toEqual({ score: 'GREEN' });
    const placeholder = (await list(`?client_id=${C}&template_meta_id=t2`)).body.data[0];
    expect(placeholder.channel_campaigns).toEqual([]);
  });

  it.each([
    ['state=PENDING', ['alpha_notice/es']],
    ['state=approved', ['alpha_notice/en_US', 'delta_multi/en_US', 'zeta_elsewhere/en_US']],
    ['search=ALPHA', ['alpha_notice/en_US', 'alpha_notice/es']],
    ['search=offer', ['beta_offer/en_US']],
    ['category=MARKETING', ['alpha_notice/es', 'beta_offer/en_US']],
    ['lang=es', ['alpha_notice/es']],
    ['did=300002', ['zeta_elsewhere/en_US']],
    ['name=alpha', []],
    ['name=beta_offer', ['beta_offer/en_US']],
    ['template_meta_id=t3', ['beta_offer/en_US']],
    ['active=true', ['alpha_notice/en_US', 'zeta_elsewhere/en_US']],
    ['active=false', ['alpha_notice/es', 'beta_offer/en_US', 'delta_multi/en_US']],
    ['deleted=true', ['gamma_gone/en_US']],
    ['campaign_name=South', ['alpha_notice/en_US', 'beta_offer/en_US']],
    ['campaign_name=Unassigned', ['alpha_notice/es', 'delta_multi/en_US', 'zeta_elsewhere/en_US']],
    ['channel_ids=3102', ['alpha_notice/en_US', 'beta_offer/en_US']],
    ['channel_ids=3101,9999', ['alpha_notice/en_US']],
    ['quality_scores=RED,yellow', ['alpha_notice/es', 'beta_offer/en_US']],
  ])('filters with %s', async (query, expected) => {
    expect(names(await list(`?client_id=${C}&${query}`))).toEqual(expected);
  });

  it('limits each entry to the fields asked for, keeping total, page and pageSize', async () => {
    const response = await list(`?client_id=${C}&fields=id,active,unknown&size=2&page=2`);
    expect(response.body.data).toEqual([
      { id: id(5), active: false },
      { id: id(10), active: false },
    ]);
    expect(response.body).toMatchObject({ total: 5, page: 2, pageSize: 2, paging: null });
  });

  it('accepts limit for size and lowers sizes above 100', async () => {
    expect((await list(`?client_id=${C}&limit=1`)).body.data).toHaveLength(1);
    expect((await list(`?client_id=${C}&size=1000`)).body.pageSize).toBe(100);
  });

  it('answers an agent with its own client’s templates', async () => {
    const response = await list('', await agent());
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(5);
  });

  it('answers 400 "client_id is required" for BSP_CN without client_id', async () => {
    expect(expectErrorShape(await list(''), 400).message).toBe('client_id is required');
  });

  it('answers 400 "invalid client_id: <value>"', async () => {
    expect(expectErrorShape(await list('?client_id=abc'), 400).message).toBe('invalid client_id: abc');
  });

  it('answers 400 "agent without campaigns" for a token without BSP_CN and campaigns', async () => {
    expect(expectErrorShape(await list('', await token({ clientId: C })), 400).message).toBe('agent without campaigns');
  });

  it('answers 403 for another client without BSP_CN', async () => {
    const body = expectErrorShape(await list('?client_id=301', await agent()), 403, 'forbidden');
    expect(body.message).toBe('BSP_CN permission required for cross-client access');
  });

  it('answers 403 for a DID outside the client’s hierarchy and 400 for bad numbers and booleans', async () => {
    expectErrorShape(await list(`?client_id=${C}&did=5215550001`), 403);
    expectErrorShape(await list(`?client_id=${C}&page=0`), 400);
    expectErrorShape(await list(`?client_id=${C}&active=maybe`), 400);
    expectErrorShape(await list(`?client_id=${C}&channel_ids=a,b`), 400);
  });

  it('shows another client sharing the WABA only its own assignments', async () => {
    const entry = (await list('?client_id=301')).body.data[0];
    expect(entry).toMatchObject({ id: id(9), client_id: 301 });
    expect(entry.channel_campaigns.map((g: { campaign_id: number }) => g.campaign_id)).toEqual([3011]);
  });
});

describe('listing 1,000 templates with 3 assignments each', () => {
  const BIG = 330;
  beforeAll(async () => {
    const templates = Array.from({ length: 1000 }, (_, i) => template(`b${i}`, `bulk_${String(i).padStart(4, '0')}`));
    const records = templates.flatMap((t, i) =>
      [0, 1, 2].map((k) => ({
        id: hexId(BIG, i * 3 + k),
        client_id: BIG,
        waba_id: 'w330',
        template_id: t.id,
        channel_id: 3301 + k,
        campaign_id: 3311,
      })),
    );
    await seedDirectory({
      clients: [{ client_id: BIG, client_name: 'Big Co' }],
      wabas: [waba('w330', templates)],
      channels: [{ wa_id: '330001', client_id: BIG, waba_id: 'w330' }],
      campaigns: [{ campaign_id: 3311, campaign_name: 'All', client_id: BIG }],
      contact_channels: [0, 1, 2].map((k) => ({ channel_id: 3301 + k, name: `Line ${k}`, did: '330001', waba_id: 'w330', client_id: BIG })),
      template_records: records,
    });
  }, 120_000);

  it('reads one page of the listing read model: never a Scan, never the client’s records', async () => {
    // Act
    const response = await list(`?client_id=${BIG}&size=100&page=10`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(1000);
    expect(response.body.data[99].meta_template.name).toBe('bulk_0999');
    expect(response.body.data[0].channel_campaigns[0].channels).toHaveLength(3);
    const meter = await meterOf(response);
    expect(meter.operations.every((op) => ['Query', 'GetItem', 'BatchGetItem'].includes(op))).toBe(true);
    // Page 10 of 100: the 1,000 compact keys up to it, the page's 100 entries and the count; no record.
    expect(meter.itemsRead).toBe(1000 + 100 + 1);
  });

  it('reads as many items for a page of 20 of 1,000 templates as of a few, and only the matches of a filter', async () => {
    // Act
    const big = await list(`?client_id=${BIG}&size=20`);
    const few = await list(`?client_id=${C}&size=20`);
    const byName = await list(`?client_id=${BIG}&name=bulk_0500`);
    const byCampaign = await list(`?client_id=${BIG}&campaign_name=All&size=20`);
    // Assess: the count, the page's keys and its entries; never the client's records
    expect(big.body.total).toBe(1000);
    expect((await meterOf(big)).itemsRead).toBe(1 + 20 + 20);
    expect((await meterOf(few)).itemsRead).toBeLessThanOrEqual(1 + 20 + 20);
    expect((await meterOf(big)).bytesRead).toBeLessThan(100 * 1024);
    expect(byName.body.total).toBe(1);
    expect((await meterOf(byName)).itemsRead).toBe(2);
    // The campaign index holds one key per template and campaign (not one per record), then the page's entries
    expect(byCampaign.body.total).toBe(1000);
    expect((await meterOf(byCampaign)).itemsRead).toBe(1000 + 20);
  });
});
