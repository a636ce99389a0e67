import * as v from 'valibot';
import { UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import type { MetaCostEntry } from '#lib/domain/money/ports.ts';
import type { BillingCurrencies, BillingFields, PricingUpstream } from '#lib/domain/money/ports.ts';
import type { DirectSendUpstream, MarketingUpstream } from '#lib/domain/sends/ports.ts';
import type { SendingLimits, ThroughputLevel } from '#lib/domain/shared/ports.ts';
import { UpstreamNotConfigured } from './token.ts';
import type {
  Catalog,
  CatalogUpstream,
  CreatedTemplate,
  MediaUpload,
  Product,
  ProductPage,
  TemplateDraftForUpstream,
  TemplateEdit,
  TemplateUpstream,
  UpstreamTemplate,
} from '#lib/domain/templates/ports.ts';
import { Cache } from '../cache.ts';
import type { GraphClient } from './graph-client.ts';
import { readPricingAnalytics } from './pricing-analytics.ts';
import type { TemplateAnalyticsUpstream } from '#lib/domain/templates/template-analytics.ts';
import { enableTemplateAnalytics, readTemplateAnalytics } from './template-analytics.ts';

/**
 * The upstream ports on Meta's Graph API: paths, field lists, paging and payload shapes are Graph's and stay
 * here. Every answer is validated before the domain sees it; an answer of another shape is the upstream
 * being unavailable, never a crash further in.
 */
const TEMPLATE_FIELDS =
  'id,name,language,status,category,components,parameter_format,quality_score,previous_category,rejected_reason,message_send_ttl_seconds,library_template_name,source';
const ttlOf = (draft: { message_send_ttl_seconds?: number }) =>
  draft.message_send_ttl_seconds === undefined ? {} : { message_send_ttl_seconds: draft.message_send_ttl_seconds };
const PRODUCT_FIELDS = 'id,name,retailer_id,image_url,image_urls,additional_image_urls,description,currency,price,url,category,unique_id';
/**
 * Templates per page when listing a WABA's templates: the largest page we ask for, so a sync makes the fewest
 * requests. Meta documents no maximum (upstream-facts §2: default 25, maximum UNCONFIRMED); 1,000 is the
 * usual Graph edge maximum and the emulator's. A WABA holds at most a few thousand templates.
 */
export const TEMPLATES_PAGE_SIZE = 1000;

const id = v.pipe(v.union([v.string(), v.number()]), v.transform(String));
const Paging = v.optional(
  v.looseObject({
    cursors: v.optional(v.looseObject({ before: v.optional(v.string()), after: v.optional(v.string()) })),
    next: v.optional(v.string()),
  }),
);
const pageOf = <T extends v.GenericSchema>(item: T) => v.looseObject({ data: v.array(item), paging: Paging });

const Template = v.looseObject({
  id,
  name: v.string(),
  language: v.string(),
  status: v.string(),
  category: v.string(),
  components: v.array(v.record(v.string(), v.unknown())),
});
const Waba = v.looseObject({ message_template_namespace: v.optional(v.string()) });
const Created = v.looseObject({ id, status: v.optional(v.string(), 'PENDING'), category: v.optional(v.string()) });
const text = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (value === undefined || value === null ? '' : String(value))),
  ),
  '',
);
const CatalogItem = v.looseObject({ id, name: text, vertical: text });
const ProductItem = v.looseObject({
  id,
  name: text,
  retailer_id: text,
  image_url: v.optional(v.string()),
  image_urls: v.optional(v.array(v.string())),
  additional_image_urls: v.optional(v.array(v.string())),
  description: text,
  currency: text,
  price: text,
  url: text,
  category: text,
  unique_id: v.optional(v.string()),
});
const UploadSession = v.looseObject({ id: v.string() });
const UploadResult = v.looseObject({ h: v.string() });

const PhoneNumberThroughput = v.object({
  throughput: v.optional(v.object({ level: v.optional(v.string()) })),
  is_on_biz_app: v.optional(v.boolean()),
});

