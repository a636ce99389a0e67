import { describe, expect, it } from 'vitest';
import { channelMatches, selectChannelFields } from '#lib/domain/shared/channels.ts';
import { resolvePage } from '#lib/domain/shared/paging.ts';

const channel = { wa_id: '5215550001', client_id: 7, client_name: 'Acme', waba_id: '100', waba_name: 'Main', business_name: 'Acme Inc' };

describe('channel listing rules', () => {
  it('excludes deleted channels unless deleted=true, which returns only them', () => {
    expect(channelMatches(channel, {})).toBe(true);
    expect(channelMatches({ ...channel, deleted: true }, {})).toBe(false);
    expect(channelMatches({ ...channel, deleted: true }, { deleted: true })).toBe(true);
    expect(channelMatches(channel, { deleted: true })).toBe(false);
  });

  it('q looks at client_name, waba_name, wa_id and waba_id only', () => {
    expect(channelMatches(channel, { q: 'acme' })).toBe(true);
    expect(channelMatches(channel, { q: 'MAIN' })).toBe(true);
    expect(channelMatches(channel, { q: '555000' })).toBe(true);
    expect(channelMatches(channel, { q: 'inc' })).toBe(false);
  });

  it('selects known fields once each, else the defaults', () => {
    expect(selectChannelFields('wa_id, wa_id,status')).toEqual(['wa_id', 'status']);
    expect(selectChannelFields('x')).toHaveLength(8);
  });

  it('resolves pages with defaults and a ceiling', () => {
    expect(resolvePage({}, { size: 20, max: 100 })).toEqual({ page: 1, size: 20, offset: 0 });
    expect(resolvePage({ page: 3, size: 500 }, { size: 20, max: 100 })).toEqual({ page: 3, size: 100, offset: 200 });
  });
});
