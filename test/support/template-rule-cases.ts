/**
 * Create requests that break one rule each, with the detail path the answer must name. The HTTP tests send
 * them through the local stack (test/http/templates-create.test.ts); the unit tests run them through the
 * request schema and the create use case in memory (test/unit/use-cases/create-rules.test.ts), so every rule
 * row is checked both ways from one table.
 */
export const CREATE_RULE_CASES: [string, Record<string, unknown>][] = [
  ['name', { name: 'Bad Name!' }],
  ['language', { language: 'english' }],
  ['category', { category: 'PROMO' }],
  ['parameter_format', { parameter_format: 'named' }],
  ['components[0].text', { components: [{ type: 'BODY', text: 'x'.repeat(1025) }] }],
  [
    'components[0].text',
    {
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'h'.repeat(61) },
        { type: 'BODY', text: 'Hi' },
      ],
    },
  ],
  [
    'components[1].text',
    {
      components: [
        { type: 'BODY', text: 'Hi' },
        { type: 'FOOTER', text: 'f'.repeat(61) },
      ],
    },
  ],
  [
    'components[0].example.body_text',
    { components: [{ type: 'BODY', text: 'Hi {{1}} and {{2}}', example: { body_text: [['only one']] } }] },
  ],
  ['components[0].text', { components: [{ type: 'BODY', text: 'Hi {{1}} and {{3}}', example: { body_text: [['a', 'b']] } }] }],
  ['components[0].text', { components: [{ type: 'BODY', text: 'Hi {{first_name}}' }] }],
  [
    'components[0].text',
    {
      components: [
        { type: 'HEADER', format: 'TEXT', text: '{{1}} {{2}}', example: { header_text: ['a', 'b'] } },
        { type: 'BODY', text: 'x' },
      ],
    },
  ],
  [
    'components[1].buttons',
    {
      components: [
        { type: 'BODY', text: 'x' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'a' },
            { type: 'URL', text: 'u', url: 'https://a.example.com' },
            { type: 'QUICK_REPLY', text: 'b' },
          ],
        },
      ],
    },
  ],
  [
    'components[1].buttons[0].text',
    {
      components: [
        { type: 'BODY', text: 'x' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'q'.repeat(26) }] },
      ],
    },
  ],
  [
    'components[1].buttons[0].url',
    {
      components: [
        { type: 'BODY', text: 'x' },
        {
          type: 'BUTTONS',
          buttons: [{ type: 'URL', text: 'u', url: 'https://a.example.com/{{1}}/x', example: ['https://a.example.com/1/x'] }],
        },
      ],
    },
  ],
  [
    'components[1].buttons',
    {
      components: [
        { type: 'BODY', text: 'x' },
        { type: 'BUTTONS', buttons: [1, 2, 3].map((n) => ({ type: 'URL', text: `u${n}`, url: 'https://a.example.com' })) },
      ],
    },
  ],
  [
    'components[1].buttons[0].phone_number',
    {
      components: [
        { type: 'BODY', text: 'x' },
        { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call', phone_number: '1'.repeat(21) }] },
      ],
    },
  ],
  [
    'components[1].buttons[0].type',
    {
      components: [
        { type: 'BODY', text: 'x' },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] },
      ],
    },
  ],
  ['components', { components: [{ type: 'FOOTER', text: 'no body' }] }],
  ['message_send_ttl_seconds', { message_send_ttl_seconds: 29 }],
  ['message_send_ttl_seconds', { message_send_ttl_seconds: 43_201 }],
  ['add_security_recommendation', { add_security_recommendation: true }],
  ['code_expiration_minutes', { code_expiration_minutes: 5 }],
  ['optimization_spec.bid_amount', { optimization_spec: { bid_amount: 0, bid_strategy: 'LOWEST_COST' } }],
  [
    'optimization_spec.bid_country_multiplier_overrides.mexico',
    { optimization_spec: { bid_amount: 1, bid_strategy: 'CAP', bid_country_multiplier_overrides: { mexico: 2 } } },
  ],
  ['country', { country: 'mex' }],
  ['surprise', { surprise: true }],
];

/** A valid UTILITY template every rule case starts from. */
export const validUtilityTemplate = (name: string) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1'] } },
    { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is ready.', example: { body_text: [['Ana', 'A-1']] } },
    { type: 'FOOTER', text: 'Thanks for shopping' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://shop.example.com/track/{{1}}', example: ['https://shop.example.com/track/A-1'] },
      ],
    },
  ],
});