const MessagingLimit = v.object({ whatsapp_business_manager_messaging_limit: v.string() });
const BillingCurrency = v.object({
  currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))),
  // Meta's number of a zone, a string ("71"); some answers give it as a number.
  timezone_id: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String))),
});
/** `marketing_messages_onboarding_status` (upstream-facts §9.B): a status name, or an object holding one. */
const MarketingOnboarding = v.object({
  marketing_messages_onboarding_status: v.optional(
    v.union([v.pipe(v.string(), v.maxLength(64)), v.object({ status: v.optional(v.pipe(v.string(), v.maxLength(64))) })]),
  ),
});
/** `direct_send_status` of a WABA: the service's assumption of how Graph names it (docs/platform-2027.md §2). */
const DirectSendStatus = v.object({ direct_send_status: v.optional(v.pipe(v.string(), v.maxLength(64))) });
const QualityRating = v.object({ quality_rating: v.string() });
const LIMITS_KEPT_MS = 60_000;
const NAMESPACES_KEPT_MS = 60_000;
/** What one container keeps of its WABAs (and numbers): far more than a deployment's. */
const KEPT_WABAS = 1_000;

/** A messaging limit tier as unique users per 24 hours (`TIER_2K` is 2,000); undefined for a name not known. */
function usersPerDay(tier: string): number | undefined {
  if (/^(TIER_)?UNLIMITED$/i.test(tier)) return Number.POSITIVE_INFINITY;
  const match = /^TIER_(\d+)(K?)$/i.exec(tier);
  return match ? Number(match[1]) * (match[2] ? 1000 : 1) : undefined;
}

function shaped<S extends v.GenericSchema>(schema: S, answer: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, answer);
  if (!result.success) throw new UpstreamUnavailable('The upstream answered in an unexpected shape');
  return result.output;
}

/** The contract's Product from a Graph ProductItem: image_urls gathers the main and additional images. */
export function toProduct(item: v.InferOutput<typeof ProductItem>): Product {
  const images = item.image_urls ?? [item.image_url, ...(item.additional_image_urls ?? [])].filter((url): url is string => Boolean(url));
  const { id: productId, name, retailer_id, description, currency, price, url, category } = item;
  return {
    id: productId,
    name,
    retailer_id,
    image_urls: images,
    description,
    currency,
    price,
    url,
    category,
    unique_id: item.unique_id ?? retailer_id,
  };
}

/** How long a WABA's billing currency read from Graph is used by this process before it is read again. */
const CURRENCY_KEPT_MS = 60 * 60 * 1000;

