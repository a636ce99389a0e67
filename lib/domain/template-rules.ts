import type { ErrorDetail } from './errors.ts';

/**
 * The upstream's component rules (upstream-facts §3), checked before anything reaches the upstream so a
 * caller gets every problem at once, each named by its path (`components[1].buttons[0].text`).
 * Plain TypeScript, no I/O.
 */
export const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type Category = (typeof CATEGORIES)[number];
export const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'];
const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP', 'CATALOG', 'MPM', 'SPM', 'FLOW', 'VOICE_CALL'];
const OTP_TYPES = ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'];
const NAME = /^[a-z0-9_]+$/;
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2,4})?$/;
const PACKAGE_NAME = /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/;
const SIGNATURE_HASH = /^[A-Za-z0-9+/=]{11}$/;

export const TTL_RANGES: Record<Category, [number, number]> = {
  AUTHENTICATION: [30, 900],
  UTILITY: [30, 43_200],
  MARKETING: [43_200, 2_592_000],
};

type Component = Record<string, unknown>;
const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : '');
const isString = (value: unknown): value is string => typeof value === 'string';

/** Placeholders of a text: positional numbers, or names (refused), and whether the braces are balanced. */
export function placeholders(text: string): { positions: number[]; named: string[]; malformed: boolean } {
  const positions: number[] = [];
  const named: string[] = [];
  for (const match of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    if (/^[0-9]+$/.test(match[1])) positions.push(Number(match[1]));
    else named.push(match[1]);
  }
  const stripped = text.replace(/\{\{\s*[^{}]*?\s*\}\}/g, '');
  return { positions, named, malformed: stripped.includes('{{') || stripped.includes('}}') };
}

/** Checks a text's variables: positional, sequential from 1, at most `max`, with one example each. */
function checkVariables(
  text: string,
  path: string,
  problems: ErrorDetail[],
  options: { max?: number; examples?: unknown; examplesPath: string },
): number {
  const { positions, named, malformed } = placeholders(text);
  if (malformed) problems.push({ path, message: 'has mismatched braces' });
  if (named.length > 0)
    problems.push({ path, message: `uses named placeholders (${named.join(', ')}); only positional {{1}}, {{2}}… are supported` });
  const distinct = [...new Set(positions)];
  const expected = distinct.map((_, i) => i + 1);
  if (positions.length !== distinct.length || JSON.stringify([...positions]) !== JSON.stringify(expected)) {
    if (distinct.length > 0) problems.push({ path, message: 'placeholders must be {{1}}, {{2}}… in order, each once' });
  }
  if (options.max !== undefined && distinct.length > options.max) {
    problems.push({ path, message: `has ${distinct.length} placeholders; at most ${options.max} allowed` });
  }
  if (distinct.length > 0) {
    const examples = options.examples;
    if (!Array.isArray(examples) || examples.length !== distinct.length || !examples.every((e) => isString(e) && e.trim() !== '')) {
      problems.push({
        path: options.examplesPath,
        message: `must give one non-empty example for each of the ${distinct.length} placeholders`,
      });
    }
  }
  return distinct.length;
}

function checkText(value: unknown, path: string, max: number, problems: ErrorDetail[], required = true): value is string {
  if (value === undefined && !required) return false;
  if (!isString(value) || value.trim() === '') {
    problems.push({ path, message: 'is required' });
    return false;
  }
  if (value.length > max) problems.push({ path, message: `must be at most ${max} characters` });
  return true;
}

