import { randomBytes } from 'node:crypto';
import type { DirectoryFile } from '#lib/adapters/directory-file.ts';
import { Faults } from './faults.ts';
import { GraphError, GraphModel, type SentMessage, storedTemplate } from './model.ts';
import type { MetaNotifier } from './notifier.ts';
import { MESSAGES_PER_SECOND } from '#lib/domain/sends/dispatch/throughput.ts';
import { ThroughputLimit } from './throughput-limit.ts';
import { LAUNCH_HEADER } from './launch-stamp.ts';
import { EmulatedPricing } from './pricing.ts';
import { CAPPED_ERROR, MarketingCaps } from './recipients.ts';
import { EmulatedPeople } from './people.ts';
import { answerControl } from './control-endpoints.ts';
import { exchangeCode, isBusinessToken, playPopup } from './signup.ts';
import { takeVersion } from './versions.ts';
import { type MessageStatus, statusValue } from './message-statuses.ts';
import { EmulatedTemplateAnalytics } from './template-analytics.ts';

export type { MessageStatus };

/**
 * `pricing_analytics.start(<unix>).end(<unix>)…` of a WABA's `fields` (upstream-facts §9.F), or undefined: with
 * the PHONE dimension and the `phone_numbers([…])` filter when given, and a page's `.limit(<n>)` and `.after(<cursor>)`.
 */
function pricingAnalyticsQuery(fields: string | undefined) {
  if (!fields?.startsWith('pricing_analytics')) return undefined;
  const start = /\.start\((\d+)\)/.exec(fields);
  const end = /\.end\((\d+)\)/.exec(fields);
  const limit = /\.limit\((\d+)\)/.exec(fields);
  const after = /\.after\(([^)]*)\)/.exec(fields);
  const list = (name: string): string[] => JSON.parse(new RegExp(`\\.${name}\\((\\[[^\\]]*\\])\\)`).exec(fields)?.[1] ?? '[]');
  return {
    start: Number(start?.[1] ?? 0),
    end: Number(end?.[1] ?? Math.floor(Date.now() / 1000)),
    byPhone: list('dimensions').includes('PHONE'),
    phones: list('phone_numbers'),
    ...(limit && { limit: Number(limit[1]) }),
    ...(after && { after: after[1] }),
  };
}

/** The URL of pricing_analytics' next page, as Graph gives it: the same read, from the cursor `after`. */
function nextAnalyticsPage(url: URL, after: string) {
  const next = new URL(url.href);
  const fields = (next.searchParams.get('fields') ?? '').replace(/\.after\([^)]*\)/, '');
  next.searchParams.set('fields', `${fields}.after(${after})`);
  return next.href;
}

/**
 * Our emulator of Meta's Graph API (the upstream): the model (./model.ts) behind Graph's authentication,
 * with injected faults and a log of calls, plus control endpoints under /_emulator for tests and people (a
 * template's review status, faults, the call log, the state). Carried over HTTP by ./server.ts, or in
 * process by `fetch` so use cases can be tested against it without sockets.
 */
export interface UpstreamCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
}

export interface EmulatorAnswer {
  status: number;
  body: unknown;
}

export const EMULATOR_TOKEN = 'local-graph-access-token';

