import { createHash, randomBytes } from 'node:crypto';
import { GraphError } from './graph-error.ts';
import { pageOf } from './paging.ts';

/**
 * Embedded Signup and the onboarding calls after it, as docs/platform-2027.md §1 gives Meta's words (issue 55
 * item 1): the popup (a control endpoint standing in for Facebook's flow: it makes the client's WABA and number
 * and mints a code), the code's exchange for a business token, the number's registration with its PIN, the app's
 * subscription to the WABA, the partner's credit line found and shared, and the WABA and its numbers read.
 */

/** The partner's credit line, as `GET /{business-id}/extendedcredits` answers it for any business (facts §1.3). */
export const EMULATOR_CREDIT_LINE = { id: '1972385232742146', legal_entity_name: 'Local Provider Ltd' };
/** The PIN of every number the popup makes, unless it names one. */
export const EMULATOR_PIN = '123456';
/** Currencies a credit line is shared in (facts §1.3: the 16 of upstream-facts §9.D). */
const CREDIT_CURRENCIES = ['USD', 'EUR', 'INR', 'IDR', 'GBP', 'AUD', 'BRL', 'MXN', 'COP', 'ARS', 'CLP', 'PEN', 'ZAR', 'SAR', 'AED', 'EGP'];
const TRIES_WINDOW_MS = 72 * 3600_000;
const TRIES_ALLOWED = 10;

/** What a popup left: its code (single use), the IDs the flow posts to the window, and the token once exchanged. */
interface SignupCode {
  code: string;
  waba_id: string;
  phone_number_id: string;
  business_id: string;
  used_at?: number;
}

/** The onboarding part of the emulator's state, kept with the model's (decisions §16). */
export interface SignupState {
  codes: SignupCode[];
  /** Hashes of the business tokens minted (the tokens themselves are never kept). */
  tokens: string[];
  /** Each number's PIN and its registration attempts (epoch ms). */
  pins: Record<string, string>;
  tries: Record<string, number[]>;
  registered: string[];
  subscribed: string[];
  /** Credit lines shared: WABA → {allocation_config_id, currency}. */
  allocations: Record<string, { allocation_config_id: string; currency: string }>;
  /** The business portfolio of each WABA the popup made. */
  owners: Record<string, { id: string; name: string }>;
}

export const emptySignupState = (): SignupState => ({
  codes: [],
  tokens: [],
  pins: {},
  tries: {},
  registered: [],
  subscribed: [],
  allocations: {},
  owners: {},
});

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
// biome-ignore lint/suspicious/noExplicitAny: a request body is whatever JSON or form the caller sent.
type Body = Record<string, any>;

/** A WABA as the model (./model.ts) keeps it: the fields the onboarding calls make and read. */
interface EmulatedWaba {
  id: string;
  name: string;
  namespace: string;
  templates: unknown[];
  catalogs: unknown[];
  currency?: string;
  timezone_id?: string;
}

/** A number as the model keeps it. */
interface EmulatedNumber {
  id: string;
  waba_id: string;
  display_phone_number: string;
  throughput?: { level: 'STANDARD' | 'HIGH' };
  is_on_biz_app?: boolean;
  quality_rating?: string;
}

/** The model's maps the onboarding calls read and add to. */
export interface SignupWorld {
  wabas: Map<string, EmulatedWaba>;
  phoneNumbers: Map<string, EmulatedNumber>;
  signup: SignupState;
}

/**
 * `POST /_emulator/embedded-signup {waba_id?, phone_number_id?, business_id?, display_phone_number?, coexistence?,
 * pin?, currency?, timezone_id?, templates?}`: the client went through the popup. Its WABA and number exist from now (a coexistence
 * number is on the WhatsApp Business app), and the answer is what the flow gives the page: the code and the IDs.
 */