function checkButtons(buttons: unknown, path: string, category: Category, problems: ErrorDetail[], options: { maxButtons?: number } = {}) {
  if (!Array.isArray(buttons) || buttons.length === 0) {
    problems.push({ path, message: 'must be a non-empty array' });
    return;
  }
  const max = options.maxButtons ?? 10;
  if (buttons.length > max) problems.push({ path, message: `at most ${max} buttons` });
  const counts: Record<string, number> = {};
  const types = buttons.map((button: Component, i) => {
    const p = `${path}[${i}]`;
    const type = upper(button?.type);
    if (!BUTTON_TYPES.includes(type)) {
      problems.push({ path: `${p}.type`, message: `must be one of ${BUTTON_TYPES.join(', ')}` });
      return type;
    }
    counts[type] = (counts[type] ?? 0) + 1;
    if (type === 'OTP') {
      if (category !== 'AUTHENTICATION') problems.push({ path: `${p}.type`, message: 'OTP buttons belong to AUTHENTICATION templates' });
      const otp = upper(button.otp_type);
      if (!OTP_TYPES.includes(otp)) problems.push({ path: `${p}.otp_type`, message: `must be one of ${OTP_TYPES.join(', ')}` });
      if (button.text !== undefined) checkText(button.text, `${p}.text`, 25, problems);
      if (otp === 'ONE_TAP' || otp === 'ZERO_TAP') {
        if (button.autofill_text !== undefined) checkText(button.autofill_text, `${p}.autofill_text`, 25, problems);
        const apps = button.supported_apps;
        if (!Array.isArray(apps) || apps.length === 0 || apps.length > 5) {
          problems.push({ path: `${p}.supported_apps`, message: 'must list 1 to 5 apps' });
        } else {
          apps.forEach((app: Component, j) => {
            if (!isString(app?.package_name) || app.package_name.length > 224 || !PACKAGE_NAME.test(app.package_name)) {
              problems.push({
                path: `${p}.supported_apps[${j}].package_name`,
                message: 'must be an Android package name (at least two dot-separated segments)',
              });
            }
            if (!isString(app?.signature_hash) || !SIGNATURE_HASH.test(app.signature_hash)) {
              problems.push({
                path: `${p}.supported_apps[${j}].signature_hash`,
                message: 'must be 11 characters of A-Z, a-z, 0-9, +, / or =',
              });
            }
          });
        }
      }
      return type;
    }
    if (category === 'AUTHENTICATION') problems.push({ path: `${p}.type`, message: 'AUTHENTICATION templates take OTP buttons only' });
    if (
      ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'FLOW', 'VOICE_CALL', 'MPM', 'SPM', 'CATALOG'].includes(type) &&
      type !== 'COPY_CODE'
    ) {
      checkText(button.text, `${p}.text`, 25, problems);
    }
    if (type === 'URL') {
      if (checkText(button.url, `${p}.url`, 2000, problems)) {
        const url = button.url as string;
        const { positions } = placeholders(url);
        if (!/^https?:\/\//i.test(url)) problems.push({ path: `${p}.url`, message: 'must be an http(s) URL' });
        if (positions.length > 1) problems.push({ path: `${p}.url`, message: 'at most one variable' });
        if (positions.length === 1) {
          if (!/\{\{\s*1\s*\}\}$/.test(url))
            problems.push({ path: `${p}.url`, message: 'the variable must be {{1}} at the end of the URL' });
          const example = button.example;
          if (!Array.isArray(example) || example.length !== 1 || !isString(example[0])) {
            problems.push({ path: `${p}.example`, message: 'must give one example URL for the variable' });
          }
        }
      }
    }
    if (type === 'PHONE_NUMBER') checkText(button.phone_number, `${p}.phone_number`, 20, problems);
    if (type === 'COPY_CODE') {
      const example = button.example;
      if (!isString(example) || example === '' || example.length > 15) {
        problems.push({ path: `${p}.example`, message: 'must be an example code of 1 to 15 characters' });
      }
    }
    return type;
  });
  const limits: Record<string, number> = { QUICK_REPLY: 10, URL: 2, PHONE_NUMBER: 1, COPY_CODE: 1, OTP: 1 };
  for (const [type, limit] of Object.entries(limits)) {
    if ((counts[type] ?? 0) > limit) problems.push({ path, message: `at most ${limit} ${type} button${limit > 1 ? 's' : ''}` });
  }
  // Quick replies must stand together: QR,QR,URL is fine, QR,URL,QR is not.
  const firstQr = types.indexOf('QUICK_REPLY');
  const lastQr = types.lastIndexOf('QUICK_REPLY');
  if (firstQr >= 0 && types.slice(firstQr, lastQr + 1).some((t) => t !== 'QUICK_REPLY')) {
    problems.push({ path, message: 'QUICK_REPLY buttons must be grouped together' });
  }
}