export class GraphUpstream
  implements
    TemplateUpstream,
    CatalogUpstream,
    MediaUpload,
    PricingUpstream,
    BillingCurrencies,
    MarketingUpstream,
    DirectSendUpstream,
    TemplateAnalyticsUpstream
{
  constructor(
    private readonly graph: GraphClient,
    /** The Meta app id resumable uploads go through; empty when the deployment has none (uploads answer 502). */
    private readonly appId: string,
  ) {}

  /** Sending limits read in the last minute, by WABA and number. */
  private readonly limits = new Cache<string, SendingLimits>({ maxEntries: KEPT_WABAS, maxAgeMs: LIMITS_KEPT_MS });
  /** WABAs' billing currencies as read, kept an hour: the table keeps them too, refreshed daily (decisions §30). */
  private readonly currencies = new Cache<string, BillingFields>({ maxEntries: KEPT_WABAS, maxAgeMs: CURRENCY_KEPT_MS });
  /** WABAs' template namespaces as read, kept a minute: a use case resolves its provider with one (provider.ts). */
  private readonly namespaces = new Cache<string, string>({ maxEntries: KEPT_WABAS, maxAgeMs: NAMESPACES_KEPT_MS });

  /** The WABA's billing currency (upstream-facts §9.D); Graph's answer without one is USD, Meta's default. */
  async currencyOf(wabaId: string) {
    return (await this.billingFieldsOf(wabaId)).currency;
  }

  /** The WABA's billing currency and Meta's `timezone_id` (upstream-facts §1.6, decisions §31), read together. */
  async billingFieldsOf(wabaId: string): Promise<BillingFields> {
    const known = this.currencies.get(wabaId);
    if (known) return known;
    const query = { fields: 'currency,timezone_id' };
    const answer = shaped(BillingCurrency, await this.graph.request('GET', wabaId, { query }));
    const fields = { currency: answer.currency ?? 'USD', ...(answer.timezone_id !== undefined && { timezone_id: answer.timezone_id }) };
    this.currencies.set(wabaId, fields);
    return fields;
  }

  /** The WABA's onboarding to the Marketing Messages API (decisions §28), e.g. `ONBOARDED`; the caller keeps it. */
  async marketingOnboardingOf(wabaId: string) {
    const answer = shaped(
      MarketingOnboarding,
      await this.graph.request('GET', wabaId, { query: { fields: 'marketing_messages_onboarding_status' } }),
    );
    const status = answer.marketing_messages_onboarding_status;
    return typeof status === 'string' ? status : status?.status;
  }

  /** Whether Meta enabled the WABA for Direct Send (issue 55 item 2): `ENABLED`, `NOT_ENABLED` or `BLOCKED`. */
  async directSendStatusOf(wabaId: string) {
    const answer = shaped(DirectSendStatus, await this.graph.request('GET', wabaId, { query: { fields: 'direct_send_status' } }));
    return answer.direct_send_status;
  }

  /** Meta's DAILY figures of a WABA, every page of them (./pricing-analytics.ts). */
  pricingAnalytics(wabaId: string, startUnix: number, endUnix: number): Promise<MetaCostEntry[]> {
    return readPricingAnalytics(this.graph, wabaId, startUnix, endUnix);
  }

  /** Meta's template analytics (./template-analytics.ts): the one-time confirmation, and a WABA's day of every template. */
  enableTemplateAnalytics(wabaId: string) {
    return enableTemplateAnalytics(this.graph, wabaId);
  }

  templateAnalytics(wabaId: string, day: string) {
    return readTemplateAnalytics(this.graph, wabaId, day);
  }

  async namespaceOf(wabaId: string) {
    const kept = this.namespaces.get(wabaId);
    if (kept) return kept;
    const answer = shaped(Waba, await this.graph.request('GET', wabaId, { query: { fields: 'message_template_namespace' } }));
    const namespace = answer.message_template_namespace || undefined;
    if (namespace) this.namespaces.set(wabaId, namespace);
    return namespace;
  }

  async findTemplate(wabaId: string, name: string, language: string): Promise<UpstreamTemplate | null> {
    const answer = await this.graph.request('GET', `${wabaId}/message_templates`, {
      query: { name, language, fields: TEMPLATE_FIELDS, limit: 25 },
    });
    // Graph's name filter matches by prefix: keep the exact one.
    return shaped(pageOf(Template), answer).data.find((t) => t.name === name && t.language === language) ?? null;
  }

  async *templatesOf(wabaId: string): AsyncIterable<UpstreamTemplate[]> {
    let after: string | undefined;
    for (;;) {
      const answer = await this.graph.request('GET', `${wabaId}/message_templates`, {
        query: { limit: TEMPLATES_PAGE_SIZE, after, fields: TEMPLATE_FIELDS },
      });
      const page = shaped(pageOf(Template), answer);
      yield page.data;
      after = page.paging?.cursors?.after;
      if (!page.paging?.next || !after) return;
    }
  }

  async probe(wabaId: string) {
    shaped(
      pageOf(v.looseObject({ id })),
      await this.graph.request('GET', `${wabaId}/message_templates`, { query: { limit: 1, fields: 'id' } }),
    );
  }

  async createTemplate(wabaId: string, draft: TemplateDraftForUpstream): Promise<CreatedTemplate> {
    const { optimization, library, ...rest } = draft;
    // A library template (docs/platform-2027.md §6): its name and inputs, no components.
    const json = library
      ? { name: rest.name, language: rest.language, category: rest.category, ...library, ...ttlOf(rest) }
      : { ...rest, ...(optimization && { bid_spec: optimization }) };
    // Not retried: a repeated create could register the template twice or report a false duplicate.
    const answer = await this.graph.request('POST', `${wabaId}/message_templates`, { json, idempotent: false });
    const created = shaped(Created, answer);
    return { id: created.id, status: created.status, category: created.category ?? draft.category };
  }

  async editTemplate(templateId: string, edit: TemplateEdit) {
    const { optimization, ...rest } = edit;
    // Editing to the same content twice leaves the same state, so it is safe to retry.
    await this.graph.request('POST', templateId, { json: { ...rest, ...(optimization && { bid_spec: optimization }) }, idempotent: true });
  }

  /**
   * A phone number's throughput (upstream-facts §6.3): `throughput.level`, and `is_on_biz_app` for a number in
   * coexistence with the WhatsApp Business app (fixed at 20/s whatever its level says).
   */
  async throughputOf(phoneNumberId: string): Promise<ThroughputLevel> {
    const answer = await this.graph.request('GET', phoneNumberId, { query: { fields: 'throughput,is_on_biz_app' } });
    const number = shaped(PhoneNumberThroughput, answer);
    if (number.is_on_biz_app) return 'COEXISTENCE';
    return number.throughput?.level === 'HIGH' ? 'HIGH' : 'STANDARD';
  }

  /**
   * The WABA's `whatsapp_business_manager_messaging_limit` (`TIER_250`, `TIER_2K` … `TIER_UNLIMITED`) and the
   * number's `quality_rating`, both read at once and kept a minute: a client's sends in a row ask once, within
   * the management API's hourly budget per WABA. A value not read is left unknown.
   */
  async sendingLimits(wabaId: string, phoneNumberId?: string): Promise<SendingLimits> {
    const key = `${wabaId}|${phoneNumberId ?? ''}`;
    const kept = this.limits.get(key);
    if (kept) return kept;
    const [waba, number] = await Promise.all([
      this.graph.request('GET', wabaId, { query: { fields: 'whatsapp_business_manager_messaging_limit' } }).catch(() => undefined),
      phoneNumberId ? this.graph.request('GET', phoneNumberId, { query: { fields: 'quality_rating' } }).catch(() => undefined) : undefined,
    ]);
    const tier = v.safeParse(MessagingLimit, waba);
    const rating = v.safeParse(QualityRating, number);
    const limits: SendingLimits = {
      ...(tier.success && { messagingLimit: usersPerDay(tier.output.whatsapp_business_manager_messaging_limit) }),
      ...(rating.success && { quality: rating.output.quality_rating.toUpperCase() }),
    };
    this.limits.set(key, limits);
    return limits;
  }

  async catalogsOf(wabaId: string): Promise<Catalog[]> {
    const answer = await this.graph.request('GET', `${wabaId}/product_catalogs`, { query: { fields: 'id,name,vertical' } });
    return shaped(pageOf(CatalogItem), answer).data.map(({ id: catalogId, name, vertical }) => ({ id: catalogId, name, vertical }));
  }

  async productsOf(catalogId: string, page: { limit: number; cursor?: string }): Promise<ProductPage> {
    const answer = await this.graph.request('GET', `${catalogId}/products`, {
      query: { limit: page.limit, after: page.cursor, fields: PRODUCT_FIELDS },
    });
    const result = shaped(pageOf(ProductItem), answer);
    const cursors = result.paging?.cursors;
    return {
      products: result.data.map(toProduct),
      before: cursors?.before ?? '',
      after: cursors?.after ?? '',
      hasNext: Boolean(result.paging?.next),
    };
  }

  /** Resumable upload (upstream-facts §1.8): opens a session, sends the bytes, returns the header handle. */
  async uploadMedia(file: { name: string; type: string; bytes: Uint8Array }) {
    if (!this.appId)
      throw new UpstreamNotConfigured('The service is not configured to upload media: GRAPH_APP_ID (the Meta app id) is not set');
    const session = shaped(
      UploadSession,
      await this.graph.request('POST', `${this.appId}/uploads`, {
        query: { file_name: file.name, file_length: file.bytes.length, file_type: file.type },
        idempotent: false,
      }),
    );
    const result = shaped(
      UploadResult,
      await this.graph.request('POST', session.id, {
        raw: file.bytes,
        headers: { file_offset: '0', 'content-type': 'application/octet-stream' },
        scheme: 'OAuth',
        idempotent: true,
      }),
    );
    return result.h;
  }
}
