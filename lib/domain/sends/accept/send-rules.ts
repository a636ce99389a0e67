import { upper } from '../../shared/text.ts';
import type { ErrorDetail } from '../../shared/errors.ts';
import type { RecipientParams, SendHeader } from '../dispatch-job.ts';
import type { MetaTemplate } from '../../templates/template-record.ts';
import { placeholders } from '../../templates/rules/placeholders.ts';
import { DAY_MS } from '../../shared/calendar.ts';
import type { DirectMessage, DirectSend } from '../direct-send.ts';
import type { TestRequest, VariantRequest } from '../ab/ab-send.ts';

/**
 * The rules of a send's request (decisions §5, §12, §22): what its template asks of each recipient, and when
 * it may be scheduled. Pure: the pipeline (send-pipeline.ts) applies them.
 */

/** POST /v1/template/messages/{did} (spec §1, decisions §5): the body as the request schema delivers it. */
export interface SendInput {
  did: string;
  type: 'template';
  channel: 'MSGCHAN';
  /** The template; absent for a Direct Send, which gives `category` and `message` instead (issue 55 item 2). */
  template?: { name: string; language: string };
  /** An A/B send's variants instead of a template, and its test first (decisions §33). */
  variants?: VariantRequest[];
  test?: TestRequest;
  category?: DirectSend['category'];
  message?: DirectMessage;
  recipients: SendRecipient[];
  campaignId?: number;
  client_id?: number;
  attends?: { waitTime?: number; typification?: number };
  message_send_ttl_seconds?: number;
  allow_duplicates?: boolean;
  component?: { header: SendHeader };
  /** RFC 3339: when to send (decisions §22); absent, at once. */
  send_at?: string;
  /** Which API a MARKETING send goes through, and its time to live there (decisions §28). */
  marketing_api?: 'auto' | 'cloud' | 'mm';
  ttl_seconds?: number;
  /** A MARKETING send's max price on the Marketing Messages API (decisions §34): per 1,000 deliveries, in the WABA's currency. */
  max_price?: { amount_per_1000: number; currency: string };
}

/** One recipient of a send as the request names it. */
export interface SendRecipient {
  /** A phone number, a BSUID, or both (decisions §28). */
  to?: string;
  user_id?: string;
  params?: RecipientParams;
  /** A resend's recipient of an A/B send (decisions §33): the variant its message went with (never from the wire). */
  variant?: number;
}

type Component = Record<string, unknown>;

/** What a template asks of each recipient's params. */
export interface TemplateNeeds {
  header: number;
  body: number;
  buttons: number;
  cards?: { body: number; buttons: number }[];
  products?: 'MPM' | 'SPM';
  headerFormat?: string;
}

const countOf = (text: unknown) => (typeof text === 'string' ? new Set(placeholders(text).positions).size : 0);

/** Buttons with a variable: a URL with {{1}}, a COPY_CODE (its code), or an OTP button of an authentication template. */
function variableButtons(buttons: unknown): number {
  if (!Array.isArray(buttons)) return 0;
  return buttons.filter((b: Component) => {
    const type = upper(b?.type);
    return (type === 'URL' && countOf(b.url) > 0) || type === 'COPY_CODE' || type === 'OTP';
  }).length;
}

export function templateNeeds(template: MetaTemplate): TemplateNeeds {
  const needs: TemplateNeeds = { header: 0, body: 0, buttons: 0 };
  let codeButton = false;
  for (const component of template.components as Component[]) {
    const type = upper(component?.type);
    if (type === 'HEADER') {
      needs.headerFormat = upper(component.format ?? 'TEXT');
      if (needs.headerFormat === 'TEXT') needs.header = countOf(component.text);
    } else if (type === 'BODY') {
      needs.body = countOf(component.text);
    } else if (type === 'BUTTONS') {
      needs.buttons = variableButtons(component.buttons);
      const kinds = (component.buttons as Component[] | undefined)?.map((b) => upper(b?.type)) ?? [];
      codeButton = kinds.some((kind) => kind === 'OTP' || kind === 'URL' || kind === 'COPY_CODE');
      if (kinds.includes('MPM')) needs.products = 'MPM';
      else if (kinds.includes('SPM')) needs.products = 'SPM';
    } else if (type === 'CAROUSEL' && Array.isArray(component.cards)) {
      needs.cards = component.cards.map((card: Component) => {
        const parts = (card?.components ?? []) as Component[];
        return {
          body: countOf(parts.find((p) => upper(p?.type) === 'BODY')?.text),
          buttons: variableButtons(parts.find((p) => upper(p?.type) === 'BUTTONS')?.buttons),
        };
      });
    }
  }
  // An AUTHENTICATION template takes the code once for the body and once for its code button, whether its
  // components are as created (no body text, an OTP button) or as Graph stores them (decisions §12).
  if (upper(template.category) === 'AUTHENTICATION') {
    needs.body = 1;
    needs.buttons = codeButton ? 1 : 0;
  }
  return needs;
}

