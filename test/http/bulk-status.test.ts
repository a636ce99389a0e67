import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, token } from '../support/api.ts';
import { hexId, seedDirectory, template, waba } from '../support/seed.ts';

/** Client 320 with records in every state a reason needs; client 321's record is foreign to it. */
const C = 320;
const r = (n: number) => hexId(C, n);
const foreign = hexId(321, 1);

beforeAll(async () => {
  const records: Record<string, unknown>[] = [];
  // 1–20: approved, inactive, assigned → enable succeeds
  for (let n = 1; n <= 20; n++)
    records.push({ id: r(n), client_id: C, waba_id: 'w320', template_id: 'ok', channel_id: 3401, campaign_id: 3501 + n, active: false });
  // 21–28: active → disable succeeds / enable already_enabled
  for (let n = 21; n <= 28; n++)
    records.push({ id: r(n), client_id: C, waba_id: 'w320', template_id: 'ok', channel_id: 3402, campaign_id: 3501 + n, active: true });
  // 30: pending, 31: placeholder (no channel), 40–49: concurrency targets
  records.push({ id: r(30), client_id: C, waba_id: 'w320', template_id: 'pending', channel_id: 3401, campaign_id: 3502 });
  records.push({ id: r(31), client_id: C, waba_id: 'w320', template_id: 'ok2' });
  for (let n = 40; n < 50; n++)
    records.push({ id: r(n), client_id: C, waba_id: 'w320', template_id: 'ok3', channel_id: 3401, campaign_id: 3501 + n, active: false });
  records.push({ id: foreign, client_id: 321, waba_id: 'w320', template_id: 'ok', channel_id: 3411, campaign_id: 3599, active: false });
  await seedDirectory({
    clients: [
      { client_id: C, client_name: 'Bulk Co' },
      { client_id: 321, client_name: 'Bulk Other' },
    ],
    wabas: [
      waba('w320', [
        template('ok', 'ok_t'),
        template('ok2', 'ok_two'),
        template('ok3', 'ok_three'),
        template('pending', 'pending_t', { status: 'PENDING' }),
      ]),
    ],
    channels: [
      { wa_id: '320001', client_id: C, waba_id: 'w320' },
      { wa_id: '321001', client_id: 321, waba_id: 'w320' },
    ],
    campaigns: [
      ...Array.from({ length: 50 }, (_, i) => ({ campaign_id: 3502 + i, campaign_name: `K${i}`, client_id: C })),
      { campaign_id: 3599, campaign_name: 'Other', client_id: 321 },
    ],
    contact_channels: [
      { channel_id: 3401, name: 'L1', did: '320001', waba_id: 'w320', client_id: C },
      { channel_id: 3402, name: 'L2', did: '320001', waba_id: 'w320', client_id: C },
      { channel_id: 3411, name: 'O1', did: '321001', waba_id: 'w320', client_id: 321 },
    ],
    template_records: records,
  });
});

const t = () => token({ clientId: C, campaigns: [3502] });
const patch = async (body: unknown, tok?: string) => call('PATCH', '/v1/templates/status', { token: tok ?? (await t()), body });