export interface TemplateDraft {
  category: Category;
  components: Component[];
  message_send_ttl_seconds?: number;
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
}

/** What the checks found out about the header, for media resolution and the record's headerType. */
export interface DraftFacts {
  headerFormat?: string;
  headerIndex?: number;
  hasMediaHeader: boolean;
  hasHandle: boolean;
}

function checkCarousel(component: Component, path: string, category: Category, problems: ErrorDetail[]) {
  if (category !== 'MARKETING') problems.push({ path, message: 'carousels belong to MARKETING templates' });
  const cards = component.cards;
  if (!Array.isArray(cards) || cards.length < 2 || cards.length > 10) {
    problems.push({ path: `${path}.cards`, message: 'must hold 2 to 10 cards' });
    return;
  }
  let shape: string | undefined;
  cards.forEach((card: Component, i) => {
    const cp = `${path}.cards[${i}]`;
    const parts = Array.isArray(card?.components) ? (card.components as Component[]) : [];
    if (parts.length === 0) problems.push({ path: `${cp}.components`, message: 'must be a non-empty array' });
    const cardShape = parts.map((c) => upper(c.type)).join(',');
    if (shape === undefined) shape = cardShape;
    else if (cardShape !== shape) problems.push({ path: `${cp}.components`, message: 'every card must have the same components' });
    parts.forEach((part, j) => {
      const pp = `${cp}.components[${j}]`;
      const type = upper(part.type);
      if (type === 'HEADER') {
        if (!['IMAGE', 'VIDEO'].includes(upper(part.format)))
          problems.push({ path: `${pp}.format`, message: 'card headers are IMAGE or VIDEO' });
        const handle = (part.example as Component | undefined)?.header_handle;
        if (!Array.isArray(handle) || handle.length !== 1)
          problems.push({ path: `${pp}.example.header_handle`, message: 'must give the media handle' });
      } else if (type === 'BODY') {
        if (checkText(part.text, `${pp}.text`, 160, problems)) {
          const example = (part.example as Component | undefined)?.body_text;
          checkVariables(part.text as string, `${pp}.text`, problems, {
            examples: Array.isArray(example) ? (Array.isArray(example[0]) ? example[0] : example) : isString(example) ? [example] : example,
            examplesPath: `${pp}.example.body_text`,
          });
        }
      } else if (type === 'BUTTONS') {
        checkButtons(part.buttons, `${pp}.buttons`, category, problems, { maxButtons: 2 });
      } else {
        problems.push({ path: `${pp}.type`, message: 'card components are HEADER, BODY and BUTTONS' });
      }
    });
  });
}

