import { upper } from '../shared/text.ts';

/** What Meta refuses for a recipient known by BSUID alone (decisions §28, upstream-facts §9.A6). */

/** Meta's code for a message it does not send to a BSUID (upstream-facts §9.A6). */
export const BSUID_REFUSED = '131062';

export const BSUID_REFUSED_TITLE = 'Business-scoped User ID (BSUID) recipients are not supported for this message.';

const OTP_TYPES = new Set(['COPY_CODE', 'ONE_TAP', 'ZERO_TAP']);

/**
 * Whether Meta refuses the template for a recipient known by BSUID alone: an AUTHENTICATION template with a
 * copy-code, one-tap or zero-tap button, as created (`OTP`) or as Graph keeps it (a URL carrying the code).
 */
export function refusesBsuid(template: { category?: string; components: unknown[] }): boolean {
  if (upper(template.category) !== 'AUTHENTICATION') return false;
  return (template.components as Record<string, unknown>[]).some(
    (component) =>
      upper(component?.type) === 'BUTTONS' &&
      ((component.buttons ?? []) as Record<string, unknown>[]).some((button) => {
        const type = upper(button?.type);
        if (type === 'OTP') return button.otp_type === undefined || OTP_TYPES.has(upper(button.otp_type));
        if (type !== 'URL') return false;
        const otp = /otp_type=([A-Z_]+)/i.exec(String(button.url ?? ''))?.[1];
        return otp === undefined || OTP_TYPES.has(upper(otp));
      }),
  );
}

/** A recipient named by BSUID alone: Meta sends by `recipient`. */
export const isBsuidOnly = (r: { to?: string; user_id?: string }) => r.to === undefined && r.user_id !== undefined;
