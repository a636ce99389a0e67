import type { ErrorDetail } from '../../shared/errors.ts';
import type { Category, Component } from './components.ts';
import { upper } from '../../shared/text.ts';
import { checkText, isString, placeholders } from './placeholders.ts';

/**
 * Button rules (upstream-facts §3.4), one entry per button type: what each type requires, how many a
 * template may hold, and where OTP buttons belong.
 */
const OTP_TYPES = ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'];
const PACKAGE_NAME = /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/;
const SIGNATURE_HASH = /^[A-Za-z0-9+/=]{11}$/;

interface ButtonRule {
  /** Most buttons of this type in one template (unlimited within the overall maximum when absent). */
  max?: number;
  check(button: Component, path: string, problems: ErrorDetail[]): void;
}

const labelled = (button: Component, path: string, problems: ErrorDetail[]) => checkText(button.text, `${path}.text`, 25, problems);

function checkUrl(button: Component, path: string, problems: ErrorDetail[]) {
  labelled(button, path, problems);
  if (!checkText(button.url, `${path}.url`, 2000, problems)) return;
  const url = button.url as string;
  const { positions } = placeholders(url);
  if (!/^https?:\/\//i.test(url)) problems.push({ path: `${path}.url`, message: 'must be an http(s) URL' });
  if (positions.length > 1) problems.push({ path: `${path}.url`, message: 'at most one variable' });
  if (positions.length === 1) {
    if (!/\{\{\s*1\s*\}\}$/.test(url)) problems.push({ path: `${path}.url`, message: 'the variable must be {{1}} at the end of the URL' });
    const example = button.example;
    if (!Array.isArray(example) || example.length !== 1 || !isString(example[0])) {
      problems.push({ path: `${path}.example`, message: 'must give one example URL for the variable' });
    }
  }
}

function checkOtp(button: Component, path: string, problems: ErrorDetail[]) {
  const otp = upper(button.otp_type);
  if (!OTP_TYPES.includes(otp)) problems.push({ path: `${path}.otp_type`, message: `must be one of ${OTP_TYPES.join(', ')}` });
  if (button.text !== undefined) checkText(button.text, `${path}.text`, 25, problems);
  if (otp !== 'ONE_TAP' && otp !== 'ZERO_TAP') return;
  if (button.autofill_text !== undefined) checkText(button.autofill_text, `${path}.autofill_text`, 25, problems);
  const apps = button.supported_apps;
  if (!Array.isArray(apps) || apps.length === 0 || apps.length > 5) {
    problems.push({ path: `${path}.supported_apps`, message: 'must list 1 to 5 apps' });
    return;
  }
  apps.forEach((app: Component, j) => {
    if (!isString(app?.package_name) || app.package_name.length > 224 || !PACKAGE_NAME.test(app.package_name)) {
      problems.push({
        path: `${path}.supported_apps[${j}].package_name`,
        message: 'must be an Android package name (at least two dot-separated segments)',
      });
    }
    if (!isString(app?.signature_hash) || !SIGNATURE_HASH.test(app.signature_hash)) {
      problems.push({ path: `${path}.supported_apps[${j}].signature_hash`, message: 'must be 11 characters of A-Z, a-z, 0-9, +, / or =' });
    }
  });
}

export const BUTTON_RULES: Record<string, ButtonRule> = {
  QUICK_REPLY: { max: 10, check: labelled },
  URL: { max: 2, check: checkUrl },
  PHONE_NUMBER: {
    max: 1,
    check: (button, path, problems) => {
      labelled(button, path, problems);
      checkText(button.phone_number, `${path}.phone_number`, 20, problems);
    },
  },
  COPY_CODE: {
    max: 1,
    check: (button, path, problems) => {
      const example = button.example;
      if (!isString(example) || example === '' || example.length > 15) {
        problems.push({ path: `${path}.example`, message: 'must be an example code of 1 to 15 characters' });
      }
    },
  },
  OTP: { max: 1, check: checkOtp },
  CATALOG: { check: labelled },
  MPM: { check: labelled },
  SPM: { check: labelled },
  FLOW: { check: labelled },
  VOICE_CALL: { check: labelled },
};
const BUTTON_TYPES = Object.keys(BUTTON_RULES);

export function checkButtons(
  buttons: unknown,
  path: string,
  category: Category,
  problems: ErrorDetail[],
  options: { maxButtons?: number } = {},
) {
  if (!Array.isArray(buttons) || buttons.length === 0) {
    problems.push({ path, message: 'must be a non-empty array' });
    return;
  }
  const max = options.maxButtons ?? 10;
  if (buttons.length > max) problems.push({ path, message: `at most ${max} buttons` });
  const types = buttons.map((button: Component, i) => {
    const p = `${path}[${i}]`;
    const type = upper(button?.type);
    const rule = BUTTON_RULES[type];
    if (!rule) {
      problems.push({ path: `${p}.type`, message: `must be one of ${BUTTON_TYPES.join(', ')}` });
      return type;
    }
    // OTP buttons are for AUTHENTICATION templates, which take no other kind.
    if (type === 'OTP' && category !== 'AUTHENTICATION')
      problems.push({ path: `${p}.type`, message: 'OTP buttons belong to AUTHENTICATION templates' });
    if (type !== 'OTP' && category === 'AUTHENTICATION')
      problems.push({ path: `${p}.type`, message: 'AUTHENTICATION templates take OTP buttons only' });
    rule.check(button, p, problems);
    return type;
  });
  for (const [type, rule] of Object.entries(BUTTON_RULES)) {
    const count = types.filter((t) => t === type).length;
    if (rule.max !== undefined && count > rule.max)
      problems.push({ path, message: `at most ${rule.max} ${type} button${rule.max > 1 ? 's' : ''}` });
  }
  // Quick replies must stand together: QR,QR,URL is fine, QR,URL,QR is not.
  const firstQr = types.indexOf('QUICK_REPLY');
  const lastQr = types.lastIndexOf('QUICK_REPLY');
  if (firstQr >= 0 && types.slice(firstQr, lastQr + 1).some((t) => t !== 'QUICK_REPLY')) {
    problems.push({ path, message: 'QUICK_REPLY buttons must be grouped together' });
  }
}
