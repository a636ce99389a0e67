import { describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, token } from '../support/api.ts';

/** Review warnings and dry runs of create and edit (decisions §18), through the local stack. */
const DID = '5511990021'; // client 9, WABA 100200400
const gamma = () => token({ clientId: 9, campaigns: [51] });
const suffix = () => Math.random().toString(36).slice(2, 8);
const risky = (name: string) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: '{{1}} is ready {{2}}{{3}}', example: { body_text: [['Order', 'now', '!']] } }],
});
const clean = (name: string) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Hi {{1}}, your order is ready to collect at the store.', example: { body_text: [['Ana']] } }],
});
const upstreamCallsFor = async (name: string) =>
  (await emulator('GET', 'calls')).calls.filter((c: { body?: { name?: string } }) => c.body?.name === name);

describe('review warnings and dry runs', () => {
  it('a create dry run answers valid with the warnings, calling nothing upstream; the real create gives the same warnings', async () => {
    const name = `risky_${suffix()}`;
    // Act
    const dry = await call('POST', `/v1/templates/${DID}?dry_run=true`, { token: await gamma(), body: risky(name) });
    // Assess
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ valid: true, errors: [] });
    const rules = dry.body.review_warnings.map((w: { rule: string }) => w.rule);
    expect(rules).toEqual(expect.arrayContaining(['leading_variable', 'adjacent_variables']));
    expect(dry.body.review_warnings[0]).toMatchObject({ path: 'components[0].text', message: expect.any(String) });
    expect(await upstreamCallsFor(name)).toEqual([]);
    expect((await call('GET', `/v1/templates?name=${name}`, { token: await gamma() })).body.data).toEqual([]);
    const real = await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: risky(name) });
    expect(real.status).toBe(200);
    expect(real.body.review_warnings).toEqual(dry.body.review_warnings);
  });

  it('gives a clean template no warnings', async () => {
    const name = `clean_${suffix()}`;
    const dry = await call('POST', `/v1/templates/${DID}?dry_run=true`, { token: await gamma(), body: clean(name) });
    expect(dry.body).toEqual({ valid: true, errors: [], review_warnings: [] });
    const real = await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: clean(name) });
    expect(real.status).toBe(200);
    expect(real.body).not.toHaveProperty('review_warnings');
  });

  it('an invalid template in dry-run mode answers valid: false with the errors a real create gives as a 400', async () => {
    for (const body of [
      { ...clean(`bad_${suffix()}`), category: 'PROMO' },
      { ...clean(`bad_${suffix()}`), components: [{ type: 'BODY', text: 'Hi {{1}}' }] },
      { ...clean(`bad_${suffix()}`), surprise: true },
      { ...clean(`bad_${suffix()}`), channel_campaigns: { assignments: [{ channel_id: 41, campaign_id: 51 }] } },
    ]) {
      const dry = await call('POST', `/v1/templates/${DID}?dry_run=true`, { token: await gamma(), body });
      const real = expectErrorShape(await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body }), 400);
      expect(dry.status).toBe(200);
      expect(dry.body.valid).toBe(false);
      expect(dry.body.errors).toEqual(real.details);
      expect(await upstreamCallsFor(body.name)).toEqual([]);
    }
  });

  it('an edit dry run lints and checks without the upstream or a write; the real edit reports its warnings', async () => {
    // Prepare: a template of this test's own
    const name = `edit_review_${suffix()}`;
    const created = await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: clean(name) });
    await emulator('POST', `templates/${created.body.id}/status`, { status: 'APPROVED' });
    const [record] = (await call('GET', `/v1/templates?name=${name}`, { token: await gamma() })).body.data as { id: string }[];
    const components = risky(name).components;
    // Act
    const dry = await call('PUT', `/v1/templates/${DID}/${record.id}?dry_run=true`, { token: await gamma(), body: { components } });
    const locked = await call('PUT', `/v1/templates/${DID}/${record.id}?dry_run=true`, {
      token: await gamma(),
      body: { components, category: 'PROMO' },
    });
    const before = (await emulator('GET', 'calls')).calls.filter((c: { path: string }) => c.path.endsWith(`/${created.body.id}`)).length;
    const real = await call('PUT', `/v1/templates/${DID}/${record.id}`, { token: await gamma(), body: { components } });
    // Assess
    expect(dry.body).toMatchObject({ valid: true, errors: [] });
    expect(dry.body.review_warnings.map((w: { rule: string }) => w.rule)).toContain('leading_variable');
    expect(locked.body).toMatchObject({ valid: false, errors: [{ path: 'category' }] });
    expect(before).toBe(0);
    expect(real.status).toBe(200);
    expect(real.body.review_warnings).toEqual(dry.body.review_warnings);
  });

  it('refuses a dry_run that is neither true nor false', async () => {
    expectErrorShape(await call('POST', `/v1/templates/${DID}?dry_run=yes`, { token: await gamma(), body: clean(`x_${suffix()}`) }), 400);
  });
});
