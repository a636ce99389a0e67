import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, token } from '../support/api.ts';
import { seedDirectory } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * The listing read model under concurrent changes (issue 10): entries and counts are written in the same
 * transaction as the records, so totals stay exact whatever runs at the same time. Client 360 and its WABA
 * are this file's own.
 */
const CLIENT = 360;
const WABA = 'w360';
const DID = '360001';
const owner = () => token({ clientId: CLIENT, campaigns: [3601] });
const bsp = () => token({ clientId: 1, bsp: true });

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: CLIENT, client_name: 'Races' }],
    wabas: [{ waba_id: WABA, waba_name: WABA, business_id: 'b', business_name: 'b', namespace: `ns_${WABA}`, templates: [] }],
    channels: [{ wa_id: DID, client_id: CLIENT, waba_id: WABA, phone_number_id: '3600' }],
    campaigns: [{ campaign_id: 3601, campaign_name: 'Race', client_id: CLIENT }],
    contact_channels: [{ channel_id: 3601, name: 'L', did: DID, waba_id: WABA, client_id: CLIENT }],
  });
  await emulator('POST', 'wabas', { id: WABA, namespace: `ns_${WABA}` });
});

const listing = async (query = '') =>
  (await call('GET', `/v1/templates?client_id=${CLIENT}&size=100${query}`, { token: await bsp() })).body as {
    total: number;
    data: { id: string; active: boolean; meta_template: { id: string; name: string } }[];
  };

describe('the listing under concurrent changes', () => {
  it('counts 20 templates created at once exactly, and their entries follow concurrent assignments and flips', async () => {
    // Act: 20 creates at once, each with the client's one pair
    const created = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        call('POST', `/v1/templates/${DID}`, {
          token: await owner(),
          body: {
            name: `race_${String(i).padStart(2, '0')}`,
            language: 'en_US',
            category: 'UTILITY',
            components: [{ type: 'BODY', text: `Race number ${i} is ready` }],
            channel_campaigns: { assignments: [{ channel_id: 3601, campaign_id: 3601 }] },
          },
        }),
      ),
    );
    // Assess
    expect(
      created.map((c) => c.status),
      JSON.stringify(created[0].body),
    ).toEqual(Array(20).fill(200));
    const all = await listing();
    expect(all.total).toBe(20);
    expect(all.data.map((e) => e.meta_template.name)).toEqual(Array.from({ length: 20 }, (_, i) => `race_${String(i).padStart(2, '0')}`));
    expect((await listing('&campaign_name=Race')).total).toBe(20);
    // Act: approve them upstream and sync, then at once enable the even ones and drop the odd ones' pair
    for (const entry of all.data) await emulator('POST', `templates/${entry.meta_template.id}/status`, { status: 'APPROVED' });
    expect((await call('POST', '/v1/templates/sync-from-meta', { token: await owner() })).status).toBe(200);
    // The sync holds its lease from the POST: once it is idle again it has written every review, and it is not
    // among the concurrent writers below (it would win some of them with a 409, rightly). The wait is on the
    // service's own state, not on a clock: a loaded machine slows it and changes nothing.
    const sync = await until(
      async () => (await call('GET', '/v1/templates/sync-from-meta', { token: await owner() })).body,
      (body) => body.state === 'idle',
      100_000,
      200,
    );
    expect(sync.last_run?.result).toBe('succeeded');
    expect((await listing('&state=APPROVED')).total).toBe(20);
    const outcomes = await Promise.all(
      all.data.map(async (entry, i) =>
        i % 2 === 0
          ? call('PATCH', '/v1/templates/status', { token: await owner(), body: { action: 'enable', templates: [entry.id] } })
          : call('DELETE', `/v1/templates/${entry.id}/channel-campaigns`, { token: await owner() }),
      ),
    );
    // Assess: every change landed, and every filter's total agrees with it
    expect(outcomes.map((o) => o.status)).toEqual(Array(20).fill(200));
    expect((await listing('&active=true')).total).toBe(10);
    expect((await listing('&active=false')).total).toBe(10);
    expect((await listing('&campaign_name=Race')).total).toBe(10);
    expect((await listing('&campaign_name=Unassigned')).total).toBe(10);
    expect((await listing()).total).toBe(20);
  }, 120_000);
});