const errorEnvelope = (error: GraphError): EmulatorAnswer => ({
  status: error.status,
  body: {
    error: {
      message: `(#${error.code}) ${error.message}`,
      type: 'OAuthException',
      code: error.code,
      ...(error.subcode && { error_subcode: error.subcode }),
      ...(error.userMessage && { error_user_msg: error.userMessage }),
      is_transient: error.status >= 500,
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  },
});

export class GraphEmulator {
  readonly model: GraphModel;
  readonly calls: UpstreamCall[] = [];
  readonly faults = new Faults();
  /**
   * Called after every request that may have changed the model, with the message it accepted if any; the
   * answer waits for it (the local stack keeps the change on disk).
   */
  onChange?: (accepted?: SentMessage) => Promise<void> | void;
  /** Sends Meta's webhooks to the service (upstream-facts §5), when the local stack gives one. */
  notifier?: MetaNotifier;
  /** Statuses reported on their own for every accepted message, a moment apart (none unless asked). */
  autoStatuses: MessageStatus[] = [];
  /** Statuses reported for one number's messages instead of `autoStatuses` (a test's own number). */
  readonly statusesOfNumber = new Map<string, MessageStatus[]>();

  /** Meta's per-number throughput limit: messages beyond a number's level in a rolling second get 130429. */
  readonly throughput: ThroughputLimit;

  constructor(
    fixture: DirectoryFile,
    private readonly token = EMULATOR_TOKEN,
    options: { burstShare?: number } = {},
  ) {
    this.throughput = new ThroughputLimit(options.burstShare);
    this.model = new GraphModel(fixture);
    this.pricing = new EmulatedPricing(this.model);
    this.templateAnalytics = new EmulatedTemplateAnalytics(this.model, this.pricing.creditLines);
  }

  /** Meta's pricing of messages and its books of what was delivered (./pricing.ts). */
  readonly pricing: EmulatedPricing;
  /** Meta's template analytics of what this emulator sent (./template-analytics.ts). */
  readonly templateAnalytics: EmulatedTemplateAnalytics;
  /** WhatsApp users: BSUIDs, usernames, withheld numbers (./people.ts). */
  readonly people = new EmulatedPeople();

  /**
   * A status of a message as Meta reports it: priced, and booked when it says delivered (control endpoints too), at
   * `atMs` (its `timestamp`: now unless a test names another time).
   */
  reportStatus(message: SentMessage, status: MessageStatus, error?: { code: number; title: string }, delayMs = 0, atMs = Date.now()) {
    const pricing = this.pricing.pricingOf(message);
    const booked = status === 'delivered' || status === 'read' ? this.pricing.book(message, pricing, atMs) : undefined;
    this.templateAnalytics.reported(message, status, booked);
    const display = this.model.phoneNumbers.get(message.phone_number_id)?.display_phone_number;
    const value = statusValue(message, status, this.people, error, pricing, display, atMs);
    this.notifier?.notify(this.wabaOfNumber(message.phone_number_id), 'messages', value, delayMs);
  }

  /** One request as Graph would answer it. */
  async answer(method: string, url: URL, headers: Record<string, string | undefined>, raw: Uint8Array): Promise<EmulatorAnswer> {
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams);
    try {
      if (path.startsWith('/_emulator/')) return this.control(method, path, raw, query);
      const isUpload = path.includes('/upload:') || /^\/upload:/.test(path);
      let body: Record<string, unknown> | undefined;
      const text = new TextDecoder().decode(raw);
      if (!isUpload && raw.length > 0) {
        body = (headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
      }
      this.calls.push({ method, path, query, body: isUpload ? `<${raw.length} bytes>` : body });
      const fault = this.faults.take(method, path, url.search, isUpload ? '' : text);
      if (fault?.delayMs && !fault.afterAccept) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault?.status) {
        const code = fault.code ?? (fault.status === 429 ? 80007 : fault.status >= 500 ? 2 : 100);
        return errorEnvelope(new GraphError(fault.status, code, 'Injected fault'));
      }
      // The code's exchange proves itself by the app's id and secret, not a token (docs/platform-2027.md §1.3).
      if (method === 'GET' && /^(\/v\d+\.\d+)?\/oauth\/access_token$/.test(path)) {
        const exchanged = { status: 200, body: exchangeCode(this.model.signup, query) };
        // A GET that changes the state: the code spent and the token given are kept before the answer leaves.
        await this.onChange?.();
        return exchanged;
      }
      const expected = isUpload ? `OAuth ${this.token}` : `Bearer ${this.token}`;
      if (!this.authorized(headers.authorization ?? '', expected, query.access_token)) {
        throw new GraphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
      }
      const segments = path.split('/').filter(Boolean);
      // The version the path names (./versions.ts): what differs by version, or Graph's refusal of an unknown one.
      const version = takeVersion(segments);
      const isMessage = method === 'POST' && segments.length === 2 && (segments[1] === 'messages' || segments[1] === 'marketing_messages');
      // A message counts when it left the service (its launch stamp, local/standins/graph/launch-stamp.ts), as it would
      // reach Meta over a network: this process's own stalls are not the sender's bursts.
      const launchedAt = Number(headers[LAUNCH_HEADER]) || Date.now();
      if (isMessage) this.admitByThroughput(segments[0], launchedAt);
      const analytics =
        this.answerPricingAnalytics(method, segments, query, url) ??
        (await this.answerTemplateAnalytics(method, segments, query, body, url));
      if (analytics) return analytics;
      const answer = { status: 200, body: this.model.answer(method, segments, query, body, raw, url.href, version) };
      // What changed is kept before the answer leaves: an accepted message is never forgotten after a crash.
      const accepted = isMessage ? this.model.sent.at(-1) : undefined;
      if (accepted) accepted.launched_at = launchedAt;
      // The number messaged the person: it may see their phone number for 30 days (upstream-facts §9.A2).
      if (accepted && typeof accepted.message.to === 'string')
        this.people.talked(accepted.phone_number_id, this.people.userOf({ phone: accepted.message.to.replace(/\D/g, '') }));
      if (method !== 'GET') await this.onChange?.(accepted);
      if (isMessage) this.reportAutomatically((answer.body as { messages?: { id: string }[] }).messages?.[0]?.id);
      if (fault?.afterAccept) await new Promise((r) => setTimeout(r, fault.delayMs ?? 60_000));
      return answer;
    } catch (error) {
      if (error instanceof GraphError) return errorEnvelope(error);
      if (error instanceof SyntaxError) return errorEnvelope(new GraphError(400, 100, 'Invalid JSON body'));
      return errorEnvelope(new GraphError(500, 1, 'An unknown error occurred'));
    }
  }

  /** `GET /{waba}?fields=pricing_analytics…` (upstream-facts §9.F); undefined for any other request. */
  private answerPricingAnalytics(method: string, segments: string[], query: Record<string, string>, url: URL): EmulatorAnswer | undefined {
    const analytics = method === 'GET' && segments.length === 1 ? pricingAnalyticsQuery(query.fields) : undefined;
    if (!analytics || !this.model.wabas.has(segments[0])) return undefined;
    return {
      status: 200,
      body: {
        ...this.pricing.analytics(segments[0], analytics.start, analytics.end, analytics, (after) => nextAnalyticsPage(url, after)),
        // The WABA's currency asked beside its figures: COST is in it (upstream-facts §9.F).
        ...(/,currency(,|$)/.test(query.fields ?? '') && { currency: this.model.wabas.get(segments[0])?.currency ?? 'USD' }),
      },
    };
  }

  /**
   * Meta's template analytics (docs/template-analytics.md §1): `POST /{waba}?is_enabled_for_insights=true` and
   * `GET /{waba}/template_analytics`; undefined for any other request.
   */
  private async answerTemplateAnalytics(
    method: string,
    segments: string[],
    query: Record<string, string>,
    body: Record<string, unknown> | undefined,
    url: URL,
  ): Promise<EmulatorAnswer | undefined> {
    const waba = this.model.wabas.get(segments[0] ?? '');
    if (!waba) return undefined;
    const enabling = query.is_enabled_for_insights ?? body?.is_enabled_for_insights;
    if (method === 'POST' && segments.length === 1 && String(enabling) === 'true') {
      const answer = { status: 200, body: this.templateAnalytics.enable(waba) };
      await this.onChange?.();
      return answer;
    }
    if (method !== 'GET' || segments.length !== 2 || segments[1] !== 'template_analytics') return undefined;
    const next = (after: string) => {
      const page = new URL(url.href);
      page.searchParams.set('after', after);
      return page.href;
    };
    return { status: 200, body: this.templateAnalytics.analytics(waba, query, next) };
  }

  /** The service's token (as the header or `access_token`), or a business token Embedded Signup's exchange gave (./signup.ts). */
  private authorized(header: string, expected: string, accessToken: string | undefined) {
    return header === expected || accessToken === this.token || isBusinessToken(this.model.signup, header.replace(/^Bearer /, ''));
  }

  /** Refuses a number's message beyond its level in a rolling second with Graph's 130429 (upstream-facts §6.3). */
  private admitByThroughput(numberId: string, at: number) {
    const number = this.model.phoneNumbers.get(numberId);
    if (!number) return;
    // The levels' rates are upstream-facts §6.3's, as the service knows them.
    const rate = MESSAGES_PER_SECOND[number.is_on_biz_app ? 'COEXISTENCE' : (number.throughput?.level ?? 'STANDARD')];
    if (!this.throughput.admit(numberId, rate, at))
      throw new GraphError(400, 130429, 'Rate limit hit', undefined, 'Cloud API message throughput has been reached.');
  }

  /** A `fetch` that answers from this emulator in process: for tests of the Graph adapter and the use cases. */
  readonly fetch = (async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const raw =
      typeof init.body === 'string' ? new TextEncoder().encode(init.body) : ((init.body as Uint8Array | undefined) ?? new Uint8Array());
    const answering = this.answer(init.method ?? 'GET', url, headers, raw);
    // Like a socket, the caller's deadline ends the wait, whatever the emulator is still doing.
    const signal = init.signal;
    const deadline = new Promise<never>((_, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const answer = await (signal ? Promise.race([answering, deadline]) : answering);
    return Response.json(answer.body, { status: answer.status });
  }) as typeof fetch;

  private wabaOfNumber(phoneNumberId: string) {
    return this.model.phoneNumbers.get(phoneNumberId)?.waba_id ?? '';
  }

  /** The hold of the template a message was sent with, when Meta holds that template's messages. */
  private heldTemplateOf(message: SentMessage) {
    return this.templateOfMessage(message)?.hold;
  }

  /** The template a message was sent with. */
  private templateOfMessage(message: SentMessage) {
    const template = message.message.template as { name?: string; language?: { code?: string } } | undefined;
    const number = this.model.phoneNumbers.get(message.phone_number_id);
    const waba = number ? this.model.wabas.get(number.waba_id) : undefined;
    return waba?.templates.find((t) => t.name === template?.name && t.language === template?.language?.code);
  }

  /** Meta's per-user marketing limits a test asked for (./people.ts). */
  readonly caps = new MarketingCaps();

  /** The statuses of `autoStatuses` for the message just accepted, a quarter of a second apart. */
  private reportAutomatically(messageId: string | undefined) {
    const message = this.model.messageOf(messageId);
    if (!this.notifier || !message) return;
    // A person at Meta's marketing limit (POST /_emulator/users/{id}/capped): this message fails 131049.
    if (this.caps.take(message, this.templateOfMessage(message)?.category)) return this.reportStatus(message, 'failed', CAPPED_ERROR, 250);
    const held = this.heldTemplateOf(message);
    if (held) {
      // A held message: its outcome after the assessment, delivered or dropped, and nothing before it.
      if (held.outcome === 'deliver') this.reportStatus(message, 'delivered', undefined, held.after_ms);
      else this.reportStatus(message, 'failed', { code: 132015, title: 'Message dropped after the quality assessment' }, held.after_ms);
      return;
    }
    const statuses = this.statusesOfNumber.get(message.phone_number_id) ?? this.autoStatuses;
    for (const [i, status] of statuses.entries()) this.reportStatus(message, status, undefined, 250 * (i + 1));
  }

  /** Control endpoints (./control-endpoints.ts): not part of the Graph API. */
  private control(method: string, path: string, raw: Uint8Array, query: Record<string, string>): EmulatorAnswer {
    const body = raw.length ? JSON.parse(new TextDecoder().decode(raw)) : {};
    if (method === 'POST' && path === '/_emulator/embedded-signup') {
      const templates = Array.isArray(body.templates) ? body.templates.map(storedTemplate) : [];
      const answer = { status: 200, body: playPopup(this.model, { ...body, templates }) };
      this.onChange?.();
      return answer;
    }
    return answerControl(this, method, path, body, query);
  }
}
