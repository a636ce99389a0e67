import { BSUID } from '#lib/domain/people/person.ts';
import { BSUID_REFUSED_TITLE, refusesBsuid } from '#lib/domain/people/bsuid-refusals.ts';
import { GraphError } from './graph-error.ts';

/** What of a template and a sent message these rules read (the model's own types, without importing them). */
type Template = { category?: string; components: unknown[] };
type Sent = { message: Record<string, unknown> };

/**
 * Meta's people in 2026 as the emulator plays them (upstream-facts §9.A–C): messages to a BSUID by `recipient`,
 * the templates Meta refuses for one (131062), the Marketing Messages API's `product_policy`, and the per-user
 * marketing limit (131049) a test asks for.
 */

/** Who a message goes to: `to` wins when both are given (upstream-facts §9.A6); neither is error 100. */
export function targetOf(message: Record<string, unknown>): { to?: string; user_id?: string } {
  if (message.to !== undefined) return { to: String(message.to) };
  if (typeof message.recipient === 'string' && BSUID.test(message.recipient)) return { user_id: message.recipient };
  if (message.recipient !== undefined) throw new GraphError(400, 131009, 'Parameter value is not valid: recipient');
  throw new GraphError(400, 100, 'The parameter to is required.');
}

/** Meta's 131062: a copy-code, one-tap or zero-tap AUTHENTICATION template to a BSUID alone. */
export function checkBsuidTarget(template: Template, message: Record<string, unknown>) {
  if (targetOf(message).to === undefined && refusesBsuid(template)) throw new GraphError(400, 131062, `(#131062) ${BSUID_REFUSED_TITLE}`);
}

/** The send response's `contacts[]`: `input` and `wa_id` for a number, `input` and `user_id` for a BSUID. */
export function contactsOf(message: Record<string, unknown>) {
  const { to, user_id } = targetOf(message);
  return to !== undefined ? [{ input: to, wa_id: to.replace(/\D/g, '') }] : [{ input: user_id, user_id }];
}

/** Who a sent message went to, as a key of the per-user switches: its number's digits or its BSUID. */
export const personOf = (message: Sent) => {
  const { to, user_id } = targetOf(message.message);
  return to !== undefined ? to.replace(/\D/g, '') : (user_id as string);
};

/** Meta's per-user marketing limit (upstream-facts §9.C), as its failed status reports it. */
export const CAPPED_ERROR = { code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' };

/** The people whose next marketing message Meta refuses with 131049 (`POST /_emulator/users/{id}/capped`). */
export class MarketingCaps {
  private readonly capped = new Set<string>();

  /** A number (any form: its digits count) or a BSUID. */
  cap(person: string) {
    this.capped.add(BSUID.test(person) ? person : person.replace(/\D/g, ''));
  }

  /** Whether this marketing message meets a cap: the cap is used up by it. */
  take(message: Sent, category: string | undefined) {
    if (String(category).toUpperCase() !== 'MARKETING') return false;
    return this.capped.delete(personOf(message));
  }
}

/** What the control endpoints below change: the model's WABAs, the caps, and Meta's webhooks. */
interface PeopleWorld {
  model: { wabas: Map<string, { id: string; mm_onboarded?: boolean }> };
  caps: MarketingCaps;
  notifier?: { notify(wabaId: string, field: string, value: unknown): void };
  onChange?: () => unknown;
}

/**
 * `POST /_emulator/wabas/{id}/marketing-messages {"onboarded": true}`: the WABA's business accepted the Marketing
 * Messages API's terms (Meta's `account_update` `MM_LITE_TERMS_SIGNED` webhook with it; `false` takes it back,
 * with no webhook). `POST /_emulator/users/{phone or bsuid}/capped`: that person's next marketing message fails
 * 131049. Undefined for any other path.
 */
export function peopleControl(world: PeopleWorld, method: string, path: string, body: Record<string, unknown>) {
  const onboarding = /^\/_emulator\/wabas\/([^/]+)\/marketing-messages$/.exec(path);
  if (onboarding && method === 'POST') {
    const waba = world.model.wabas.get(decodeURIComponent(onboarding[1]));
    if (!waba) return { status: 404, body: { error: 'no such WABA' } };
    const onboarded = body.onboarded !== false;
    const signed = onboarded && !waba.mm_onboarded;
    waba.mm_onboarded = onboarded;
    void world.onChange?.();
    if (signed)
      world.notifier?.notify(waba.id, 'account_update', {
        event: 'MM_LITE_TERMS_SIGNED',
        waba_info: { waba_id: waba.id, owner_business_id: `business-of-${waba.id}` },
      });
    return { status: 200, body: { waba_id: waba.id, marketing_messages_onboarding_status: onboarded ? 'ONBOARDED' : 'ELIGIBLE' } };
  }
  const capped = /^\/_emulator\/users\/([^/]+)\/capped$/.exec(path);
  if (capped && method === 'POST') {
    const person = decodeURIComponent(capped[1]);
    if (!BSUID.test(person) && !/^\+?\d{6,20}$/.test(person)) return { status: 400, body: { error: 'a phone number or a BSUID' } };
    world.caps.cap(person);
    return { status: 200, body: { capped: person } };
  }
  return undefined;
}
