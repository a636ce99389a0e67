import { GraphError } from './graph-error.ts';
import { storedAuthenticationComponents } from './message-check.ts';

/**
 * Meta's Template Library as the emulator keeps it (docs/platform-2027.md §6): a few fixed, pre-approved
 * UTILITY and AUTHENTICATION templates by name, browsed at `GET /message_template_library` and made into a
 * WABA's template by `POST /{waba}/message_templates` with `library_template_name` and its button and body
 * inputs. The names and texts are the emulator's own, in the shape of Meta's entries; not Meta's list.
 */
// biome-ignore lint/suspicious/noExplicitAny: inputs are JSON as Graph receives them.
type Json = Record<string, any>;

export interface LibraryEntry {
  id: string;
  name: string;
  language: string;
  category: 'UTILITY' | 'AUTHENTICATION';
  topic: string;
  usecase: string;
  industry: string[];
  header?: string;
  body: string;
  body_params: string[];
  body_param_types: string[];
  buttons: { type: 'URL' | 'PHONE_NUMBER' | 'OTP'; text: string; url?: string; phone_number?: string }[];
}

export const TEMPLATE_LIBRARY: LibraryEntry[] = [
  {
    id: '7001',
    name: 'delivery_update_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'ORDER_MANAGEMENT',
    usecase: 'DELIVERY_UPDATE',
    industry: ['E_COMMERCE'],
    body: 'Good news! Your order {{1}} is on its way and should arrive by {{2}}.',
    body_params: ['#12345', 'Tuesday'],
    body_param_types: ['TEXT', 'DATE'],
    buttons: [{ type: 'URL', text: 'Track order', url: 'https://www.example.com/{{1}}' }],
  },
  {
    id: '7002',
    name: 'payment_reminder_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'PAYMENTS',
    usecase: 'PAYMENT_REMINDER',
    industry: ['FINANCIAL_SERVICES', 'E_COMMERCE'],
    header: 'Payment reminder',
    body: 'Hi {{1}}, this is a reminder that your payment of {{2}} is due on {{3}}.',
    body_params: ['Ana', '$25.00', 'May 1'],
    body_param_types: ['TEXT', 'AMOUNT', 'DATE'],
    buttons: [
      { type: 'URL', text: 'Pay now', url: 'https://www.example.com/{{1}}' },
      { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+16315551010' },
    ],
  },
  {
    id: '7003',
    name: 'order_confirmation_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'ORDER_MANAGEMENT',
    usecase: 'ORDER_CONFIRMATION',
    industry: ['E_COMMERCE'],
    body: 'Thank you for your order, {{1}}! Your order number is {{2}}.',
    body_params: ['Ana', '#12345'],
    body_param_types: ['TEXT', 'TEXT'],
    buttons: [],
  },
  {
    id: '7004',
    name: 'verification_code_1',
    language: 'en_US',
    category: 'AUTHENTICATION',
    topic: 'ACCOUNT_SECURITY',
    usecase: 'VERIFICATION',
    industry: ['E_COMMERCE', 'FINANCIAL_SERVICES'],
    body: '{{1}} is your verification code.',
    body_params: ['123456'],
    body_param_types: ['TEXT'],
    buttons: [{ type: 'OTP', text: 'Copy code' }],
  },
];

const invalid = (message: string) => new GraphError(400, 100, 'Invalid parameter', undefined, message);

/**
 * `GET /message_template_library` (one source, Meta's page): the entries, narrowed by `search` (name or body),
 * `topic`, `usecase`, `industry` and `language`.
 */
export function browseLibrary(query: Record<string, string>) {
  const search = query.search?.toLowerCase();
  const data = TEMPLATE_LIBRARY.filter(
    (e) =>
      (!search || e.name.includes(search) || e.body.toLowerCase().includes(search)) &&
      (!query.topic || e.topic === query.topic.toUpperCase()) &&
      (!query.usecase || e.usecase === query.usecase.toUpperCase()) &&
      (!query.industry || e.industry.includes(query.industry.toUpperCase())) &&
      (!query.language || e.language === query.language),
  );
  return { data };
}

/** Meta's own example sends the button inputs as a JSON-ish string (single quotes, bare keys): read both. */
function buttonInputs(given: unknown): Json[] {
  if (given === undefined) return [];
  let value = given;
  if (typeof given === 'string') {
    const jsonish = given
      .replace(/'/g, '"')
      .replace(/([{,]\s*)([A-Za-z_]+)\s*:/g, '$1"$2":')
      .replace(/,\s*([\]}])/g, '$1');
    try {
      value = JSON.parse(jsonish);
    } catch {
      throw invalid('library_template_button_inputs must be a list of button inputs');
    }
  }
  if (!Array.isArray(value) || value.some((i) => !i || typeof i !== 'object')) {
    throw invalid('library_template_button_inputs must be a list of button inputs');
  }
  return value;
}

/** A library button with its input: the n-th input of a type goes to the n-th button of that type. */
function filledButton(button: LibraryEntry['buttons'][number], input: Json | undefined, name: string): Json {
  if (button.type === 'OTP') {
    const { type: _type, ...otp } = input ?? {};
    return { type: 'OTP', text: button.text, otp_type: 'COPY_CODE', ...otp };
  }
  if (!input) throw invalid(`The library template ${name} needs a ${button.type} button input`);
  if (button.type === 'PHONE_NUMBER') {
    if (typeof input.phone_number !== 'string') throw invalid('A PHONE_NUMBER button input needs phone_number');
    return { type: 'PHONE_NUMBER', text: button.text, phone_number: input.phone_number };
  }
  const base = input.url?.base_url;
  if (typeof base !== 'string' || !base.startsWith('https://')) throw invalid('A URL button input needs url.base_url (https)');
  const example = input.url.url_suffix_example ?? base.replace('{{1}}', 'demo');
  return { type: 'URL', text: button.text, url: base, ...(base.includes('{{1}}') && { example: [example] }) };
}

function filledButtons(entry: LibraryEntry, inputs: Json[]): Json[] {
  const unused = [...inputs];
  const buttons = entry.buttons.map((button) => {
    const at = unused.findIndex((i) => String(i.type).toUpperCase() === button.type);
    const [input] = at >= 0 ? unused.splice(at, 1) : [undefined];
    return filledButton(button, input, entry.name);
  });
  if (unused.length > 0) throw invalid(`The library template ${entry.name} has no ${String(unused[0].type)} button for an input`);
  return buttons;
}

/** The components a WABA's template gets from a library entry and the request's inputs. */
function componentsOf(entry: LibraryEntry, buttons: Json[], bodyInputs: Json): Json[] {
  if (entry.category === 'AUTHENTICATION') {
    const minutes = bodyInputs.code_expiration_minutes;
    return storedAuthenticationComponents([
      { type: 'BODY', ...(bodyInputs.add_security_recommendation === true && { add_security_recommendation: true }) },
      ...(minutes !== undefined ? [{ type: 'FOOTER', code_expiration_minutes: minutes }] : []),
      { type: 'BUTTONS', buttons },
    ]);
  }
  return [
    ...(entry.header ? [{ type: 'HEADER', format: 'TEXT', text: entry.header }] : []),
    { type: 'BODY', text: entry.body, ...(entry.body_params.length > 0 && { example: { body_text: [entry.body_params] } }) },
    ...(buttons.length > 0 ? [{ type: 'BUTTONS', buttons }] : []),
  ];
}

/**
 * A create from the library: the entry named, its buttons filled from the inputs (a URL or phone button with no
 * input, or an input with no button, refused), the category the library's (UTILITY or AUTHENTICATION asked).
 */
export function fromLibrary(body: Json): { category: string; components: Json[]; library_template_name: string } {
  const name = String(body.library_template_name);
  if (body.components !== undefined) throw invalid('components cannot be given with library_template_name');
  const category = String(body.category ?? '').toUpperCase();
  if (category !== 'UTILITY' && category !== 'AUTHENTICATION') {
    throw invalid('Must be UTILITY or AUTHENTICATION for use with Template Library');
  }
  const entry = TEMPLATE_LIBRARY.find((e) => e.name === name);
  if (!entry) throw invalid(`There is no template named ${name} in the template library`);
  const bodyInputs = body.library_template_body_inputs ?? {};
  if (typeof bodyInputs !== 'object' || Array.isArray(bodyInputs)) throw invalid('library_template_body_inputs must be an object');
  const buttons = filledButtons(entry, buttonInputs(body.library_template_button_inputs));
  return { category: entry.category, components: componentsOf(entry, buttons, bodyInputs), library_template_name: name };
}
