/**
 * The currencies Meta bills a WABA in and the card dates where the service has no whole card in one (decisions §31):
 * each named with the places tried, so a WABA priced in the base currency (`currency_mismatch`) is so by a known
 * gap, not by an oversight. The research behind it: docs/research/issue-53/ (findings.md §1, currencies.md).
 */

/** A currency Meta bills in, and the first day it did (YYYY-MM-DD; `null`: since before every card). */
export interface BillingCurrency {
  code: string;
  since: string | null;
}

/** Meta's 16 billing currencies (docs/research/issue-53/currencies.md gives each one's evidence). */
export const BILLING_CURRENCIES: readonly BillingCurrency[] = [
  { code: 'USD', since: null },
  { code: 'AUD', since: null },
  { code: 'EUR', since: null },
  { code: 'GBP', since: null },
  { code: 'IDR', since: null },
  { code: 'INR', since: null },
  { code: 'MXN', since: '2026-01-01' },
  { code: 'BRL', since: '2026-07-01' },
  ...['ARS', 'CLP', 'COP', 'MYR', 'PEN', 'SAR', 'SGD', 'AED'].map((code) => ({ code, since: '2026-04-01' })),
];

/**
 * A currency and card date without a whole card: `not_billed` before Meta billed in the currency, `not_found` where
 * no source was found, `partial` where the card gives only `markets` (the others priced in the base currency).
 */
export interface MissingCard {
  currency: string;
  effective_from: string;
  status: 'not_billed' | 'not_found' | 'partial';
  markets?: string[];
  tried: string[];
}

/** Every search of research53 (2026-11-28), for every currency and date: findings.md §1 "Places tried". */
const SEARCHED = [
  "find_string 'Cost per message in <CUR>', 'on the WhatsApp Business Platform, effective', '<market>,<CUR>', numeric probes",
  'search (code, pages, docs): rate-card queries per currency, in its languages',
  'github:alihasnainh3techs/daily-pricing-scraper (USD only); github:OJoshuaCG/meta-whatsapp-pricing (no data files)',
];
/** The one source of every currency's 2026-10-01 card, out of reach here. */
const TOBACHAT =
  'https://huggingface.co/datasets/tobachat/whatsapp-api-rates (2026-10-01, 16 currencies; only its first AED rows readable)';
const CURRENCIES_MD = 'docs/research/issue-53/currencies.md (the currency began after this date)';

const notBilled = (currency: string, dates: string[]): MissingCard[] =>
  dates.map((effective_from) => ({ currency, effective_from, status: 'not_billed', tried: [CURRENCIES_MD] }));
const notFound = (currency: string, dates: string[], ...more: string[]): MissingCard[] =>
  dates.map((effective_from) => ({
    currency,
    effective_from,
    status: 'not_found',
    tried: [...SEARCHED, ...(effective_from === '2026-10-01' ? [TOBACHAT] : []), ...more],
  }));
const partial = (currency: string, effective_from: string, markets: string[], ...more: string[]): MissingCard => ({
  currency,
  effective_from,
  status: 'partial',
  markets,
  tried: [...SEARCHED, ...(effective_from === '2026-10-01' ? [TOBACHAT] : []), ...more],
});

const Q1_2025 = ['2025-07-01', '2025-10-01'];
const APRIL_ON = ['2026-04-01', '2026-07-01', '2026-10-01'];
/** The 8 markets the GBP source gives, on July's card and (it says, unchanged) October's. */
const GBP_MARKETS = ['United Kingdom', 'Germany', 'France', 'Netherlands', 'Spain', 'Italy', 'Rest of Western Europe', 'North America'];

export const MISSING_CARDS: readonly MissingCard[] = [
  ...notFound('AUD', [...Q1_2025, '2026-01-01', ...APRIL_ON]),
  ...notFound('EUR', [...Q1_2025, '2026-01-01']),
  ...notFound(
    'EUR',
    ['2026-04-01'],
    "find_string/read_file id 55141994156 (TS PHONE_CODES, Meta's calculator wp-json/wab/v1/pricing in EUR, taken 2026-06-30, so " +
      'the April card): marketing and utility of 31 of the 32 April markets, equal to the July EUR card but for the July ' +
      'marketing rises of ES, IT and UK; no authentication, no authentication-international and no Rest of Latin America ' +
      'row, so no whole card (an older marketing-only version is id 55247849493; docs/research/issue-53/findings-session5.md §1)',
  ),
  ...notFound(
    'EUR',
    ['2026-10-01'],
    'find_string/read_file ids 69530031695, 69481606087: one EUR row (Rest of Central & Eastern Europe), too little for a card',
  ),
  ...notFound('GBP', [...Q1_2025, '2026-01-01', '2026-04-01']),
  partial('GBP', '2026-07-01', GBP_MARKETS),
  partial('GBP', '2026-10-01', GBP_MARKETS),
  ...notFound('IDR', [...Q1_2025, '2026-01-01', '2026-04-01']),
  partial('IDR', '2026-07-01', ['Indonesia']),
  partial('IDR', '2026-10-01', ['Indonesia']),
  ...notFound('INR', ['2025-07-01']),
  partial('INR', '2026-01-01', ['India'], 'https://whats91.com/pricing and digitaltechbyte.com: the India row only'),
  ...notFound('INR', ['2026-04-01'], "India's authentication-international changed on 2026-04-01; no INR value found"),
  ...notFound('INR', ['2026-07-01']),
  partial('INR', '2026-10-01', ['India'], 'find_string/read_file id 70614543579: names the INR card, values not given'),
  ...notBilled('MXN', Q1_2025),
  ...notFound('MXN', ['2026-01-01', ...APRIL_ON]),
  ...notBilled('BRL', [...Q1_2025, '2026-01-01', '2026-04-01']),
  partial('BRL', '2026-07-01', ['Brazil', 'Argentina']),
  partial('BRL', '2026-10-01', ['Brazil'], 'find_string/read_file id 69119156404: names the BRL card, values not read'),
  ...['ARS', 'CLP', 'COP', 'MYR', 'PEN', 'SAR', 'SGD', 'AED'].flatMap((code) => notBilled(code, [...Q1_2025, '2026-01-01'])),
  ...['ARS', 'COP', 'MYR', 'PEN', 'SGD'].flatMap((code) => notFound(code, APRIL_ON)),
  ...notFound('CLP', ['2026-04-01']),
  partial('CLP', '2026-07-01', ['Chile']),
  ...notFound('CLP', ['2026-10-01']),
  ...notFound('SAR', ['2026-04-01', '2026-10-01']),
  ...notFound('SAR', ['2026-07-01'], 'find_string/read_file id 58892117532: the Saudi Arabia row in SAR only, not re-read'),
  ...notFound('AED', ['2026-04-01', '2026-07-01']),
  partial('AED', '2026-10-01', ['Argentina', 'Bangladesh', 'Brazil', 'Chile', 'Colombia', 'Egypt']),
];