/**
 * Checks every recipient's params against the template; each problem names the recipient index. Stops after
 * `limit` problems (a send's 400 names the first ones; a dry run asks for all).
 */
export function checkRecipients(needs: TemplateNeeds, recipients: readonly SendRecipient[], limit = 100): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const expect = (path: string, got: unknown[] | undefined, wanted: number, what: string) => {
    const count = got?.length ?? 0;
    if (count !== wanted) problems.push({ path, message: `needs ${wanted} ${what} value${wanted === 1 ? '' : 's'}, got ${count}` });
  };
  recipients.forEach((recipient, i) => {
    if (problems.length >= limit) return;
    const p = recipient.params;
    const base = `recipients[${i}].params`;
    expect(`${base}.header`, p?.header, needs.header, 'header');
    expect(`${base}.body`, p?.body, needs.body, 'body');
    expect(`${base}.buttons`, p?.buttons, needs.buttons, 'button');
    if (needs.cards) {
      if ((p?.cards?.length ?? 0) !== needs.cards.length) {
        problems.push({ path: `${base}.cards`, message: `needs ${needs.cards.length} cards, in the template's order` });
      } else {
        needs.cards.forEach((card, j) => {
          expect(`${base}.cards[${j}].body`, p!.cards![j].body, card.body, 'card body');
          expect(`${base}.cards[${j}].buttons`, p!.cards![j].buttons, card.buttons, 'card button');
        });
      }
    } else if (p?.cards) {
      problems.push({ path: `${base}.cards`, message: 'the template has no carousel' });
    }
    if (needs.products) {
      const products = p?.products;
      if (!products?.length) problems.push({ path: `${base}.products`, message: `a ${needs.products} template needs products` });
      else if (needs.products === 'MPM' && products.some((x) => !x.action.sections?.length)) {
        problems.push({ path: `${base}.products`, message: 'an MPM template needs sections' });
      } else if (needs.products === 'SPM' && products.some((x) => x.action.sections !== undefined)) {
        problems.push({ path: `${base}.products`, message: 'an SPM action holds only thumbnailProductRetailerId' });
      }
    } else if (p?.products) {
      problems.push({ path: `${base}.products`, message: 'the template takes no products' });
    }
  });
  return problems;
}

export const HEADER_TYPES: Record<string, string> = {
  IMAGE: 'image_url',
  VIDEO: 'video_url',
  DOCUMENT: 'document_url',
  LOCATION: 'location',
};

/** How far ahead a send may be scheduled, and how far in the past its time may be (decisions §22). */
const SCHEDULE_AHEAD_MS = 30 * DAY_MS;
const SCHEDULE_PAST_MS = 60_000;

/** Problems of a `send_at`, against the time now. */
export function sendAtProblems(sendAt: string | undefined, nowMs: number): ErrorDetail[] {
  if (sendAt === undefined) return [];
  const at = Date.parse(sendAt);
  if (Number.isNaN(at)) return [{ path: 'send_at', message: 'must be an RFC 3339 date-time' }];
  if (at > nowMs + SCHEDULE_AHEAD_MS) return [{ path: 'send_at', message: 'must be at most 30 days ahead' }];
  if (at < nowMs - SCHEDULE_PAST_MS) return [{ path: 'send_at', message: 'must not be more than a minute in the past' }];
  return [];
}

/**
 * A send's time when it is still ahead (then it is scheduled); undefined: it goes at once. A schedule names
 * its time to the second, so a time less than SCHEDULE_LEAD_MS ahead would name one already past: it goes now.
 */
const SCHEDULE_LEAD_MS = 5_000;
export const scheduledAt = (sendAt: string | undefined, nowMs: number) =>
  sendAt !== undefined && Date.parse(sendAt) > nowMs + SCHEDULE_LEAD_MS ? new Date(Date.parse(sendAt)).toISOString() : undefined;
