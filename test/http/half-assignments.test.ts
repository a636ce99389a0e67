import { beforeAll, describe, expect, it } from 'vitest';
import { DirectoryFileError } from '#lib/adapters/directory-file.ts';
import { call, expectErrorShape, token } from '../support/api.ts';
import { hexId, seedDirectory, template, waba } from '../support/seed.ts';

/**
 * Records with half an assignment (decisions §11): client 460 holds template `chan` through a record with a
 * channel and no campaign, `camp` through one with a campaign and no channel, and `both` through a half record
 * and a whole pair.
 */
const C = 460;
const r = (n: number) => hexId(C, n);
const directory = () => ({
  clients: [{ client_id: C, client_name: 'Half Co' }],
  wabas: [waba('w460', [template('chan', 'half_channel'), template('camp', 'half_campaign'), template('both', 'half_both')])],
  channels: [{ wa_id: '460001', client_id: C, waba_id: 'w460' }],
  campaigns: [
    { campaign_id: 4601, campaign_name: 'Spring', client_id: C },
    { campaign_id: 4602, campaign_name: 'Autumn', client_id: C },
  ],
  contact_channels: [{ channel_id: 4611, name: 'Line', did: '460001', waba_id: 'w460', client_id: C }],
  template_records: [
    { id: r(1), client_id: C, waba_id: 'w460', template_id: 'chan', channel_id: 4611 },
    { id: r(2), client_id: C, waba_id: 'w460', template_id: 'camp', campaign_id: 4601 },
    { id: r(3), client_id: C, waba_id: 'w460', template_id: 'both', channel_id: 4611 },
    { id: r(4), client_id: C, waba_id: 'w460', template_id: 'both', channel_id: 4611, campaign_id: 4602 },
  ],
});

beforeAll(() => seedDirectory(directory()));

const t = () => token({ clientId: C, campaigns: [4601, 4602] });
const names = (body: { data: { meta_template: { name: string } }[] }) => body.data.map((e) => e.meta_template.name).sort();

describe('records with half an assignment (decisions §11)', () => {
  it('imports channel-only and campaign-only records and lists their templates', async () => {
    // Act
    const listing = await call('GET', `/v1/templates?client_id=${C}`, { token: await t() });
    // Assess
    expect(listing.status).toBe(200);
    expect(names(listing.body)).toEqual(['half_both', 'half_campaign', 'half_channel']);
  });

  it('lists a channel-only record under no campaign, a campaign-only one under its campaign, neither under Unassigned', async () => {
    // Act
    const unassigned = await call('GET', `/v1/templates?campaign_name=Unassigned`, { token: await t() });
    const spring = await call('GET', `/v1/templates?campaign_name=Spring`, { token: await t() });
    const autumn = await call('GET', `/v1/templates?campaign_name=Autumn`, { token: await t() });
    // Assess
    expect(names(unassigned.body)).toEqual([]);
    expect(names(spring.body)).toEqual(['half_campaign']);
    expect(names(autumn.body)).toEqual(['half_both']);
  });

  it('forms no channel_campaigns group from a half record (a group needs its campaign and its channel)', async () => {
    // Act
    const chan = await call('GET', `/v1/templates/${r(1)}/channel-campaigns-grouped`, { token: await t() });
    const camp = await call('GET', `/v1/templates/${r(2)}/channel-campaigns-grouped`, { token: await t() });
    const both = await call('GET', `/v1/templates/${r(3)}/channel-campaigns-grouped`, { token: await t() });
    const listing = await call('GET', `/v1/templates?name=half_both`, { token: await t() });
    // Assess
    expect(chan.body).toEqual([]);
    expect(camp.body).toEqual([]);
    expect(both.body).toEqual([{ campaign_id: 4602, campaign_name: 'Autumn', channels: [expect.objectContaining({ channel_id: 4611 })] }]);
    expect(listing.body.data[0].channel_campaigns).toEqual(both.body);
  });

  it('refuses to enable a channel-only record with campaign_unassigned and a campaign-only one with channel_unassigned', async () => {
    // Act
    const response = await call('PATCH', '/v1/templates/status', { token: await t(), body: { action: 'enable', templates: [r(1), r(2)] } });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      expect.objectContaining({ id: r(1), success: false, reason: 'campaign_unassigned' }),
      expect.objectContaining({ id: r(2), success: false, reason: 'channel_unassigned' }),
    ]);
  });

  it('keeps a half record beside a whole pair added through the API, and replaces it when the pairs are set', async () => {
    // Prepare
    const tok = await t();
    // Act
    const added = await call('POST', `/v1/templates/${r(1)}/channel-campaigns`, {
      token: tok,
      body: { channel_campaigns: [{ channel_id: 4611, campaign_id: 4601 }] },
    });
    const grouped = await call('GET', `/v1/templates/${r(1)}/channel-campaigns-grouped`, { token: tok });
    const replaced = await call('PUT', `/v1/templates/${r(2)}/channel-campaigns`, {
      token: tok,
      body: { channel_campaigns: [{ channel_id: 4611, campaign_id: 4602 }] },
    });
    const campListing = await call('GET', `/v1/templates?name=half_campaign`, { token: tok });
    // Assess
    expect(added.status).toBe(201);
    expect(added.body.ids).toHaveLength(1);
    expect(added.body.ids[0]).not.toBe(r(1));
    expect(grouped.body).toEqual([expect.objectContaining({ campaign_id: 4601 })]);
    expect(replaced.status).toBe(200);
    expect(campListing.body.data[0].channel_campaigns).toEqual([expect.objectContaining({ campaign_id: 4602 })]);
    const spring = await call('GET', `/v1/templates?campaign_name=Spring&name=half_campaign`, { token: tok });
    expect(spring.body.total).toBe(0);
  });

  it('leaves the placeholder when every record of the client is removed, half ones included', async () => {
    // Act
    const removed = await call('DELETE', `/v1/templates/${r(3)}/channel-campaigns`, { token: await t() });
    const unassigned = await call('GET', `/v1/templates?campaign_name=Unassigned&name=half_both`, { token: await t() });
    // Assess
    expect(removed.status).toBe(200);
    expect(unassigned.body.total).toBe(1);
    expect(unassigned.body.data[0].channel_campaigns).toEqual([]);
  });

  it('refuses a directory file that gives a client a template’s placeholder and assignments, or one slot twice', async () => {
    // Prepare
    const both = directory();
    both.template_records.push({ id: r(9), client_id: C, waba_id: 'w460', template_id: 'chan' } as never);
    const twice = directory();
    twice.template_records.push({ id: r(9), client_id: C, waba_id: 'w460', template_id: 'camp', campaign_id: 4601 });
    // Act
    const bothError = await seedDirectory(both).catch((e: unknown) => e);
    const twiceError = await seedDirectory(twice).catch((e: unknown) => e);
    // Assess
    expect(bothError).toBeInstanceOf(DirectoryFileError);
    expect((bothError as DirectoryFileError).problems).toEqual([
      { path: 'template_records[4]', message: `client ${C} has both assignments and the placeholder of template chan` },
    ]);
    expect((twiceError as DirectoryFileError).problems).toEqual([
      { path: 'template_records[4]', message: `client ${C} has this assignment of template camp twice` },
    ]);
    expectErrorShape(await call('GET', `/v1/templates/${r(9)}/channel-campaigns-grouped`, { token: await t() }), 404);
  });
});
