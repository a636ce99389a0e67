import { GraphError } from './graph-error.ts';

/**
 * Graph's checks of a template message against the stored template (upstream-facts §1.9 and §7): a header
 * parameter of the header's kind, as many body values as the body has placeholders, one value per variable
 * button at that button's index and of its sub_type, carousel cards like the template's. Written apart from
 * the service's own rules (lib/domain/sends/accept/send.ts, lib/domain/sends/cloud-message.ts), so the dispatcher's messages are
 * checked by something other than the code that made them.
 */
// biome-ignore lint/suspicious/noExplicitAny: message and template are JSON as Graph receives them.
type Json = Record<string, any>;

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : '');
const slots = (text: unknown) => (typeof text === 'string' ? new Set([...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size : 0);
const mismatch = (details: string) =>
  new GraphError(400, 132000, `Number of parameters does not match the expected number of params: ${details}`);

function checkHeader(header: Json | undefined, given: Json | undefined, where: string) {
  const params: Json[] = given?.parameters ?? [];
  const format = header ? upper(header.format ?? 'TEXT') : '';
  if (!header || (format === 'TEXT' && slots(header.text) === 0)) {
    if (given) throw mismatch(`${where}: the template's header takes no parameters`);
    return;
  }
  if (format === 'TEXT') {
    if (params.length !== slots(header.text) || params.some((p) => p?.type !== 'text' || typeof p.text !== 'string'))
      throw mismatch(`${where}: header expects ${slots(header.text)} text parameter(s), got ${params.length}`);
    return;
  }
  const kind = format.toLowerCase();
  const param = params[0];
  if (params.length !== 1 || param?.type !== kind)
    throw new GraphError(400, 131008, `Required parameter is missing: ${where} header ${kind}`);
  if (kind === 'location') {
    if (typeof param.location?.latitude !== 'string' || typeof param.location?.longitude !== 'string')
      throw new GraphError(400, 131009, `Parameter value is not valid: ${where} header location`);
  } else if (kind === 'product') {
    if (!param.product?.product_retailer_id || !param.product?.catalog_id)
      throw new GraphError(400, 131009, `Parameter value is not valid: ${where} header product`);
  } else if (!param[kind]?.link && !param[kind]?.id) {
    throw new GraphError(400, 131009, `Parameter value is not valid: ${where} header ${kind} needs a link or an id`);
  }
}

function checkBody(body: Json | undefined, given: Json | undefined, where: string) {
  const expected = slots(body?.text);
  const params: Json[] = given?.parameters ?? [];
  if (params.length !== expected) throw mismatch(`${where}: body expects ${expected} parameter(s), got ${params.length}`);
  if (params.some((p) => p?.type === 'text' && (typeof p.text !== 'string' || p.text.length === 0)))
    throw new GraphError(400, 131009, `Parameter value is not valid: ${where} body text is empty`);
}

/** The sub_type a button at that index takes a parameter of, or undefined for a button that takes none. */
function variableSubType(button: Json, authentication: boolean): string | undefined {
  const type = upper(button?.type);
  if (type === 'URL' && (authentication || slots(button.url) > 0)) return 'url';
  if (type === 'COPY_CODE') return 'copy_code';
  if (type === 'MPM') return 'mpm';
  return undefined;
}

function checkButtons(buttons: Json[], given: Json[], where: string, authentication: boolean) {
  const byIndex = new Map<number, Json>();
  for (const button of given) {
    const index = Number(button?.index);
    if (!Number.isInteger(index) || byIndex.has(index))
      throw new GraphError(400, 131009, `Parameter value is not valid: ${where} button index`);
    byIndex.set(index, button);
  }
  buttons.forEach((button, index) => {
    const subType = variableSubType(button, authentication);
    const sent = byIndex.get(index);
    byIndex.delete(index);
    if (!subType) {
      if (sent) throw mismatch(`${where}: button ${index} takes no parameters`);
      return;
    }
    if (!sent) throw new GraphError(400, 131008, `Required parameter is missing: ${where} button ${index} (${subType})`);
    if (String(sent.sub_type).toLowerCase() !== subType)
      throw new GraphError(400, 131009, `Parameter value is not valid: ${where} button ${index} must be ${subType}`);
    const params: Json[] = sent.parameters ?? [];
    const valid =
      params.length === 1 &&
      (subType === 'url'
        ? typeof params[0]?.text === 'string' && params[0].text.length > 0
        : subType === 'copy_code'
          ? typeof params[0]?.coupon_code === 'string' && params[0].coupon_code.length > 0
          : params[0]?.type === 'action' && typeof params[0]?.action?.thumbnail_product_retailer_id === 'string');
    if (!valid) throw mismatch(`${where}: button ${index} expects one ${subType} parameter`);
  });
  if (byIndex.size > 0) throw mismatch(`${where}: no button at index ${[...byIndex.keys()].join(', ')}`);
}

function partOf(components: Json[], type: string): Json | undefined {
  return components.find((c) => upper(c?.type) === type);
}

/** Throws Graph's error for a message that does not fit the template; answers nothing when it fits. */
export function checkMessage(template: Json, message: Json) {
  if (message.messaging_product !== 'whatsapp') throw new GraphError(400, 100, 'Invalid parameter: messaging_product must be whatsapp');
  // A BSUID goes by `recipient` (upstream-facts §9.A6): ./people.ts checks it.
  if (message.to !== undefined || message.recipient === undefined)
    if (typeof message.to !== 'string' || !/^\+?\d{6,20}$/.test(message.to))
      throw new GraphError(400, 131009, 'Parameter value is not valid: to');
  if (message.type !== 'template') throw new GraphError(400, 131051, 'Unsupported message type');
  const reference = message.biz_opaque_callback_data;
  if (reference !== undefined && (typeof reference !== 'string' || reference.length > 512))
    throw new GraphError(400, 131009, 'Parameter value is not valid: biz_opaque_callback_data');
  const stored: Json[] = template.components ?? [];
  const given: Json[] = message.template?.components ?? [];
  const known = new Set(['header', 'body', 'button', 'carousel']);
  for (const component of given) {
    if (!known.has(String(component?.type).toLowerCase()))
      throw new GraphError(400, 131009, `Parameter value is not valid: component ${component?.type}`);
  }
  const authentication = upper(template.category) === 'AUTHENTICATION';
  const ofType = (type: string) => given.filter((c) => String(c?.type).toLowerCase() === type);
  if (ofType('header').length > 1 || ofType('body').length > 1 || ofType('carousel').length > 1)
    throw mismatch('a component appears twice');
  checkHeader(partOf(stored, 'HEADER'), ofType('header')[0], 'template');
  checkBody(partOf(stored, 'BODY'), ofType('body')[0], 'template');
  checkButtons(partOf(stored, 'BUTTONS')?.buttons ?? [], ofType('button'), 'template', authentication);
  const carousel = partOf(stored, 'CAROUSEL');
  const givenCarousel = ofType('carousel')[0];
  if (!carousel) {
    if (givenCarousel) throw mismatch('the template has no carousel');
    return;
  }
  const cards: Json[] = carousel.cards ?? [];
  const givenCards: Json[] = givenCarousel?.cards ?? [];
  if (givenCards.length !== cards.length) throw mismatch(`carousel expects ${cards.length} cards, got ${givenCards.length}`);
  cards.forEach((card, i) => {
    const sent = givenCards.find((c) => Number(c?.card_index) === i);
    if (!sent) throw new GraphError(400, 131008, `Required parameter is missing: card ${i}`);
    const parts: Json[] = card.components ?? [];
    const sentParts: Json[] = sent.components ?? [];
    const sentOf = (type: string) => sentParts.filter((c) => String(c?.type).toLowerCase() === type);
    checkHeader(partOf(parts, 'HEADER'), sentOf('header')[0], `card ${i}`);
    checkBody(partOf(parts, 'BODY'), sentOf('body')[0], `card ${i}`);
    checkButtons(partOf(parts, 'BUTTONS')?.buttons ?? [], sentOf('button'), `card ${i}`, false);
  });
}

/**
 * An AUTHENTICATION template as Graph stores it (upstream-facts §3.6): the preset body text with `{{1}}` for
 * the code, the expiry footer, and each OTP button as a URL button carrying the code. Components already in
 * stored form are kept.
 */
export function storedAuthenticationComponents(components: Json[]): Json[] {
  return components.map((component) => {
    const type = upper(component?.type);
    if (type === 'BODY' && typeof component.text !== 'string') {
      const security = component.add_security_recommendation === true;
      return {
        type: 'BODY',
        text: `{{1}} is your verification code.${security ? ' For your security, do not share this code.' : ''}`,
        ...(security && { add_security_recommendation: true }),
        example: { body_text: [['123456']] },
      };
    }
    if (type === 'FOOTER' && typeof component.text !== 'string' && component.code_expiration_minutes !== undefined) {
      return {
        type: 'FOOTER',
        text: `This code expires in ${component.code_expiration_minutes} minutes.`,
        code_expiration_minutes: component.code_expiration_minutes,
      };
    }
    if (type === 'BUTTONS' && Array.isArray(component.buttons)) {
      return {
        type: 'BUTTONS',
        buttons: component.buttons.map((button: Json) => {
          if (upper(button?.type) !== 'OTP') return button;
          const otp = upper(button.otp_type || 'COPY_CODE');
          const url = `https://www.whatsapp.com/otp/code/?otp_type=${otp}&code=otp`;
          return { type: 'URL', text: button.text ?? 'Copy code', url: `${url}{{1}}`, example: [`${url}123456`] };
        }),
      };
    }
    return component;
  });
}