export function checkTemplateDraft(draft: TemplateDraft): { problems: ErrorDetail[]; facts: DraftFacts } {
  const problems: ErrorDetail[] = [];
  const facts: DraftFacts = { hasMediaHeader: false, hasHandle: false };
  const { category } = draft;
  const seen: Record<string, number> = {};
  if (!Array.isArray(draft.components) || draft.components.length === 0) {
    problems.push({ path: 'components', message: 'must be a non-empty array' });
    return { problems, facts };
  }
  draft.components.forEach((component, i) => {
    const path = `components[${i}]`;
    if (!component || typeof component !== 'object') {
      problems.push({ path, message: 'must be an object' });
      return;
    }
    const type = upper(component.type);
    seen[type] = (seen[type] ?? 0) + 1;
    if (seen[type] === 2) problems.push({ path: `${path}.type`, message: `only one ${type} component is allowed` });
    const example = component.example as Component | undefined;
    switch (type) {
      case 'HEADER': {
        const format = upper(component.format ?? 'TEXT');
        facts.headerFormat = format;
        facts.headerIndex = i;
        if (!HEADER_FORMATS.includes(format))
          problems.push({ path: `${path}.format`, message: `must be one of ${HEADER_FORMATS.join(', ')}` });
        if (category === 'AUTHENTICATION') problems.push({ path, message: 'AUTHENTICATION templates have no header' });
        if (format === 'TEXT' && checkText(component.text, `${path}.text`, 60, problems)) {
          checkVariables(component.text as string, `${path}.text`, problems, {
            max: 1,
            examples: example?.header_text,
            examplesPath: `${path}.example.header_text`,
          });
        }
        if ((MEDIA_FORMATS as readonly string[]).includes(format)) {
          facts.hasMediaHeader = true;
          const handle = example?.header_handle;
          facts.hasHandle = Array.isArray(handle) && handle.length > 0;
        }
        if (format === 'LOCATION' && category === 'AUTHENTICATION')
          problems.push({ path: `${path}.format`, message: 'LOCATION headers are for UTILITY or MARKETING' });
        break;
      }
      case 'BODY': {
        if (category === 'AUTHENTICATION') {
          // The upstream presets the text of an authentication body.
          if (component.text !== undefined)
            problems.push({ path: `${path}.text`, message: 'AUTHENTICATION bodies take no text; the upstream presets it' });
          if (component.add_security_recommendation !== undefined && typeof component.add_security_recommendation !== 'boolean') {
            problems.push({ path: `${path}.add_security_recommendation`, message: 'must be a boolean' });
          }
          break;
        }
        if (checkText(component.text, `${path}.text`, 1024, problems)) {
          const bodyText = example?.body_text;
          checkVariables(component.text as string, `${path}.text`, problems, {
            examples: Array.isArray(bodyText) ? bodyText[0] : bodyText,
            examplesPath: `${path}.example.body_text`,
          });
          if (Array.isArray(bodyText) && bodyText.length > 0 && !Array.isArray(bodyText[0])) {
            problems.push({ path: `${path}.example.body_text`, message: 'must be an array of arrays of strings' });
          }
        }
        break;
      }
      case 'FOOTER': {
        if (category === 'AUTHENTICATION') {
          const minutes = component.code_expiration_minutes;
          if (minutes !== undefined && (!Number.isInteger(minutes) || (minutes as number) < 1 || (minutes as number) > 15)) {
            problems.push({ path: `${path}.code_expiration_minutes`, message: 'must be a whole number of minutes from 1 to 15' });
          }
          break;
        }
        if (checkText(component.text, `${path}.text`, 60, problems) && placeholders(component.text as string).positions.length > 0) {
          problems.push({ path: `${path}.text`, message: 'a footer has no variables' });
        }
        break;
      }
      case 'BUTTONS':
        checkButtons(component.buttons, `${path}.buttons`, category, problems);
        break;
      case 'CAROUSEL':
        checkCarousel(component, path, category, problems);
        break;
      case 'LIMITED_TIME_OFFER':
        if (category !== 'MARKETING') problems.push({ path: `${path}.type`, message: 'LIMITED_TIME_OFFER belongs to MARKETING templates' });
        break;
      default:
        problems.push({ path: `${path}.type`, message: 'must be HEADER, BODY, FOOTER, BUTTONS, CAROUSEL or LIMITED_TIME_OFFER' });
    }
  });
  if (!seen.BODY) problems.push({ path: 'components', message: 'a BODY component is required' });
  if (category === 'AUTHENTICATION') {
    const buttons = draft.components.find((c) => upper(c?.type) === 'BUTTONS')?.buttons;
    const otp = Array.isArray(buttons) ? buttons.filter((b: Component) => upper(b?.type) === 'OTP') : [];
    if (otp.length !== 1)
      problems.push({
        path: 'components',
        message: 'AUTHENTICATION templates need exactly one OTP button (COPY_CODE, ONE_TAP or ZERO_TAP)',
      });
  }
  checkOptions(draft, problems);
  return { problems, facts };
}

