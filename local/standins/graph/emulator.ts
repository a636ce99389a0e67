import { randomBytes } from 'node:crypto';
import type { DirectoryFile } from '#lib/adapters/directory-file.ts';
import { Faults, type Fault } from './faults.ts';
import { type EmulatedTemplate, GraphError, GraphModel, type SentMessage, storedTemplate } from './model.ts';
import type { MetaNotifier } from './notifier.ts';
import { MESSAGES_PER_SECOND } from '#lib/domain/sends/dispatch/throughput.ts';
import { ThroughputLimit } from './throughput-limit.ts';
import { LAUNCH_HEADER } from './launch-stamp.ts';
import { EmulatedPricing } from './pricing.ts';
import { CAPPED_ERROR, MarketingCaps, peopleControl as recipientsControl } from './recipients.ts';
import type { MessagePricing } from '#lib/domain/shared/message-status.ts';
import { EmulatedPeople } from './people.ts';
import { peopleControl } from './people-control.ts';

/** Statuses the emulator can report of a message, as Cloud API's `messages` webhook names them. */
export type MessageStatus = 'sent' | 'delivered' | 'read' | 'failed';

/**
 * A status of one accepted message, as the `messages` field's value carries it, with the person's BSUID and the
 * field presence rules of upstream-facts §9.A4: contacts on sent, delivered and read only (the username not on
 * sent); `recipient_id` the number sent to, or omitted for a BSUID send whose number is not shared;
 * `recipient_user_id` always but on a failure of a send to a number.
 */
function statusValue(
  message: SentMessage,
  status: MessageStatus,
  people: EmulatedPeople,
  error?: { code: number; title: string },
  pricing?: MessagePricing,
) {
  const to = String(message.message.to ?? '').replace(/\D/g, '');
  const recipient = typeof message.message.recipient === 'string' ? message.message.recipient : undefined;
  const user = people.userOf(to ? { phone: to } : { user_id: recipient });
  const recipientId = to || (people.phoneShared(message.phone_number_id, user) ? user.phone : undefined);
  return {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: message.phone_number_id, phone_number_id: message.phone_number_id },
    ...(status !== 'failed' && { contacts: [people.contactOf(message.phone_number_id, user, status !== 'sent')] }),
    statuses: [
      {
        id: message.id,
        status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        ...(recipientId && { recipient_id: recipientId }),
        ...((status !== 'failed' || !to) && { recipient_user_id: user.user_id }),
        ...(typeof message.message.biz_opaque_callback_data === 'string' && {
          biz_opaque_callback_data: message.message.biz_opaque_callback_data,
        }),
        ...(error && { errors: [{ code: error.code, title: error.title, message: error.title }] }),
        // Meta prices every status but a failure (upstream-facts §8).
        ...(pricing && status !== 'failed' && { pricing: { ...pricing, pricing_model: 'PMP' } }),
      },
    ],
  };
}

/**
 * `pricing_analytics.start(<unix>).end(<unix>)…` of a WABA's `fields` (upstream-facts §9.F), or undefined: with
 * the PHONE dimension and the `phone_numbers([…])` filter when given.
 */
