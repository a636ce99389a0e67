import { performance } from 'node:perf_hooks';
import { checkTemplateDraft } from '#lib/domain/templates/rules/draft.ts';
import { listingEntryOf } from '#lib/domain/templates/template-listing.ts';
import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';

/**
 * The hot domain paths, each reported as a ratio to a baseline measured in the same run (a JSON round trip
 * of the same data), so figures compare across machines.
 */
function records(templates: number, perTemplate: number): TemplateRecord[] {
  const out: TemplateRecord[] = [];
  for (let t = 0; t < templates; t++) {
    for (let k = 0; k < perTemplate; k++) {
      out.push({
        id: `${t.toString(16).padStart(12, '0')}${k.toString(16).padStart(12, '0')}`,
        client_id: 1,
        waba_id: 'w',
        namespace: 'ns',
        active: k === 0,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '',
        meta_template: {
          id: `m${t}`,
          name: `template_${String(t).padStart(5, '0')}`,
          language: 'en_US',
          status: t % 3 ? 'APPROVED' : 'PENDING',
          category: 'UTILITY',
          components: [
            {
              type: 'BODY',
              text: 'Hello {{1}}, order {{2}}',
              example: { body_text: [['a', 'b']] },
            },
          ],
          quality_score: { score: 'GREEN' },
        },
        channel: {
          channel_id: 10 + k,
          name: `line ${k}`,
          did: '1',
          type: 'MSGCHAN',
          waba_id: 'w',
        },
        campaign: { campaign_id: 100 + k, campaign_name: `c${k}` },
      });
    }
  }
  return out;
}

function measure(name: string, run: () => unknown, iterations: number) {
  const out = run();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) run();
  const ms = (performance.now() - start) / iterations;
  // Memory: the size of what one call hands back, as JSON bytes (what a response would carry).
  return {
    name,
    ms,
    outputBytes: Buffer.byteLength(JSON.stringify(out ?? null)),
  };
}

export function measureDomainPaths() {
  const data = records(1000, 3);
  const baseline = measure('baseline: JSON round trip of 3,000 records', () => JSON.parse(JSON.stringify(data)), 20);
  const results = [
    measure(
      'listing entries: 1,000 templates × 3 records derived (what the writes of a sync add)',
      () => {
        const entries = [];
        for (let t = 0; t < data.length; t += 3) entries.push(listingEntryOf(data.slice(t, t + 3)));
        return entries.length;
      },
      20,
    ),
    measure(
      'template rules: one 4-component draft ×1,000',
      () => {
        for (let i = 0; i < 1000; i++) {
          checkTemplateDraft({
            category: 'UTILITY',
            components: [
              {
                type: 'HEADER',
                format: 'TEXT',
                text: 'Hi {{1}}',
                example: { header_text: ['a'] },
              },
              {
                type: 'BODY',
                text: 'Order {{1}} ready {{2}}',
                example: { body_text: [['a', 'b']] },
              },
              { type: 'FOOTER', text: 'f' },
              {
                type: 'BUTTONS',
                buttons: [
                  {
                    type: 'URL',
                    text: 'Go',
                    url: 'https://a.example.com/{{1}}',
                    example: ['https://a.example.com/x'],
                  },
                ],
              },
            ],
          });
        }
      },
      5,
    ),
  ];
  return { baseline, results };
}