function checkOptions(draft: TemplateDraft, problems: ErrorDetail[]) {
  const ttl = draft.message_send_ttl_seconds;
  if (ttl !== undefined) {
    const [min, max] = TTL_RANGES[draft.category];
    if (ttl === -1) {
      if (draft.category === 'MARKETING')
        problems.push({ path: 'message_send_ttl_seconds', message: '-1 (30 days) is only for AUTHENTICATION and UTILITY' });
    } else if (!Number.isInteger(ttl) || ttl < min || ttl > max) {
      problems.push({ path: 'message_send_ttl_seconds', message: `must be a whole number from ${min} to ${max} for ${draft.category}` });
    }
  }
  if (draft.category !== 'AUTHENTICATION') {
    if (draft.add_security_recommendation !== undefined)
      problems.push({ path: 'add_security_recommendation', message: 'only for AUTHENTICATION templates' });
    if (draft.code_expiration_minutes !== undefined)
      problems.push({ path: 'code_expiration_minutes', message: 'only for AUTHENTICATION templates' });
  } else if (draft.code_expiration_minutes !== undefined) {
    const m = draft.code_expiration_minutes;
    if (!Number.isInteger(m) || m < 1 || m > 15) {
      problems.push({
        path: 'code_expiration_minutes',
        message: 'must be a whole number of minutes from 1 to 15 (the OTP stays valid 30 seconds to 15 minutes)',
      });
    }
  }
}

export const checkName = (name: string): ErrorDetail[] =>
  NAME.test(name) && name.length <= 512 ? [] : [{ path: 'name', message: 'must be 1 to 512 characters of a-z, 0-9 and _' }];

export const checkLanguage = (language: string): ErrorDetail[] =>
  LANGUAGE.test(language) ? [] : [{ path: 'language', message: 'must be a locale code such as es, en_US or pt_BR' }];

/**
 * The components as they go upstream for an AUTHENTICATION template: the top-level options move into the
 * body (add_security_recommendation) and footer (code_expiration_minutes) components.
 */
export function authenticationComponents(
  components: Component[],
  options: { add_security_recommendation?: boolean; code_expiration_minutes?: number },
) {
  const out = components.map((c) => ({ ...c }));
  if (options.add_security_recommendation !== undefined) {
    const body = out.find((c) => upper(c.type) === 'BODY');
    if (body) body.add_security_recommendation = options.add_security_recommendation;
  }
  if (options.code_expiration_minutes !== undefined) {
    let footer = out.find((c) => upper(c.type) === 'FOOTER');
    if (!footer) {
      footer = { type: 'FOOTER' };
      const buttonsAt = out.findIndex((c) => upper(c.type) === 'BUTTONS');
      out.splice(buttonsAt >= 0 ? buttonsAt : out.length, 0, footer);
    }
    footer.code_expiration_minutes = options.code_expiration_minutes;
  }
  return out;
}

/**
 * Canonical form for "is this edit a real change?": types and formats upper-cased, strings trimmed,
 * undefined and null dropped, keys sorted. Two component lists are the same when their forms are equal.
 */
export function normalizeComponents(components: unknown): string {
  const canon = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => canon(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) {
        const v = (value as Record<string, unknown>)[k];
        if (v === undefined || v === null) continue;
        out[k] = canon(v, k);
      }
      return out;
    }
    if (typeof value === 'string') {
      const trimmed = value.trim();
      return key && ['type', 'format', 'otp_type', 'sub_type'].includes(key) ? trimmed.toUpperCase() : trimmed;
    }
    return value;
  };
  return JSON.stringify(canon(components));
}