function pricingAnalyticsQuery(fields: string | undefined) {
  if (!fields?.startsWith('pricing_analytics')) return undefined;
  const start = /\.start\((\d+)\)/.exec(fields);
  const end = /\.end\((\d+)\)/.exec(fields);
  const list = (name: string): string[] => JSON.parse(new RegExp(`\\.${name}\\((\\[[^\\]]*\\])\\)`).exec(fields)?.[1] ?? '[]');
  return {
    start: Number(start?.[1] ?? 0),
    end: Number(end?.[1] ?? Math.floor(Date.now() / 1000)),
    byPhone: list('dimensions').includes('PHONE'),
    phones: list('phone_numbers'),
  };
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
  }

  /** Meta's pricing of messages and its books of what was delivered (./pricing.ts). */
  readonly pricing: EmulatedPricing;
  /** WhatsApp users: BSUIDs, usernames, withheld numbers (./people.ts). */
  readonly people = new EmulatedPeople();

  /** A status of a message as Meta reports it: priced, and booked when it says delivered. */
  private reportStatus(message: SentMessage, status: MessageStatus, error?: { code: number; title: string }, delayMs = 0) {
    const pricing = this.pricing.pricingOf(message);
    if (status === 'delivered' || status === 'read') this.pricing.book(message, pricing);
    const value = statusValue(message, status, this.people, error, pricing);
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
      const expected = isUpload ? `OAuth ${this.token}` : `Bearer ${this.token}`;
      if ((headers.authorization ?? '') !== expected && query.access_token !== this.token) {
        throw new GraphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
      }
      const segments = path.split('/').filter(Boolean);
      if (/^v\d+\.\d+$/.test(segments[0] ?? '')) segments.shift();
      const isMessage = method === 'POST' && segments.length === 2 && (segments[1] === 'messages' || segments[1] === 'marketing_messages');
      // A message counts when it left the service (its launch stamp, local/standins/graph/launch-stamp.ts), as it would
      // reach Meta over a network: this process's own stalls are not the sender's bursts.
      const launchedAt = Number(headers[LAUNCH_HEADER]) || Date.now();
      if (isMessage) this.admitByThroughput(segments[0], launchedAt);
      const analytics = method === 'GET' && segments.length === 1 ? pricingAnalyticsQuery(query.fields) : undefined;
      if (analytics && this.model.wabas.has(segments[0]))
        return { status: 200, body: this.pricing.analytics(segments[0], analytics.start, analytics.end, analytics) };
      const answer = { status: 200, body: this.model.answer(method, segments, query, body, raw, url.href) };
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

  /** A template's status as Meta changes it, with its `message_template_status_update` event. */
  private setStatus(found: { waba: { id: string }; template: EmulatedTemplate }, status: string, otherInfo?: { title: string }) {
    found.template.status = status;
    void this.onChange?.();
    this.notifier?.notify(found.waba.id, 'message_template_status_update', {
      event: status,
      message_template_id: Number(found.template.id),
      message_template_name: found.template.name,
      message_template_language: found.template.language,
      message_template_category: found.template.category,
      reason: 'NONE',
      ...(otherInfo && { other_info: otherInfo }),
    });
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
    const message = this.model.sent.findLast((m) => m.id === messageId);
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

  /** Control endpoints: not part of the Graph API. */
  private control(method: string, path: string, raw: Uint8Array, query: Record<string, string>): EmulatorAnswer {
    const body = raw.length ? JSON.parse(new TextDecoder().decode(raw)) : {};
    const ofPeople = peopleControl(
      {
        model: this.model,
        people: this.people,
        notifier: this.notifier,
        inboundAt: (numberId, phone) => this.pricing.inbound.set(`${numberId}|${phone}`, Date.now()),
      },
      method,
      path,
      body,
    );
    if (ofPeople) return ofPeople;
    const status = /^\/_emulator\/templates\/([^/]+)\/status$/.exec(path);
    if (status && method === 'POST') {
      const found = this.model.findTemplate(status[1]);
      if (!found) return { status: 404, body: { error: 'no such template' } };
      found.template.status = String(body.status).toUpperCase();
      const reason = body.reason ?? (found.template.status === 'REJECTED' ? 'INVALID_FORMAT' : 'NONE');
      found.template.rejected_reason = reason;
      this.onChange?.();
      // Meta tells the app of every review result (message_template_status_update, upstream-facts §5).
      this.notifier?.notify(found.waba.id, 'message_template_status_update', {
        event: found.template.status,
        message_template_id: Number(found.template.id),
        message_template_name: found.template.name,
        message_template_language: found.template.language,
        message_template_category: found.template.category,
        reason,
      });
      return { status: 200, body: found.template };
    }
    // A WABA (and its templates) as if made with Meta's own tools: large upstream states for tests and benchmarks.
    if (path === '/_emulator/wabas' && method === 'POST') {
      const waba = body as {
        id: string;
        name?: string;
        namespace?: string;
        templates?: EmulatedTemplate[];
        phone_numbers?: { id: string; display_phone_number?: string }[];
      };
      for (const phone of waba.phone_numbers ?? []) {
        this.model.phoneNumbers.set(phone.id, {
          id: phone.id,
          waba_id: waba.id,
          display_phone_number: phone.display_phone_number ?? phone.id,
        });
      }
      this.model.wabas.set(waba.id, {
        id: waba.id,
        name: waba.name ?? waba.id,
        namespace: waba.namespace ?? `ns_${waba.id}`,
        templates: (waba.templates ?? []).map(storedTemplate),
        catalogs: [],
      });
      this.onChange?.();
      return { status: 200, body: { id: waba.id, templates: waba.templates?.length ?? 0 } };
    }
    // A number's throughput level (decisions §19), e.g. {level: "HIGH"}: Meta tells the app of the change with
    // `phone_number_quality_update`, and the number answers its new level to `GET /{phone_number_id}`.
    const throughput = /^\/_emulator\/numbers\/([^/]+)\/throughput$/.exec(path);
    if (throughput && method === 'POST') {
      const number = this.model.phoneNumbers.get(throughput[1]);
      if (!number) return { status: 404, body: { error: 'no such phone number' } };
      const level = String(body.level).toUpperCase();
      if (level !== 'STANDARD' && level !== 'HIGH') return { status: 400, body: { error: 'level must be STANDARD or HIGH' } };
      const before = number.throughput?.level ?? 'STANDARD';
      number.throughput = { level };
      if (level !== before)
        this.notifier?.notify(number.waba_id, 'phone_number_quality_update', {
          display_phone_number: number.display_phone_number,
          event: level === 'HIGH' ? 'UPGRADE' : 'DOWNGRADE',
        });
      return { status: 200, body: { id: number.id, throughput: number.throughput } };
    }
    // What a send is warned of (decisions §22): a number's quality rating, e.g. {quality_rating: "RED"}, and a
    // WABA's business portfolio messaging limit, e.g. {limit: "TIER_250"}.
    const quality = /^\/_emulator\/numbers\/([^/]+)\/quality$/.exec(path);
    if (quality && method === 'POST') {
      const number = this.model.phoneNumbers.get(quality[1]);
      if (!number) return { status: 404, body: { error: 'no such phone number' } };
      number.quality_rating = String(body.quality_rating).toUpperCase();
      this.onChange?.();
      return { status: 200, body: { id: number.id, quality_rating: number.quality_rating } };
    }
    const limit = /^\/_emulator\/wabas\/([^/]+)\/messaging-limit$/.exec(path);
    if (limit && method === 'POST') {
      const waba = this.model.wabas.get(limit[1]);
      if (!waba) return { status: 404, body: { error: 'no such WABA' } };
      waba.messaging_limit = String(body.limit);
      this.onChange?.();
      return { status: 200, body: { id: waba.id, whatsapp_business_manager_messaging_limit: waba.messaging_limit } };
    }
    // A WABA's billing currency, e.g. {currency: "EUR"}: what Graph answers and what Meta's books price in.
    const currency = /^\/_emulator\/wabas\/([^/]+)\/currency$/.exec(path);
    if (currency && method === 'POST') {
      const waba = this.model.wabas.get(currency[1]);
      if (!waba) return { status: 404, body: { error: 'no such WABA' } };
      if (!/^[A-Z]{3}$/.test(String(body.currency))) return { status: 400, body: { error: 'currency must be an ISO 4217 code' } };
      waba.currency = String(body.currency);
      this.onChange?.();
      return { status: 200, body: { id: waba.id, currency: waba.currency } };
    }
    const numberStatuses = /^\/_emulator\/numbers\/([^/]+)\/statuses$/.exec(path);
    if (numberStatuses && method === 'POST') {
      const statuses = (body.statuses ?? []) as MessageStatus[];
      if (!Array.isArray(statuses) || statuses.some((s) => !['sent', 'delivered', 'read', 'failed'].includes(s)))
        return { status: 400, body: { error: 'statuses must be a list of sent, delivered, read, failed' } };
      this.statusesOfNumber.set(numberStatuses[1], statuses);
      return { status: 200, body: { id: numberStatuses[1], statuses } };
    }
    // A number's enforced limit, lower than its level's (e.g. {per_second: 40, burst: 0}); DELETE restores it.
    const numberLimit = /^\/_emulator\/numbers\/([^/]+)\/limit$/.exec(path);
    if (numberLimit && method === 'POST') {
      const perSecond = Number(body.per_second);
      const burst = Number(body.burst ?? 0);
      if (!(perSecond > 0) || !(burst >= 0)) return { status: 400, body: { error: 'per_second must be > 0 and burst ≥ 0' } };
      this.throughput.overrides.set(numberLimit[1], { perSecond, burst });
      return { status: 200, body: { id: numberLimit[1], per_second: perSecond, burst } };
    }
    if (numberLimit && method === 'DELETE') {
      this.throughput.overrides.delete(numberLimit[1]);
      return { status: 200, body: { id: numberLimit[1] } };
    }
    // How many of a number's messages the throughput limit refused (130429) since the start.
    if (path === '/_emulator/throughput' && method === 'GET') {
      const refused = Object.fromEntries(this.throughput.refused);
      return {
        status: 200,
        body: { refused: query.phone_number_id ? { [query.phone_number_id]: refused[query.phone_number_id] ?? 0 } : refused },
      };
    }
    if (path === '/_emulator/faults' && method === 'POST') return { status: 200, body: { faults: this.faults.add(body as Fault) } };
    if (path === '/_emulator/faults' && method === 'DELETE')
      return { status: 200, body: { faults: this.faults.clear(query.path, query.method) } };
    // A message's status, reported as Meta would (the `messages` field), e.g. {status: "read"}.
    const messageStatus = /^\/_emulator\/messages\/([^/]+)\/status$/.exec(path);
    if (messageStatus && method === 'POST') {
      const message = this.model.sent.find((m) => m.id === decodeURIComponent(messageStatus[1]));
      if (!message) return { status: 404, body: { error: 'no such message' } };
      if (!['sent', 'delivered', 'read', 'failed'].includes(body.status))
        return { status: 400, body: { error: 'status must be sent, delivered, read or failed' } };
      if (!this.notifier) return { status: 409, body: { error: 'no webhook target configured' } };
      this.reportStatus(message, body.status, body.error);
      return { status: 200, body: { id: message.id, status: body.status } };
    }
    // Any notification, as given ({waba_id, field, value, time?}): category and quality changes, unknown fields;
    // `time` (epoch seconds) makes it one Meta sends late, carrying its change's time.
    if (path === '/_emulator/notify' && method === 'POST') {
      if (!this.notifier) return { status: 409, body: { error: 'no webhook target configured' } };
      if (body.time !== undefined && !Number.isSafeInteger(body.time))
        return { status: 400, body: { error: 'time must be epoch seconds' } };
      this.notifier.notify(String(body.waba_id), String(body.field), body.value ?? {}, 0, body.time);
      return { status: 200, body: { queued: true } };
    }
    // Meta pauses a template whose quality fell ({seconds}: the pause, 3 hours unless told), sends 132015 for it
    // meanwhile, and unpauses it by itself at the end (upstream-facts §8): each change with its status event.
    const pause = /^\/_emulator\/templates\/([^/]+)\/pause$/.exec(path);
    if (pause && method === 'POST') {
      const found = this.model.findTemplate(pause[1]);
      if (!found) return { status: 404, body: { error: 'no such template' } };
      const seconds = Number(body.seconds ?? 3 * 3600);
      if (!(seconds > 0)) return { status: 400, body: { error: 'seconds must be > 0' } };
      this.setStatus(found, 'PAUSED', { title: 'FIRST_PAUSE' });
      const timer = setTimeout(() => {
        if (found.template.status === 'PAUSED') this.setStatus(found, 'APPROVED', { title: 'UNPAUSE' });
      }, seconds * 1000);
      timer.unref();
      return { status: 200, body: { id: pause[1], status: 'PAUSED', seconds } };
    }
    // Meta holds a template's messages for quality assessment ({outcome: "deliver"|"drop", after_ms}); DELETE ends it.
    const hold = /^\/_emulator\/templates\/([^/]+)\/hold$/.exec(path);
    if (hold && (method === 'POST' || method === 'DELETE')) {
      const found = this.model.findTemplate(hold[1]);
      if (!found) return { status: 404, body: { error: 'no such template' } };
      if (method === 'DELETE') delete found.template.hold;
      else {
        if (!['deliver', 'drop'].includes(body.outcome) || !(Number(body.after_ms ?? 1000) >= 0))
          return { status: 400, body: { error: 'outcome must be deliver or drop, after_ms ≥ 0' } };
        found.template.hold = { outcome: body.outcome, after_ms: Number(body.after_ms ?? 1000) };
      }
      return { status: 200, body: { id: hold[1], hold: found.template.hold ?? null } };
    }
    // A recipient wrote to a number ({from} or {user_id}, text?): in ./people-control.ts; a utility template to
    // them is free for 24 hours (upstream-facts §8).
    // Meta's books: each delivered message's day, country, category and cost (micro-dollars), of one WABA.
    if (path === '/_emulator/pricing' && method === 'GET')
      return { status: 200, body: { delivered: this.pricing.delivered.filter((d) => !query.waba_id || d.waba_id === query.waba_id) } };
    // Meta's pricing_analytics of a WABA's day multiplied by `factor` (the reconciliation's gap), e.g. {day, factor}.
    const skew = /^\/_emulator\/wabas\/([^/]+)\/pricing-skew$/.exec(path);
    if (skew && method === 'POST') {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.day)) || !(Number(body.factor) >= 0))
        return { status: 400, body: { error: 'day (YYYY-MM-DD) and factor (≥ 0) are required' } };
      this.pricing.skews.set(`${skew[1]}|${body.day}`, Number(body.factor));
      return { status: 200, body: { id: skew[1], day: body.day, factor: Number(body.factor) } };
    }
    // A WABA billed on a partner's credit line ({on: true}): its pricing_analytics carry no `cost` (upstream-facts §9.F).
    const people = recipientsControl(this, method, path, body);
    if (people) return people;
    const creditLine = /^\/_emulator\/wabas\/([^/]+)\/credit-line$/.exec(path);
    if (creditLine && method === 'POST') {
      if (body.on === false) this.pricing.creditLines.delete(creditLine[1]);
      else this.pricing.creditLines.add(creditLine[1]);
      return { status: 200, body: { id: creditLine[1], on: body.on !== false } };
    }
    // Meta's volume tier webhook (account_update, VOLUME_BASED_PRICING_TIER_UPDATE), as given or a default.
    if (path === '/_emulator/account-update' && method === 'POST') {
      if (!this.notifier) return { status: 409, body: { error: 'no webhook target configured' } };
      this.notifier.notify(String(body.waba_id), 'account_update', {
        event: 'VOLUME_BASED_PRICING_TIER_UPDATE',
        volume_tier_info: body.volume_tier_info ?? {
          pricing_category: 'UTILITY',
          tier: '1:0-2500000',
          effective_month: new Date().toISOString().slice(0, 7),
          region: 'Other',
        },
      });
      return { status: 200, body: { queued: true } };
    }
    if (path === '/_emulator/notifications' && method === 'GET') return { status: 200, body: { notifications: this.notifier?.log ?? [] } };
    if (path === '/_emulator/calls' && method === 'GET') return { status: 200, body: { calls: this.calls } };
    if (path === '/_emulator/calls' && method === 'DELETE') {
      this.calls.length = 0;
      return { status: 200, body: { calls: [] } };
    }
    if (path === '/_emulator/state' && method === 'GET') {
      return { status: 200, body: { wabas: [...this.model.wabas.values()], sent: this.model.sent } };
    }
    // The accepted messages alone, narrowed to one recipient or template: what tests of the dispatcher read.
    if (path === '/_emulator/sent' && method === 'GET') {
      const sent = this.model.sent.filter(
        (m) =>
          (!query.to || m.message?.to === query.to) &&
          (!query.template || (m.message?.template as { name?: string } | undefined)?.name === query.template) &&
          (!query.phone_number_id || m.phone_number_id === query.phone_number_id),
      );
      return { status: 200, body: { sent } };
    }
    return { status: 404, body: { error: 'unknown control endpoint' } };
  }
}
