import type { DirectInteractive, DispatchJob, JobRecipient } from './dispatch-job.ts';
import { placeholders } from '../templates/rules/placeholders.ts';
import { valuesFor } from './ab/job-variants.ts';

/**
 * One recipient of a job as one Cloud API template message (upstream-facts §1.9): the template's name and
 * language, and a component per part that takes values: the header (text values, the send's media or
 * location, or an SPM product), the body values, each variable button by its index, carousel cards and
 * MPM products. Pure: the dispatcher sends what this returns.
 */
export interface CloudMessage {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  /** A phone number; a recipient known by BSUID alone goes by `recipient` (decisions §28, upstream-facts §9.A6). */
  to?: string;
  recipient?: string;
  type: 'template' | 'text' | 'interactive';
  template?: { name: string; language: { code: string }; components?: Record<string, unknown>[] };
  /** A Direct Send (issue 55 item 2, platform-2027 §2): the free-form message with its category, lower-case as Meta writes it. */
  text?: { body: string };
  interactive?: DirectInteractive['interactive'];
  category?: 'utility' | 'authentication';
  /** A max price on the Marketing Messages API (decisions §34): `bid_amount` per 1,000 deliveries. */
  optimization_spec?: { bid_amount: number };
}

type Component = Record<string, unknown>;
type Parameter = Record<string, unknown>;

const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : '');
const text = (value: string): Parameter => ({ type: 'text', text: value });
const hasVariable = (value: unknown) => typeof value === 'string' && placeholders(value).positions.length > 0;
const partOf = (components: Component[], type: string) => components.find((c) => upper(c?.type) === type);

/** A media header parameter from a format and what points at the media. */
function mediaParameter(format: string, source: Record<string, string>): Parameter {
  const kind = format.toLowerCase();
  return { type: kind, [kind]: source };
}

/** The send's header: its media or location (component.header), the recipient's text values, or an SPM product. */
function headerComponent(job: DispatchJob, recipient: JobRecipient, catalogId?: string): Component | undefined {
  const given = job.component?.header;
  if (given?.type === 'location') return { type: 'header', parameters: [{ type: 'location', location: given.location }] };
  if (given) {
    const kind = given.type.replace(/_url$/, '');
    const source: Record<string, string> = { link: given.value };
    if (kind === 'document' && given.filename) source.filename = given.filename;
    return { type: 'header', parameters: [mediaParameter(kind, source)] };
  }
  const header = partOf(job.template.components, 'HEADER');
  if (upper(header?.format) === 'PRODUCT') {
    const product = recipient.params?.products?.[0]?.action.thumbnailProductRetailerId;
    if (product)
      return { type: 'header', parameters: [{ type: 'product', product: { product_retailer_id: product, catalog_id: catalogId } }] };
  }
  const values = recipient.params?.header ?? [];
  return values.length ? { type: 'header', parameters: values.map(text) } : undefined;
}

/**
 * The button components: one per button that takes a value, by its index among the template's buttons. The
 * values are the recipient's, in the order of those buttons; an MPM button takes the recipient's products.
 */
function buttonComponents(buttons: unknown, values: string[], recipient: JobRecipient, authentication: boolean): Component[] {
  if (!Array.isArray(buttons)) return [];
  const out: Component[] = [];
  let next = 0;
  buttons.forEach((button: Component, index) => {
    const type = upper(button?.type);
    const otp = type === 'OTP' || (authentication && type === 'URL');
    if (otp || (type === 'URL' && hasVariable(button.url))) {
      out.push({ type: 'button', sub_type: 'url', index: String(index), parameters: [text(values[next++] ?? '')] });
    } else if (type === 'COPY_CODE') {
      out.push({
        type: 'button',
        sub_type: 'copy_code',
        index: String(index),
        parameters: [{ type: 'coupon_code', coupon_code: values[next++] ?? '' }],
      });
    } else if (type === 'MPM') {
      const action = recipient.params?.products?.[0]?.action;
      if (action) {
        out.push({
          type: 'button',
          sub_type: 'mpm',
          index: String(index),
          parameters: [
            {
              type: 'action',
              action: { thumbnail_product_retailer_id: action.thumbnailProductRetailerId, sections: action.sections ?? [] },
            },
          ],
        });
      }
    }
  });
  return out;
}

