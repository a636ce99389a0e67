import { describe, expect, it } from 'vitest';
import { addBody, personOf, personQuery, sourceWords } from '../../../console/src/pages/consent-data.ts';
import { lastAnswer, STATUS_WORDS } from '../../../console/src/pages/deliveries-data.ts';
import { bodyExamples, draftBody, templateRow } from '../../../console/src/pages/templates-data.ts';

describe('the consent page’s requests and words (issue 45)', () => {
  it('reads a typed person as a phone number or a BSUID, and says what else it wants', () => {
    expect(personQuery(' +52 1 (555) 000-0000 ')).toEqual({ person: '+5215550000000' });
    expect(personQuery('MX.ENT.a1B2')).toEqual({ person: 'MX.ENT.a1B2' });
    expect(personQuery('12345')).toEqual({ problem: expect.stringMatching(/phone number .* or a BSUID/) });
    expect(personQuery('mx.abc')).toHaveProperty('problem');
  });

  it('adds a phone number or a BSUID with its reason, for the page’s client', () => {
    expect(addBody({ person: '521 555 000 0001', reason: ' asked by phone ' }, 7)).toEqual({
      body: { phone: '5215550000001', reason: 'asked by phone', client_id: 7 },
    });
    expect(addBody({ person: 'BR.x9', reason: '' }, 8)).toEqual({ body: { user_id: 'BR.x9', client_id: 8 } });
    expect(addBody({ person: 'nobody', reason: '' }, 8)).toHaveProperty('problem');
  });

  it('names each entry’s source in words and its person by phone, else BSUID', () => {
    expect(sourceWords('131050')).toMatch(/stopped marketing \(131050\)/);
    expect(sourceWords('inbound')).toMatch(/opt-out word/);
    expect(sourceWords('something_new')).toBe('something_new');
    expect(personOf({ user_id: 'MX.1', phone: '5215550000001' })).toBe('5215550000001');
    expect(personOf({ user_id: 'MX.1' })).toBe('MX.1');
  });
});

describe('the webhook deliveries page’s words (issue 45)', () => {
  it('says a delivery’s outcome and the receiver’s last answer', () => {
    expect(STATUS_WORDS.failed).toMatch(/given up/);
    expect(lastAnswer({ attempts: 0 })).toBe('Not tried yet');
    expect(lastAnswer({ attempts: 3, last_status_code: 503, last_error: 'Service Unavailable' })).toBe('HTTP 503: Service Unavailable');
    expect(lastAnswer({ attempts: 1, last_error: 'connect ECONNREFUSED' })).toBe('connect ECONNREFUSED');
  });
});

describe('the templates page’s rows and draft check (issue 45)', () => {
  it('shows a template’s status, quality, pause and its campaigns with their channels', () => {
    // Act
    const row = templateRow({
      id: 'r1',
      active: true,
      meta_template: { name: 'promo', language: 'en_US', category: 'MARKETING', status: 'PAUSED', quality_score: { score: 'RED' } },
      channel_campaigns: [
        { campaign_id: 31, campaign_name: 'Sales', channels: [{ channel_id: 41, name: 'WA Sales', did: '5215550001' }] },
        { campaign_id: 32, channels: [] },
      ],
    });
    // Assess
    expect(row).toMatchObject({ name: 'promo', status: 'PAUSED', quality: 'RED', paused: true, active: true });
    expect(row.assignments).toEqual(['Sales: WA Sales (5215550001)', 'Campaign 32: no channel']);
    expect(templateRow({ id: 'r2' })).toMatchObject({ status: 'UNKNOWN', quality: 'UNKNOWN', paused: false, assignments: [] });
  });

  it('makes a draft’s dry-run body: an example a placeholder, the footer when given', () => {
    // Act
    const body = draftBody({ name: ' promo ', language: 'en_US', category: 'MARKETING', body: 'Hi {{1}}, see {{2}} today', footer: '' }, 7);
    // Assess
    expect(bodyExamples('no placeholders')).toEqual([]);
    expect(body).toEqual({
      name: 'promo',
      language: 'en_US',
      category: 'MARKETING',
      client_id: 7,
      components: [{ type: 'BODY', text: 'Hi {{1}}, see {{2}} today', example: { body_text: [['example1', 'example2']] } }],
    });
    expect(draftBody({ name: 'a', language: 'es', category: 'UTILITY', body: 'Hola', footer: 'Baja: STOP' }, 7).components[1]).toEqual({
      type: 'FOOTER',
      text: 'Baja: STOP',
    });
  });
});