export function playPopup(world: SignupWorld, body: Body) {
  const suffix = randomBytes(4).readUInt32BE(0) % 1_000_000_000;
  const wabaId = String(body.waba_id ?? `8${String(suffix).padStart(11, '0')}`);
  const numberId = String(body.phone_number_id ?? `9${String(suffix).padStart(11, '0')}`);
  const businessId = String(body.business_id ?? `7${String(suffix).padStart(11, '0')}`);
  if (!world.wabas.has(wabaId))
    world.wabas.set(wabaId, {
      id: wabaId,
      name: String(body.waba_name ?? `WABA ${wabaId}`),
      namespace: `ns_${wabaId}`,
      templates: (body.templates ?? []) as unknown[],
      catalogs: [],
      ...(body.currency && { currency: String(body.currency) }),
      ...(body.timezone_id && { timezone_id: String(body.timezone_id) }),
    });
  world.signup.owners[wabaId] = { id: businessId, name: String(body.business_name ?? `Business ${businessId}`) };
  addNumber(world, wabaId, { ...body, phone_number_id: numberId }, suffix);
  // The WABA's other numbers (`numbers: [{phone_number_id?, display_phone_number?, coexistence?, pin?}]`): the flow
  // names one number, and a WABA chosen in it may hold more (issue 55: the onboarding adds them all).
  for (const [i, more] of ((body.numbers ?? []) as Body[]).entries()) {
    const id = String(more.phone_number_id ?? `9${String((suffix + i + 1) % 1_000_000_000).padStart(11, '0')}`);
    addNumber(world, wabaId, { ...more, phone_number_id: id }, suffix + i + 1);
  }
  const code = `AQ${randomBytes(24).toString('base64url')}`;
  world.signup.codes.push({ code, waba_id: wabaId, phone_number_id: numberId, business_id: businessId });
  return { code, waba_id: wabaId, phone_number_id: numberId, business_id: businessId };
}

/** A number of the WABA, with its PIN (`123456` unless given); a coexistence one is on the WhatsApp Business app. */
function addNumber(world: SignupWorld, wabaId: string, body: Body, suffix: number) {
  const id = String(body.phone_number_id);
  world.phoneNumbers.set(id, {
    id,
    waba_id: wabaId,
    display_phone_number: String(body.display_phone_number ?? `+1 555 ${String(suffix % 10_000_000).padStart(7, '0')}`),
    throughput: { level: 'STANDARD' },
    is_on_biz_app: body.coexistence === true,
  });
  world.signup.pins[id] = String(body.pin ?? EMULATOR_PIN);
}

/** Whether a bearer token is a business token this emulator minted. */
export const isBusinessToken = (state: SignupState, token: string) => state.tokens.includes(hash(token));

/** `GET /oauth/access_token?client_id&client_secret&code` (facts §1.3): a code is exchanged once. */
export function exchangeCode(state: SignupState, query: Record<string, string>) {
  if (!query.client_id || !query.client_secret) throw new GraphError(400, 101, 'Missing client_id or client_secret parameter');
  const found = state.codes.find((c) => c.code === query.code);
  if (!found) throw new GraphError(400, 100, 'Invalid verification code format.', 36008);
  if (found.used_at !== undefined) throw new GraphError(400, 100, 'This authorization code has been used.', 36009);
  found.used_at = Date.now();
  const token = `EAAB${randomBytes(32).toString('base64url')}`;
  state.tokens.push(hash(token));
  return { access_token: token, token_type: 'bearer' };
}

/** `POST /{phone-number-id}/register {messaging_product, pin}` (facts §1.3): 133005, 133016 after 10 in 72 h. */
function register(world: SignupWorld, number: EmulatedNumber, body: Body) {
  if (body.messaging_product !== 'whatsapp') throw new GraphError(400, 100, 'Invalid parameter: messaging_product');
  if (!/^\d{6}$/.test(String(body.pin ?? ''))) throw new GraphError(400, 100, 'Invalid parameter: pin must be 6 digits');
  const now = Date.now();
  const tries = (world.signup.tries[number.id] ?? []).filter((t) => now - t < TRIES_WINDOW_MS);
  if (tries.length >= TRIES_ALLOWED) throw new GraphError(400, 133016, 'Account register deregister rate limit exceeded');
  world.signup.tries[number.id] = [...tries, now];
  const pin = world.signup.pins[number.id];
  if (pin !== undefined && pin !== String(body.pin)) throw new GraphError(400, 133005, 'Two step verification PIN Mismatch');
  world.signup.pins[number.id] = String(body.pin);
  if (!world.signup.registered.includes(number.id)) world.signup.registered.push(number.id);
  return { success: true };
}

