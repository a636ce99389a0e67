import type { ErrorDetail } from '../../shared/errors.ts';
import { checkButtons } from './buttons.ts';
import type { Category, Component } from './components.ts';
import { upper } from '../../shared/text.ts';
import { checkText, checkVariables, isString, placeholders } from './placeholders.ts';

/**
 * The upstream's component rules (upstream-facts §3), checked before anything reaches the upstream so a
 * caller gets every problem at once, each named by its path (`components[1].buttons[0].text`).
 */
export const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'];
const NAME = /^[a-z0-9_]+$/;
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2,4})?$/;

export const TTL_RANGES: Record<Category, [number, number]> = {
  AUTHENTICATION: [30, 900],
  UTILITY: [30, 43_200],
  MARKETING: [43_200, 2_592_000],
};

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
    const cardShape = parts.map((c) => upper(c?.type)).join(',');
    if (shape === undefined) shape = cardShape;
    else if (cardShape !== shape) problems.push({ path: `${cp}.components`, message: 'every card must have the same components' });
    parts.forEach((part, j) => {
      const pp = `${cp}.components[${j}]`;
      if (!part || typeof part !== 'object' || Array.isArray(part)) {
        problems.push({ path: pp, message: 'must be an object' });
        return;
      }
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
  if (!Array.isArray(draft.components) || draft.components.length === 0) {
    problems.push({ path: 'components', message: 'must be a non-empty array' });
    return { problems, facts };
  }
  const seen: Record<string, number> = {};
  draft.components.forEach((component, i) => {
    const path = `components[${i}]`;
    if (!component || typeof component !== 'object') {
      problems.push({ path, message: 'must be an object' });
      return;
    }
    const type = upper(component.type);
    seen[type] = (seen[type] ?? 0) + 1;
    if (seen[type] === 2) problems.push({ path: `${path}.type`, message: `only one ${type} component is allowed` });
    checkComponent({ component, type, index: i, path, category: draft.category, problems, facts });
  });
  if (!seen.BODY) problems.push({ path: 'components', message: 'a BODY component is required' });
  if (draft.category === 'AUTHENTICATION') checkOneOtpButton(draft.components, problems);
  checkOptions(draft, problems);
  return { problems, facts };
}

/** One component of a draft, where it stands and what the checks collect: its problems, the header's facts. */
interface ComponentCheck {
  component: Component;
  type: string;
  index: number;
  path: string;
  category: Category;
  problems: ErrorDetail[];
  facts: DraftFacts;
}

function checkComponent(check: ComponentCheck) {
  const { component, type, path, category, problems } = check;
  switch (type) {
    case 'HEADER':
      checkHeaderComponent(check);
      break;
    case 'BODY':
      checkBodyComponent(check);
      break;
    case 'FOOTER':
      checkFooterComponent(check);
      break;
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
}

function checkHeaderComponent({ component, index, path, category, problems, facts }: ComponentCheck) {
  const example = component.example as Component | undefined;
  const format = upper(component.format ?? 'TEXT');
  facts.headerFormat = format;
  facts.headerIndex = index;
  if (!HEADER_FORMATS.includes(format)) problems.push({ path: `${path}.format`, message: `must be one of ${HEADER_FORMATS.join(', ')}` });
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
}

function checkBodyComponent({ component, path, category, problems }: ComponentCheck) {
  if (category === 'AUTHENTICATION') {
    // The upstream presets the text of an authentication body.
    if (component.text !== undefined)
      problems.push({ path: `${path}.text`, message: 'AUTHENTICATION bodies take no text; the upstream presets it' });
    if (component.add_security_recommendation !== undefined && typeof component.add_security_recommendation !== 'boolean') {
      problems.push({ path: `${path}.add_security_recommendation`, message: 'must be a boolean' });
    }
    return;
  }
  if (!checkText(component.text, `${path}.text`, 1024, problems)) return;
  const bodyText = (component.example as Component | undefined)?.body_text;
  checkVariables(component.text as string, `${path}.text`, problems, {
    examples: Array.isArray(bodyText) ? bodyText[0] : bodyText,
    examplesPath: `${path}.example.body_text`,
  });
  if (Array.isArray(bodyText) && bodyText.length > 0 && !Array.isArray(bodyText[0])) {
    problems.push({ path: `${path}.example.body_text`, message: 'must be an array of arrays of strings' });
  }
}

function checkFooterComponent({ component, path, category, problems }: ComponentCheck) {
  if (category === 'AUTHENTICATION') {
    const minutes = component.code_expiration_minutes;
    if (minutes !== undefined && (!Number.isInteger(minutes) || (minutes as number) < 1 || (minutes as number) > 15)) {
      problems.push({ path: `${path}.code_expiration_minutes`, message: 'must be a whole number of minutes from 1 to 15' });
    }
    return;
  }
  if (checkText(component.text, `${path}.text`, 60, problems) && placeholders(component.text as string).positions.length > 0) {
    problems.push({ path: `${path}.text`, message: 'a footer has no variables' });
  }
}

function checkOneOtpButton(components: Component[], problems: ErrorDetail[]) {
  const buttons = components.find((c) => upper(c?.type) === 'BUTTONS')?.buttons;
  const otp = Array.isArray(buttons) ? buttons.filter((b: Component) => upper(b?.type) === 'OTP') : [];
  if (otp.length !== 1)
    problems.push({
      path: 'components',
      message: 'AUTHENTICATION templates need exactly one OTP button (COPY_CODE, ONE_TAP or ZERO_TAP)',
    });
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
