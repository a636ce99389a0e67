import type { MetaTemplate } from '../template-record.ts';
import type { MetaCostEntry } from './costs.ts';
import type { SendingLimits, ThroughputLevel } from './pacing.ts';

// The Graph API in the domain's words: templates, catalogs, media, messages and prices.

/**
 * The upstream (Meta's Graph API), in the domain's words. Failures are UpstreamUnavailable (no usable answer:
 * network, timeout, 5xx/429 after retries, our credentials refused) or UpstreamRejected (the upstream refused
 * this request) from ./errors.ts.
 */
export interface WabaUpstream {
  /**
   * The WABA's message template namespace, or undefined when the upstream has none. The template and catalog
   * ports say it too: a use case of either resolves its provider with it (provider.ts), no port extending another.
   */
  namespaceOf(wabaId: string): Promise<string | undefined>;
}

/** A template as the upstream holds it: name, language, status, category and components, and whatever else it returns. */
export type UpstreamTemplate = MetaTemplate;

/** What a create sends upstream (the fields of upstream-facts §3). */
export interface TemplateDraftForUpstream {
  name: string;
  language: string;
  category: string;
  components: Record<string, unknown>[];
  parameter_format: 'POSITIONAL';
  message_send_ttl_seconds?: number;
  allow_category_change?: boolean;
  /** The dynamic max price settings (decisions §4); the upstream calls them the bid spec. */
  optimization?: Record<string, unknown>;
}

export interface CreatedTemplate {
  id: string;
  status: string;
  category: string;
}

/** An edit: the new components, and the category and optimization only when they change. */
export interface TemplateEdit {
  components: Record<string, unknown>[];
  category?: string;
  optimization?: Record<string, unknown>;
}

export interface TemplateUpstream {
  namespaceOf(wabaId: string): Promise<string | undefined>;
  /** The template of that name and language, or null. */
  findTemplate(wabaId: string, name: string, language: string): Promise<UpstreamTemplate | null>;
  /**
   * What Meta lets a send reach (decisions §22): the business portfolio's unique recipients in 24 hours
   * (Infinity: unlimited; absent: not known) and the sending number's quality rating.
   */
  sendingLimits(wabaId: string, phoneNumberId?: string): Promise<SendingLimits>;
  /** Every template of the WABA, a page at a time. */
  templatesOf(wabaId: string): AsyncIterable<UpstreamTemplate[]>;
  /** Answers when the upstream can list the WABA's templates; throws when it cannot. */
  probe(wabaId: string): Promise<void>;
  /** Throws UpstreamRejected with reason `duplicate_template` when the name and language exist already. */
  createTemplate(wabaId: string, draft: TemplateDraftForUpstream): Promise<CreatedTemplate>;
  editTemplate(templateId: string, edit: TemplateEdit): Promise<void>;
}

/** Header media: the upstream's resumable upload, which answers with a handle for the HEADER example. */
export interface MediaUpload {
  uploadMedia(file: { name: string; type: string; bytes: Uint8Array }): Promise<string>;
}

export interface Catalog {
  id: string;
  name: string;
  vertical: string;
}

/** A product as the contract shows it. */
export interface Product {
  id: string;
  name: string;
  retailer_id: string;
  image_urls: string[];
  description: string;
  currency: string;
  price: string;
  url: string;
  category: string;
  unique_id: string;
}

export interface ProductPage {
  products: Product[];
  /** The upstream's cursors around this page (empty strings when it gives none). */
  before: string;
  after: string;
  /** Whether another page follows this one. */
  hasNext: boolean;
}

export interface CatalogUpstream {
  namespaceOf(wabaId: string): Promise<string | undefined>;
  catalogsOf(wabaId: string): Promise<Catalog[]>;
  /** Throws UpstreamRejected when the upstream refuses the cursor or the catalog. */
  productsOf(catalogId: string, page: { limit: number; cursor?: string }): Promise<ProductPage>;
}

/** What the upstream answered to one message. */
export type MessageAnswer =
  /** `held`: Meta holds it for quality assessment (`held_for_quality_assessment`, decisions §25) before delivering it. */
  | { kind: 'accepted'; message_id: string; held?: true }
  /** Refused: `retryable` for throughput limits and the upstream's own faults. */
  | { kind: 'refused'; code: string; title: string; retryable: boolean }
  /** No answer in time after the request left: the upstream may have accepted it. */
  | { kind: 'unknown' };

/** Sending messages through the upstream (Cloud API). */
/** Which API a message goes through: `mm`, the Marketing Messages API (`/marketing_messages`, decisions §28). */
export interface MessageRoute {
  api?: 'mm';
}

export interface MessageUpstream {
  /** `reference` comes back with the message's status reports (delivery.ts, messageReference). */
  sendMessage(phoneNumberId: string, message: Record<string, unknown>, reference: string, options?: MessageRoute): Promise<MessageAnswer>;
  /** The WABA's first catalog (SPM messages name it), or undefined. */
  catalogOf(wabaId: string): Promise<string | undefined>;
  /** The number's throughput level as the upstream reports it (decisions §19). */
  throughputOf(phoneNumberId: string): Promise<ThroughputLevel>;
}

/** Meta's own figures of what a WABA's messages cost (upstream-facts §8: pricing_analytics, DAILY). */
export interface PricingUpstream {
  /** The WABA's cost and volume from `startUnix` to `endUnix`, by day, country and pricing category. */
  pricingAnalytics(wabaId: string, startUnix: number, endUnix: number): Promise<MetaCostEntry[]>;
}

/** The currency Meta bills a WABA in (`GET /{waba}?fields=currency`, upstream-facts §9.D), ISO 4217. */
export interface BillingCurrencies {
  currencyOf(wabaId: string): Promise<string>;
}

/** A WABA's Marketing Messages API onboarding as Graph reports it (`marketing_messages_onboarding_status`, upstream-facts §9.B). */
export interface MarketingUpstream {
  /** Graph's status, e.g. `ONBOARDED` or `ELIGIBLE`; undefined where Graph names none. */
  marketingOnboardingOf(wabaId: string): Promise<string | undefined>;
}

/** What the service knows of a WABA's onboarding to the Marketing Messages API (decisions §28). */
export interface MarketingOnboardingState {
  onboarded: boolean;
  /** Graph's field, or Meta's `MM_LITE_TERMS_SIGNED` webhook. */
  source: 'graph' | 'webhook';
  /** When it was learned (ISO): a WABA not onboarded is asked again after a while. */
  at: string;
}

/** Each WABA's onboarding, kept in the table (`WABA#<id>` / `MM_ONBOARDING`). */
export interface MarketingOnboardings {
  get(wabaId: string): Promise<MarketingOnboardingState | null>;
  put(wabaId: string, state: MarketingOnboardingState): Promise<void>;
}
