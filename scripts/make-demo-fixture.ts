import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../local/keys.ts';

/**
 * Writes fixtures/demo.json, the directory the local stack and the tests start from (decisions §8):
 * several clients, a WABA shared by clients 7 and 8, catalogs with enough products to page, and approved,
 * pending and named-parameter templates. Deterministic, so the committed file only changes with this script.
 */
const products = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    return {
      id: `${prefix}-p-${n}`,
      name: `Product ${n}`,
      retailer_id: `${prefix.toUpperCase()}-SKU-${n}`,
      image_urls: [`https://img.example.com/${prefix}/${n}.png`],
      description: i % 3 === 0 ? '' : `Description of product ${n}`,
      currency: 'USD',
      price: `$${(10 + i).toFixed(2)}`,
      url: `https://shop.example.com/${prefix}/${n}`,
      category: i % 2 ? 'shoes' : 'apparel',
      unique_id: `${prefix}-u-${n}`,
    };
  });

const body = (text: string, examples: string[]) => ({
  type: 'BODY',
  text,
  ...(examples.length ? { example: { body_text: [examples] } } : {}),
});

const fixture = {
  clients: [
    { client_id: 7, client_name: 'Acme' },
    { client_id: 8, client_name: 'Beta Retail' },
    { client_id: 9, client_name: 'Gamma Health' },
    { client_id: 10, client_name: 'Delta Logistics' },
  ],
  wabas: [
    {
      waba_id: '100200300', waba_name: 'Acme Main', business_id: '555', business_name: 'Acme Inc',
      namespace: 'a1b2c3d4_e5f6_7a8b_9c0d_e1f2a3b4c5d6', country: 'MX',
      catalogs: [
        { id: 'cat-1', name: 'Shoes', vertical: 'commerce', products: products('cat1', 230) },
        { id: 'cat-2', name: 'Accessories', vertical: 'commerce', products: products('cat2', 3) },
      ],
      templates: [
        { id: '9001', name: 'order_update', language: 'en_US', status: 'APPROVED', category: 'UTILITY',
          components: [body('Order {{1}} shipped', ['A-1'])], quality_score: { score: 'GREEN' } },
        { id: '9002', name: 'order_update', language: 'es', status: 'APPROVED', category: 'UTILITY',
          components: [body('Pedido {{1}} enviado', ['A-1'])], quality_score: { score: 'YELLOW' } },
        { id: '9003', name: 'summer_promo', language: 'en_US', status: 'PENDING', category: 'MARKETING',
          components: [{ type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}', example: { header_text: ['Ana'] } },
            body('Get {{1}} off this summer', ['20%']), { type: 'FOOTER', text: 'Reply STOP to opt out' }],
          quality_score: { score: 'UNKNOWN' } },
        { id: '9004', name: 'login_code', language: 'en_US', status: 'APPROVED', category: 'AUTHENTICATION',
          components: [{ type: 'BODY', text: '{{1}} is your verification code.', example: { body_text: [['123456']] } },
            { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Copy code', url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}', example: ['https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp123456'] }] }],
          quality_score: { score: 'GREEN' } },
        { id: '9005', name: 'named_greeting', language: 'en_US', status: 'APPROVED', category: 'MARKETING',
          parameter_format: 'NAMED',
          components: [{ type: 'BODY', text: 'Hello {{first_name}}', example: { body_text_named_params: [{ param_name: 'first_name', example: 'Pablo' }] } }],
          quality_score: { score: 'GREEN' } },
        { id: '9006', name: 'direct_notice', language: 'en_US', status: 'APPROVED', category: 'UTILITY',
          components: [body('Your ticket was updated', [])], quality_score: { score: 'GREEN' } },
        { id: '9008', name: 'promo_image', language: 'en_US', status: 'APPROVED', category: 'MARKETING',
          components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.example.com/h.png'] } },
            body('New arrivals for {{1}}', ['Ana']), { type: 'FOOTER', text: 'Acme' }],
          quality_score: { score: 'GREEN' } },
        { id: '9009', name: 'store_location', language: 'en_US', status: 'APPROVED', category: 'UTILITY',
          components: [{ type: 'HEADER', format: 'LOCATION' }, body('Your order waits at {{1}}', ['our store'])],
          quality_score: { score: 'GREEN' } },
        { id: '9010', name: 'track_order', language: 'en_US', status: 'APPROVED', category: 'UTILITY',
          components: [{ type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1'] } },
            body('Hi {{1}}, order {{2}} is on its way', ['Ana', 'A-1']),
            { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.com/t/{{1}}', example: ['https://shop.example.com/t/A-1'] },
              { type: 'QUICK_REPLY', text: 'Thanks' }, { type: 'COPY_CODE', example: 'SAVE10' }] }],
          quality_score: { score: 'GREEN' } },
        { id: '9011', name: 'spring_cards', language: 'en_US', status: 'APPROVED', category: 'MARKETING',
          components: [body('Pick your style', []), { type: 'CAROUSEL', cards: [0, 1].map(() => ({ components: [
            { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::c'] } }, body('Card {{1}}', ['x']),
            { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Buy', url: 'https://shop.example.com/c/{{1}}', example: ['https://shop.example.com/c/1'] }] }] })) }],
          quality_score: { score: 'GREEN' } },
        { id: '9007', name: 'rejected_offer', language: 'en_US', status: 'REJECTED', category: 'MARKETING',
          components: [body('Buy now {{1}}', ['x'])], rejected_reason: 'PROMOTIONAL', quality_score: { score: 'UNKNOWN' } },
      ],
    },
    { waba_id: '100200301', waba_name: 'Acme Support', business_id: '555', business_name: 'Acme Inc',
      namespace: 'b1b2c3d4_e5f6_7a8b_9c0d_e1f2a3b4c5d7', country: 'MX', catalogs: [], templates: [] },
    { waba_id: '100200400', waba_name: 'Gamma Care', business_id: '777', business_name: 'Gamma Health SA',
      namespace: 'c1b2c3d4_e5f6_7a8b_9c0d_e1f2a3b4c5d8', country: 'BR',
      catalogs: [{ id: 'cat-9', name: 'Pharmacy', vertical: 'commerce', products: products('cat9', 5) }],
      templates: [
        { id: '9101', name: 'appointment_reminder', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY',
          components: [body('Sua consulta é {{1}}', ['amanhã'])], quality_score: { score: 'GREEN' } },
      ] },
    { waba_id: '100200500', waba_name: 'Delta Fleet', business_id: '888', business_name: 'Delta Logistics LLC',
      namespace: 'd1b2c3d4_e5f6_7a8b_9c0d_e1f2a3b4c5d9', country: 'US', catalogs: [], templates: [] },
  ],
  channels: [
    { wa_id: '5215550001', client_id: 7, client_name: 'Acme', waba_id: '100200300', waba_name: 'Acme Main', status: 'ACTIVE',
      business_id: '555', business_name: 'Acme Inc', phone_number_id: '110001', phone_number: '+52 1 555 0001',
      quality_rating: 'GREEN', current_limit: 'TIER_10K', is_on_biz_app: false, phone_code: '52' },
    { wa_id: '5215550002', client_id: 7, client_name: 'Acme', waba_id: '100200301', waba_name: 'Acme Support', status: 'ACTIVE',
      business_id: '555', business_name: 'Acme Inc', phone_number_id: '110002', phone_number: '+52 1 555 0002' },
    { wa_id: '5215550003', client_id: 7, client_name: 'Acme', waba_id: '100200300', waba_name: 'Acme Main', status: 'DISCONNECTED',
      business_id: '555', business_name: 'Acme Inc', phone_number_id: '110003', deleted: true },
    { wa_id: '5215550011', client_id: 8, client_name: 'Beta Retail', waba_id: '100200300', waba_name: 'Acme Main', status: 'ACTIVE',
      business_id: '555', business_name: 'Acme Inc', phone_number_id: '110011', phone_number: '+52 1 555 0011' },
    { wa_id: '5511990021', client_id: 9, client_name: 'Gamma Health', waba_id: '100200400', waba_name: 'Gamma Care', status: 'ACTIVE',
      business_id: '777', business_name: 'Gamma Health SA', phone_number_id: '120021', phone_number: '+55 11 99002 1' },
    { wa_id: '5511990022', client_id: 9, client_name: 'Gamma Health', waba_id: '100200400', waba_name: 'Gamma Care', status: 'FLAGGED',
      business_id: '777', business_name: 'Gamma Health SA', phone_number_id: '120022' },
    { wa_id: '15550100031', client_id: 10, client_name: 'Delta Logistics', waba_id: '100200500', waba_name: 'Delta Fleet', status: 'ACTIVE',
      business_id: '888', business_name: 'Delta Logistics LLC', phone_number_id: '130031' },
  ],
  campaigns: [
    { campaign_id: 31, campaign_name: 'Collections', client_id: 7 },
    { campaign_id: 32, campaign_name: 'Sales', client_id: 7 },
    { campaign_id: 33, campaign_name: 'Support', client_id: 7 },
    { campaign_id: 41, campaign_name: 'Onboarding', client_id: 8 },
    { campaign_id: 51, campaign_name: 'Reminders', client_id: 9 },
  ],
  contact_channels: [
    { channel_id: 41, name: 'WA Sales', did: '5215550001', type: 'MSGCHAN', waba_id: '100200300', client_id: 7 },
    { channel_id: 42, name: '', did: '5215550001', type: 'MSGCHAN', waba_id: '100200300', client_id: 7 },
    { channel_id: 43, name: 'WA Support', did: '5215550002', type: 'MSGCHAN', waba_id: '100200301', client_id: 7 },
    { channel_id: 61, name: 'Beta WA', did: '5215550011', type: 'MSGCHAN', waba_id: '100200300', client_id: 8 },
    { channel_id: 71, name: 'Gamma WA', did: '5511990021', type: 'MSGCHAN', waba_id: '100200400', client_id: 9 },
  ],
  template_records: [
    { id: '65a1b2c3d4e5f60718293a4b', client_id: 7, waba_id: '100200300', template_id: '9001', channel_id: 41, campaign_id: 31, active: true, createdBy: 'seed' },
    { id: '65a1b2c3d4e5f60718293a4c', client_id: 8, waba_id: '100200300', template_id: '9001', active: false, createdBy: 'seed' },
    { id: '65a1b2c3d4e5f60718293a4d', client_id: 7, waba_id: '100200300', template_id: '9002', active: false, createdBy: 'seed' },
    { id: '65a1b2c3d4e5f60718293a4e', client_id: 7, waba_id: '100200300', template_id: '9003', active: false, createdBy: 'seed' },
    { id: '65a1b2c3d4e5f60718293a4f', client_id: 7, waba_id: '100200300', template_id: '9004', channel_id: 42, campaign_id: 32, active: true, createdBy: 'seed' },
    { id: '65a1b2c3d4e5f60718293a50', client_id: 7, waba_id: '100200300', template_id: '9006', active: true, isDirectMessage: true, createdBy: 'seed' },
    { id: '65a1b2c3d4e5f60718293a51', client_id: 9, waba_id: '100200400', template_id: '9101', channel_id: 71, campaign_id: 51, active: true, createdBy: 'seed' },
  ],
};

writeFileSync(join(ROOT, 'fixtures', 'demo.json'), `${JSON.stringify(fixture, null, 2)}\n`);
console.log('wrote fixtures/demo.json');
