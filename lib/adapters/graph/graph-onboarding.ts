import * as v from 'valibot';
import { UpstreamRejected, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import type { OnboardedNumber } from '#lib/domain/shared/onboarding-record.ts';
import type { OnboardingUpstream } from '#lib/domain/shared/ports.ts';
import { GraphClient, type GraphClientOptions } from './graph-client.ts';

const Success = v.looseObject({ success: v.optional(v.boolean()) });
const Token = v.looseObject({ access_token: v.pipe(v.string(), v.minLength(1)) });
const CreditLines = v.looseObject({ data: v.array(v.looseObject({ id: v.string() })) });
const Allocation = v.looseObject({ allocation_config_id: v.string() });
const Business = v.optional(v.looseObject({ id: v.string(), name: v.optional(v.string()) }));
const Waba = v.looseObject({
  name: v.optional(v.string()),
  message_template_namespace: v.optional(v.string()),
  currency: v.optional(v.string()),
  timezone_id: v.optional(v.string()),
  owner_business_info: Business,
  on_behalf_of_business_info: Business,
});
const Numbers = v.looseObject({
  paging: v.optional(
    v.looseObject({ next: v.optional(v.string()), cursors: v.optional(v.looseObject({ after: v.optional(v.string()) })) }),
  ),
  data: v.array(
    v.looseObject({
      id: v.string(),
      display_phone_number: v.string(),
      verified_name: v.optional(v.string()),
      is_on_biz_app: v.optional(v.boolean()),
      platform_type: v.optional(v.string()),
    }),
  ),
});

function shaped<S extends v.GenericSchema>(schema: S, answer: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, answer);
  if (!result.success) throw new UpstreamUnavailable('The upstream answered in an unexpected shape');
  return result.output;
}

/**
 * Embedded Signup's server calls (docs/platform-2027.md §1.3–1.4). The exchange proves itself by the app's id and
 * secret (no bearer); the calls on the client's WABA and number carry its business token, handed in per call and
 * never kept; the credit line is found and shared with the provider's own token (`graph`).
 */
export class GraphOnboarding implements OnboardingUpstream {
  constructor(
    private readonly graph: GraphClient,
    private readonly options: GraphClientOptions & { appId: string; appSecret: () => Promise<string> },
  ) {}

  /** A client on the business token: the same base, version and timeouts. */
  private asBusiness(token: string) {
    return new GraphClient({ ...this.options, token: async () => token });
  }

  async exchangeCode(code: string) {
    const version = this.options.version ?? 'v24.0';
    const url = new URL(`${this.options.baseUrl.replace(/\/$/, '')}/${version}/oauth/access_token`);
    url.search = new URLSearchParams({ client_id: this.options.appId, client_secret: await this.options.appSecret(), code }).toString();
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000) });
    } catch {
      throw new UpstreamUnavailable();
    }
    const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    if (response.status >= 500 || body === undefined) throw new UpstreamUnavailable();
    if (!response.ok) throw new UpstreamRejected(body.error?.message ?? `Upstream answered ${response.status}`);
    return shaped(Token, body).access_token;
  }

  async registerNumber(phoneNumberId: string, pin: string, businessToken: string) {
    shaped(
      Success,
      await this.asBusiness(businessToken).request('POST', `${phoneNumberId}/register`, { json: { messaging_product: 'whatsapp', pin } }),
    );
  }

  async subscribeApp(wabaId: string, businessToken: string) {
    shaped(Success, await this.asBusiness(businessToken).request('POST', `${wabaId}/subscribed_apps`, { idempotent: true }));
  }

  async providerCreditLine(businessId: string) {
    const answer = shaped(
      CreditLines,
      await this.graph.request('GET', `${businessId}/extendedcredits`, { query: { fields: 'id,legal_entity_name' } }),
    );
    return answer.data[0]?.id ?? null;
  }

  async shareCreditLine(creditLineId: string, wabaId: string, currency: string) {
    const query = { waba_id: wabaId, waba_currency: currency };
    const answer = await this.graph.request('POST', `${creditLineId}/whatsapp_credit_sharing_and_attach`, { query, idempotent: true });
    return shaped(Allocation, answer).allocation_config_id;
  }

  async readWaba(wabaId: string, businessToken: string) {
    const fields = 'name,message_template_namespace,currency,timezone_id,owner_business_info,on_behalf_of_business_info';
    const waba = shaped(Waba, await this.asBusiness(businessToken).request('GET', wabaId, { query: { fields } }));
    const owner = waba.on_behalf_of_business_info ?? waba.owner_business_info;
    return {
      name: waba.name ?? wabaId,
      namespace: waba.message_template_namespace ?? '',
      currency: waba.currency ?? 'USD',
      ...(waba.timezone_id !== undefined && { timezone_id: waba.timezone_id }),
      business_id: owner?.id ?? '',
      business_name: owner?.name ?? owner?.id ?? '',
    };
  }

  /** Every number of the WABA, page by page (facts §1.4): Graph's cursor paging, as the templates' listing. */
  async numbersOf(wabaId: string, businessToken: string) {
    const graph = this.asBusiness(businessToken);
    const fields = 'id,display_phone_number,verified_name,is_on_biz_app,platform_type';
    const numbers: OnboardedNumber[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_NUMBER_PAGES; page++) {
      const answer = shaped(
        Numbers,
        await graph.request('GET', `${wabaId}/phone_numbers`, { query: { fields, limit: NUMBERS_PAGE_SIZE, after } }),
      );
      numbers.push(...answer.data.map(numberOf));
      after = answer.paging?.cursors?.after;
      if (!answer.paging?.next || !after) return numbers;
    }
    throw new UpstreamUnavailable(`The WABA lists more than ${MAX_NUMBER_PAGES * NUMBERS_PAGE_SIZE} numbers`);
  }
}

/** A page of a WABA's numbers; a WABA holds few, so 40 pages of 100 bound the read without cutting any real one. */
const NUMBERS_PAGE_SIZE = 100;
const MAX_NUMBER_PAGES = 40;

const numberOf = (n: v.InferOutput<typeof Numbers>['data'][number]): OnboardedNumber => ({
  phone_number_id: n.id,
  display_phone_number: n.display_phone_number,
  ...(n.verified_name !== undefined && { verified_name: n.verified_name }),
  is_on_biz_app: n.is_on_biz_app ?? false,
  ...(n.platform_type !== undefined && { platform_type: n.platform_type }),
});
