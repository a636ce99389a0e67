import type { RateCard } from '../rate-card.ts';

/**
 * Meta's per-message rates in force from 2025-07-01, for the markets the source lists country by country. The
 * source is a public copy of Meta's rate card by country (Meta's own CSV needs a login); the countries below are
 * those it was checked for. A number whose calling code is not here is priced as Meta's `Other` market: add its
 * country in the next card (a new file) rather than here.
 */
export const META_2025_07_01: RateCard = {
  effective_from: '2025-07-01',
  currency: 'USD',
  source: {
    title: "WhatsApp Business Platform Pricing Guide: complete country pricing table (Meta's rates effective July 1, 2025)",
    url: 'https://docs.sent.dm/docs/guides/whatsapp-pricing',
    taken_on: '2026-11-26',
    note: 'USD per delivered template message; service messages free. Checked against Meta market groupings (Rest of …, Other).',
  },
  markets: {
    Argentina: { marketing: 0.0618, utility: 0.0289, authentication: 0.0289 },
    'Rest of Asia Pacific': { marketing: 0.0732, utility: 0.0113, authentication: 0.0113 },
    'Rest of Western Europe': { marketing: 0.0592, utility: 0.0171, authentication: 0.0171 },
    'Rest of Central & Eastern Europe': { marketing: 0.086, utility: 0.0212, authentication: 0.0212 },
    'Rest of Africa': { marketing: 0.0225, utility: 0.004, authentication: 0.004 },
    'Rest of Latin America': { marketing: 0.074, utility: 0.0113, authentication: 0.0113 },
    Other: { marketing: 0.0604, utility: 0.0077, authentication: 0.0077 },
  },
  calling_codes: {
    '54': { country: 'AR', market: 'Argentina' },
    '93': { country: 'AF', market: 'Rest of Asia Pacific' },
    '61': { country: 'AU', market: 'Rest of Asia Pacific' },
    '376': { country: 'AD', market: 'Rest of Western Europe' },
    '43': { country: 'AT', market: 'Rest of Western Europe' },
    '355': { country: 'AL', market: 'Rest of Central & Eastern Europe' },
    '374': { country: 'AM', market: 'Rest of Central & Eastern Europe' },
    '994': { country: 'AZ', market: 'Rest of Central & Eastern Europe' },
    '213': { country: 'DZ', market: 'Rest of Africa' },
    '244': { country: 'AO', market: 'Rest of Africa' },
    '1268': { country: 'AG', market: 'Rest of Latin America' },
    '1264': { country: 'AI', market: 'Rest of Latin America' },
    '297': { country: 'AW', market: 'Rest of Latin America' },
    '1242': { country: 'BS', market: 'Rest of Latin America' },
    '1684': { country: 'AS', market: 'Other' },
    '672': { country: 'AQ', market: 'Other' },
  },
};
