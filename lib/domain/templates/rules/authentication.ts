import type { Component } from './components.ts';
import { upper } from '../../shared/text.ts';

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
    const body = out.find((c) => upper(c?.type) === 'BODY');
    if (body) body.add_security_recommendation = options.add_security_recommendation;
  }
  if (options.code_expiration_minutes !== undefined) {
    let footer = out.find((c) => upper(c?.type) === 'FOOTER');
    if (!footer) {
      footer = { type: 'FOOTER' };
      const buttonsAt = out.findIndex((c) => upper(c?.type) === 'BUTTONS');
      out.splice(buttonsAt >= 0 ? buttonsAt : out.length, 0, footer);
    }
    footer.code_expiration_minutes = options.code_expiration_minutes;
  }
  return out;
}