/** A number as `GET /{waba-id}/phone_numbers` lists it (facts §1.4). */
function numberFields(state: SignupState, number: EmulatedNumber) {
  return {
    id: number.id,
    display_phone_number: number.display_phone_number,
    verified_name: state.owners[number.waba_id]?.name ?? number.display_phone_number,
    code_verification_status: 'VERIFIED',
    platform_type: state.registered.includes(number.id) || number.is_on_biz_app ? 'CLOUD_API' : 'NOT_APPLICABLE',
    is_on_biz_app: number.is_on_biz_app ?? false,
    throughput: number.is_on_biz_app ? { level: 'STANDARD' } : (number.throughput ?? { level: 'STANDARD' }),
    quality_rating: number.quality_rating ?? 'GREEN',
  };
}

/** `POST /{credit-line-id}/whatsapp_credit_sharing_and_attach?waba_id&waba_currency` (facts §1.3). */
function shareCreditLine(world: SignupWorld, query: Record<string, string>) {
  if (!world.wabas.has(query.waba_id ?? '')) throw new GraphError(400, 100, 'Invalid parameter: waba_id');
  if (!CREDIT_CURRENCIES.includes(query.waba_currency ?? '')) throw new GraphError(400, 100, 'Invalid parameter: waba_currency');
  const allocation = world.signup.allocations[query.waba_id] ?? {
    allocation_config_id: String(58_501_441_721_238 + Object.keys(world.signup.allocations).length),
    currency: query.waba_currency,
  };
  world.signup.allocations[query.waba_id] = allocation;
  return { allocation_config_id: allocation.allocation_config_id, waba_id: query.waba_id };
}

/** `/{id}/{edge}` of the onboarding calls, or undefined for another. */
export function answerSignupEdge(
  world: SignupWorld,
  method: string,
  id: string,
  edge: string,
  request: { query: Record<string, string>; body: Body; href: string },
) {
  const number = world.phoneNumbers.get(id);
  if (edge === 'register' && method === 'POST' && number) return register(world, number, request.body);
  const waba = world.wabas.get(id);
  if (edge === 'subscribed_apps' && waba) {
    if (method === 'POST') {
      if (!world.signup.subscribed.includes(id)) world.signup.subscribed.push(id);
      return { success: true };
    }
    if (method === 'GET')
      return {
        data: world.signup.subscribed.includes(id)
          ? [{ whatsapp_business_api_data: { id: 'local-app-id', name: 'Local provider app', link: 'https://example.com/' } }]
          : [],
      };
  }
  if (edge === 'phone_numbers' && method === 'GET' && waba) {
    // Paged as Graph pages a list (facts §1.4: `data` with `paging.cursors` and `next`); a bad cursor is error 100.
    const numbers = [...world.phoneNumbers.values()].filter((n) => n.waba_id === id);
    const page = pageOf(numbers, request.query, request.href, 100);
    return { ...page, data: page.data.map((n) => numberFields(world.signup, n)) };
  }
  if (edge === 'extendedcredits' && method === 'GET') return { data: [EMULATOR_CREDIT_LINE] };
  if (edge === 'whatsapp_credit_sharing_and_attach' && method === 'POST' && id === EMULATOR_CREDIT_LINE.id)
    return shareCreditLine(world, request.query);
  return undefined;
}

/** The onboarding fields of `GET /{waba-id}` (facts §1.4): the business portfolio that owns it. */
export function ownerFields(state: SignupState, wabaId: string) {
  const owner = state.owners[wabaId];
  return owner ? { owner_business_info: owner, on_behalf_of_business_info: owner } : {};
}