describe('PATCH /v1/templates/status (spec §2, decisions §3)', () => {
  it('answers a 50-item request with duplicates, conflicts and every reason with exactly the contract’s items and summary', async () => {
    // Prepare: 50 items in a known order
    const items: unknown[] = [
      r(1),
      r(2),
      r(3), // enable → success
      { id: r(21), action: 'disable' }, // disable active → success
      r(4),
      r(4), // duplicate of the same action → second skipped
      r(5),
      { id: r(5), action: 'disable' }, // conflict: both occurrences conflicting_action
      'ffffffffffffffffffffffff', // not_found
      foreign, // forbidden
      r(22), // enable an active one → already_enabled
      { id: r(6), action: 'disable' }, // inactive → already_disabled
      r(30), // pending → template_not_approved
      r(31), // placeholder → channel_unassigned
    ];
    for (let n = 7; n <= 20; n++) items.push(r(n)); // 14 more successes
    for (let n = 23; n <= 28; n++) items.push({ id: r(n), action: 'disable' }); // 6 more successes
    while (items.length < 48) items.push(r(1)); // duplicates of r(1) (processed first above)
    items.push({ id: r(2), action: 'enable' }, r(2)); // more duplicates with explicit same action
    expect(items).toHaveLength(50);
    // Act
    const response = await patch({ action: 'enable', templates: items });
    // Assess
    expect(response.status).toBe(200);
    const results = response.body.results as Record<string, unknown>[];
    expect(results).toHaveLength(50);
    expect(results.map((x) => x.id)).toEqual(items.map((x) => (typeof x === 'string' ? x : (x as { id: string }).id)));
    expect(results[0]).toEqual({ id: r(1), action: 'enable', success: true, skipped: false, previous_active: false, current_active: true });
    expect(results[3]).toEqual({
      id: r(21),
      action: 'disable',
      success: true,
      skipped: false,
      previous_active: true,
      current_active: false,
    });
    expect(results[5]).toEqual({ id: r(4), action: 'enable', success: false, skipped: true, reason: 'duplicate_request' });
    expect(results[6]).toMatchObject({ id: r(5), action: 'enable', skipped: true, reason: 'conflicting_action' });
    expect(results[7]).toMatchObject({ id: r(5), action: 'disable', skipped: true, reason: 'conflicting_action' });
    expect(results[8]).toMatchObject({ success: false, skipped: false, reason: 'not_found' });
    expect(results[9]).toMatchObject({ success: false, reason: 'forbidden' });
    expect(results[10]).toMatchObject({ success: false, reason: 'already_enabled' });
    expect(results[11]).toMatchObject({ success: false, reason: 'already_disabled' });
    expect(results[12]).toMatchObject({ success: false, reason: 'template_not_approved' });
    expect(results[13]).toMatchObject({ success: false, reason: 'channel_unassigned' });
    for (const failed of results.filter((x) => !x.success)) {
      expect(failed).not.toHaveProperty('previous_active');
      expect(failed.reason).toBeDefined();
    }
    // 25 applied (r1–r4, r7–r20 enabled; r21, r23–r28 disabled); 19 skipped (17 duplicates, 2 conflicts); 6 refused
    expect(response.body.summary).toEqual({ total: 50, succeeded: 25, skipped: 19, failed: 6 });
  });

  it('writes nothing for a conflicting id', async () => {
    await patch({
      templates: [
        { id: r(40), action: 'enable' },
        { id: r(40), action: 'disable' },
      ],
    });
    const again = await patch({ templates: [{ id: r(40), action: 'disable' }] });
    expect(again.body.results[0].reason).toBe('already_disabled');
  });

  it('lets BSP_CN change another client’s record', async () => {
    const response = await patch({ action: 'enable', templates: [hexId(321, 1)] }, await token({ clientId: 1, bsp: true }));
    expect(response.body.results[0]).toMatchObject({ success: true, current_active: true });
  });

  it('never lets two concurrent requests flip one record the same way', async () => {
    // Act: ten requests enable the same record at once
    const responses = await Promise.all(Array.from({ length: 10 }, async () => patch({ action: 'enable', templates: [r(41)] })));
    // Assess
    const outcomes = responses.map((x) => x.body.results[0]);
    expect(outcomes.filter((o) => o.success)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.success).every((o) => o.reason === 'already_enabled')).toBe(true);
  });

  it('loses no update when concurrent requests touch different records', async () => {
    const ids = [r(42), r(43), r(44), r(45), r(46)];
    await Promise.all(ids.map((id) => patch({ action: 'enable', templates: [id] })));
    const check = await patch({ action: 'enable', templates: ids });
    expect(check.body.results.map((x: { reason: string }) => x.reason)).toEqual(ids.map(() => 'already_enabled'));
  });

  it.each([
    [{ templates: [] }, 'templates'],
    [{ action: 'enable' }, 'templates'],
    [{ action: 'toggle', templates: [r(1)] }, 'action'],
    [{ templates: [{ id: r(1), action: 'on' }] }, 'templates[0].action'],
    [{ templates: [r(1)] }, 'templates[0]'],
    [{ action: 'enable', templates: [r(1), { id: r(2) }, 7] }, 'templates[2]'],
  ])('fails the whole request with 400 for %o', async (body, field) => {
    const error = expectErrorShape(await patch(body), 400, 'validation_failed');
    expect(error.details?.map((d) => d.path)).toContain(field);
  });

  it('refuses more than 1,000 items and unknown fields with 400', async () => {
    expectErrorShape(await patch({ action: 'enable', templates: Array.from({ length: 1001 }, (_, i) => hexId(999, i)) }), 400);
    expectErrorShape(await patch({ action: 'enable', templates: [r(1)], client_id: 7 }), 400);
  });
});