/**
 * Carousel cards: each card's header repeats the template's sample media (the contract gives callers no card
 * media field), then the card's body values and variable buttons.
 */
function carouselComponent(carousel: Component, recipient: JobRecipient): Component | undefined {
  const cards = Array.isArray(carousel.cards) ? (carousel.cards as Component[]) : [];
  if (cards.length === 0) return undefined;
  return {
    type: 'carousel',
    cards: cards.map((card, index) => {
      const parts = (card?.components ?? []) as Component[];
      const values = recipient.params?.cards?.[index];
      const components: Component[] = [];
      const header = partOf(parts, 'HEADER');
      const handle = (header?.example as { header_handle?: string[] } | undefined)?.header_handle?.[0];
      if (header && handle) components.push({ type: 'header', parameters: [mediaParameter(upper(header.format), { id: handle })] });
      if (values?.body?.length) components.push({ type: 'body', parameters: values.body.map(text) });
      components.push(...buttonComponents(partOf(parts, 'BUTTONS')?.buttons, values?.buttons ?? [], recipient, false));
      return { card_index: index, components };
    }),
  };
}

export function cloudMessage(job: DispatchJob, recipient: JobRecipient, options: { catalogId?: string } = {}): CloudMessage {
  if (job.direct) return directMessage(job.direct, recipient);
  // An A/B send's variant with values of its own (decisions §33): they fill its parts in place of the recipient's.
  if (job.variant_params) return templateMessage(job, { ...recipient, params: valuesFor(recipient.params, job.variant_params) }, options);
  return templateMessage(job, recipient, options);
}

/** A template message of the job's template, filled with the recipient's values. */
function templateMessage(job: DispatchJob, recipient: JobRecipient, options: { catalogId?: string }): CloudMessage {
  const template = job.template.components;
  const authentication = upper(job.template.category) === 'AUTHENTICATION';
  const components: Component[] = [];
  const header = headerComponent(job, recipient, options.catalogId);
  if (header) components.push(header);
  const body = recipient.params?.body ?? [];
  if (body.length) components.push({ type: 'body', parameters: body.map(text) });
  components.push(...buttonComponents(partOf(template, 'BUTTONS')?.buttons, recipient.params?.buttons ?? [], recipient, authentication));
  const carousel = partOf(template, 'CAROUSEL');
  const cards = carousel && carouselComponent(carousel, recipient);
  if (cards) components.push(cards);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...(recipient.to !== undefined ? { to: recipient.to } : { recipient: recipient.user_id }),
    type: 'template',
    template: { name: job.template.name, language: { code: job.template.language }, ...(components.length && { components }) },
    // A max price on the Marketing Messages API (decisions §34; docs/platform-2027.md §5): Meta's `optimization_spec`
    // with `bid_amount`, per 1,000 deliveries in the WABA's currency.
    ...(job.marketing_api === 'mm' && job.max_price && { optimization_spec: { bid_amount: job.max_price.amount_per_1000 } }),
  };
}

/**
 * A Direct Send's message: Meta's free-form message plus `category` (`{"type":"text","text":{…},"category":"utility"}`,
 * or `"type":"interactive"` with its buttons and header), as the send gave it.
 */
function directMessage(direct: NonNullable<DispatchJob['direct']>, recipient: JobRecipient): CloudMessage {
  const { message } = direct;
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...(recipient.to !== undefined ? { to: recipient.to } : { recipient: recipient.user_id }),
    ...(message.type === 'text'
      ? { type: 'text', text: { body: message.text.body } }
      : { type: 'interactive', interactive: message.interactive }),
    category: direct.category === 'AUTHENTICATION' ? 'authentication' : 'utility',
  };
}

/** Whether the template's header is a product (SPM): the message then needs the WABA's catalog. */
export const needsCatalog = (job: DispatchJob) => upper(partOf(job.template.components, 'HEADER')?.format) === 'PRODUCT';
