import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planBulkStatus, refusal, summarize, type BulkItemResult } from '#lib/domain/templates/bulk-status.ts';
import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';

const record = (over: Partial<TemplateRecord>): TemplateRecord => ({
  id: 'r',
  client_id: 1,
  waba_id: 'w',
  namespace: 'n',
  active: false,
  created_at: '',
  updated_at: '',
  meta_template: { id: 't', name: 'n', language: 'en', status: 'APPROVED', category: 'UTILITY', components: [] },
  channel: { channel_id: 1, name: '', did: 'd', type: 'MSGCHAN', waba_id: 'w' },
  campaign: { campaign_id: 2, campaign_name: 'c' },
  ...over,
});

describe('bulk status planning', () => {
  it('processes each id at most once and never an id with two actions (property)', () => {
    const item = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), action: fc.constantFrom('enable', 'disable', undefined) });
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 30 }), fc.constantFrom('enable', 'disable'), (items, global) => {
        const plan = planBulkStatus({ action: global, templates: items.map((i) => (i.action ? { id: i.id, action: i.action } : i.id)) });
        expect(plan).toHaveLength(items.length);
        const processed = plan.filter((p) => p.plan === 'process').map((p) => p.id);
        expect(new Set(processed).size).toBe(processed.length);
        for (const id of new Set(plan.map((p) => p.id))) {
          const actions = new Set(plan.filter((p) => p.id === id).map((p) => p.action));
          if (actions.size > 1) expect(plan.filter((p) => p.id === id).every((p) => p.plan === 'conflicting_action')).toBe(true);
        }
      }),
    );
  });

  it('checks enable reasons in the decided order', () => {
    expect(refusal(record({ active: true, meta_template: { ...record({}).meta_template, status: 'PENDING' } }), 'enable')).toBe(
      'already_enabled',
    );
    expect(refusal(record({ channel: undefined, meta_template: { ...record({}).meta_template, status: 'PENDING' } }), 'enable')).toBe(
      'template_not_approved',
    );
    expect(refusal(record({ channel: undefined, campaign: undefined }), 'enable')).toBe('channel_unassigned');
    expect(refusal(record({ campaign: undefined }), 'enable')).toBe('campaign_unassigned');
    expect(refusal(record({}), 'enable')).toBeUndefined();
    expect(refusal(record({}), 'disable')).toBe('already_disabled');
    expect(refusal(record({ active: true }), 'disable')).toBeUndefined();
  });

  it('summarises succeeded, skipped and failed so they add up to total', () => {
    const results = [
      { success: true, skipped: false },
      { success: false, skipped: true },
      { success: false, skipped: false },
    ] as BulkItemResult[];
    expect(summarize(results)).toEqual({ total: 3, succeeded: 1, skipped: 1, failed: 1 });
  });
});
