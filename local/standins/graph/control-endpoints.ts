import { replyControl } from './reply-control.ts';
import { categoryControl } from './category-control.ts';
import type { Fault, Faults } from './faults.ts';
import type { MessageStatus } from './message-statuses.ts';
import { type EmulatedTemplate, type GraphModel, type SentMessage, storedTemplate } from './model.ts';
import type { MetaNotifier } from './notifier.ts';
import type { EmulatedPeople } from './people.ts';
import { peopleControl } from './people-control.ts';
import type { EmulatedPricing } from './pricing.ts';
import { type MarketingCaps, peopleControl as recipientsControl } from './recipients.ts';
import type { ThroughputLimit } from './throughput-limit.ts';
import type { EmulatedTemplateAnalytics } from './template-analytics.ts';
import { monthOf } from '#lib/domain/shared/calendar.ts';
import { META_TIMEZONES } from '#lib/domain/shared/meta-timezones.ts';

type Answer = { status: number; body: unknown };
/** A control request's body: any JSON a test sends; each endpoint checks what it reads. */
// biome-ignore lint/suspicious/noExplicitAny: the body is whatever JSON a test or a person sent.
type Body = Record<string, any>;

/** What the control endpoints read and change: the emulator itself (./emulator.ts), live, not a copy. */
export interface EmulatorWorld {
  readonly model: GraphModel;
  readonly people: EmulatedPeople;
  readonly pricing: EmulatedPricing;
  readonly templateAnalytics: EmulatedTemplateAnalytics;
  readonly throughput: ThroughputLimit;
  readonly faults: Faults;
  readonly caps: MarketingCaps;
  readonly calls: { path: string }[];
  readonly statusesOfNumber: Map<string, MessageStatus[]>;
  notifier?: MetaNotifier;
  onChange?: (accepted?: SentMessage) => Promise<void> | void;
  reportStatus(message: SentMessage, status: MessageStatus, error?: { code: number; title: string }, delayMs?: number, atMs?: number): void;
}

/** One control request: the path's `:id` (as written), its JSON body and its query. */
interface ControlRequest {
  id: string;
  body: Body;
  query: Record<string, string>;
}

type Endpoint = (world: EmulatorWorld, request: ControlRequest) => Answer;

const ok = (body: unknown): Answer => ({ status: 200, body });
const refused = (status: number, error: string): Answer => ({ status, body: { error } });
const noWebhookTarget = () => refused(409, 'no webhook target configured');
const STATUSES = ['sent', 'delivered', 'read', 'failed'];

/** A review result of a template ({status, reason?}), told to the app as Meta does (upstream-facts §5). */
const reviewTemplate: Endpoint = (world, { id, body }) => {
  const found = world.model.findTemplate(id);
  if (!found) return refused(404, 'no such template');
  found.template.status = String(body.status).toUpperCase();
  const reason = body.reason ?? (found.template.status === 'REJECTED' ? 'INVALID_FORMAT' : 'NONE');
  found.template.rejected_reason = reason;
  world.onChange?.();
  world.notifier?.notify(found.waba.id, 'message_template_status_update', {
    event: found.template.status,
    message_template_id: Number(found.template.id),
    message_template_name: found.template.name,
    message_template_language: found.template.language,
    message_template_category: found.template.category,
    reason,
  });
  return ok(found.template);
};

/** A WABA (and its templates) as if made with Meta's own tools: large upstream states for tests and benchmarks. */
const addWaba: Endpoint = (world, { body }) => {
  const waba = body as {
    id: string;
    name?: string;
    namespace?: string;
    templates?: EmulatedTemplate[];
    phone_numbers?: { id: string; display_phone_number?: string }[];
  };
  for (const phone of waba.phone_numbers ?? []) {
    world.model.phoneNumbers.set(phone.id, {
      id: phone.id,
      waba_id: waba.id,
      display_phone_number: phone.display_phone_number ?? phone.id,
    });
  }
  world.model.wabas.set(waba.id, {
    id: waba.id,
    name: waba.name ?? waba.id,
    namespace: waba.namespace ?? `ns_${waba.id}`,
    templates: (waba.templates ?? []).map(storedTemplate),
    catalogs: [],
  });
  world.onChange?.();
  return ok({ id: waba.id, templates: waba.templates?.length ?? 0 });
};

/**
 * A number's throughput level (decisions §19), e.g. {level: "HIGH"}: Meta tells the app of the change with
 * `phone_number_quality_update`, and the number answers its new level to `GET /{phone_number_id}`.
 */
const setThroughputLevel: Endpoint = (world, { id, body }) => {
  const number = world.model.phoneNumbers.get(id);
  if (!number) return refused(404, 'no such phone number');
  const level = String(body.level).toUpperCase();
  if (level !== 'STANDARD' && level !== 'HIGH') return refused(400, 'level must be STANDARD or HIGH');
  const before = number.throughput?.level ?? 'STANDARD';
  number.throughput = { level };
  if (level !== before)
    world.notifier?.notify(number.waba_id, 'phone_number_quality_update', {
      display_phone_number: number.display_phone_number,
      event: level === 'HIGH' ? 'UPGRADE' : 'DOWNGRADE',
    });
  return ok({ id: number.id, throughput: number.throughput });
};

/** What a send is warned of (decisions §22): a number's quality rating, e.g. {quality_rating: "RED"}. */
const setQualityRating: Endpoint = (world, { id, body }) => {
  const number = world.model.phoneNumbers.get(id);
  if (!number) return refused(404, 'no such phone number');
  number.quality_rating = String(body.quality_rating).toUpperCase();
  world.onChange?.();
  return ok({ id: number.id, quality_rating: number.quality_rating });
};

/** What a send is warned of too: a WABA's business portfolio messaging limit, e.g. {limit: "TIER_250"}. */
const setMessagingLimit: Endpoint = (world, { id, body }) => {
  const waba = world.model.wabas.get(id);
  if (!waba) return refused(404, 'no such WABA');
  waba.messaging_limit = String(body.limit);
  world.onChange?.();
  return ok({ id: waba.id, whatsapp_business_manager_messaging_limit: waba.messaging_limit });
};

/** A WABA's billing currency, e.g. {currency: "EUR"}: what Graph answers and what Meta's books price in. */
const setCurrency: Endpoint = (world, { id, body }) => {
  const waba = world.model.wabas.get(id);
  if (!waba) return refused(404, 'no such WABA');
  if (!/^[A-Z]{3}$/.test(String(body.currency))) return refused(400, 'currency must be an ISO 4217 code');
  waba.currency = String(body.currency);
  world.onChange?.();
  return ok({ id: waba.id, currency: waba.currency });
};

/** A WABA's timezone as Meta numbers it, e.g. {timezone_id: "71"} (Asia/Kolkata): the clock its days are billed in. */
const setTimezone: Endpoint = (world, { id, body }) => {
  const waba = world.model.wabas.get(id);
  if (!waba) return refused(404, 'no such WABA');
  const timezoneId = String(body.timezone_id);
  if (!META_TIMEZONES.has(timezoneId)) return refused(400, 'timezone_id must be one of Meta’s timezone ids');
  waba.timezone_id = timezoneId;
  world.onChange?.();
  return ok({ id: waba.id, timezone_id: waba.timezone_id });
};

/** The statuses reported for one number's messages instead of the emulator's `autoStatuses`. */
const setNumberStatuses: Endpoint = (world, { id, body }) => {
  const statuses = (body.statuses ?? []) as MessageStatus[];
  if (!Array.isArray(statuses) || statuses.some((s) => !STATUSES.includes(s)))
    return refused(400, 'statuses must be a list of sent, delivered, read, failed');
  world.statusesOfNumber.set(id, statuses);
  return ok({ id, statuses });
};

/** A number's enforced limit, lower than its level's (e.g. {per_second: 40, burst: 0}); DELETE restores it. */
const setNumberLimit: Endpoint = (world, { id, body }) => {
  const perSecond = Number(body.per_second);
  const burst = Number(body.burst ?? 0);
  if (!(perSecond > 0) || !(burst >= 0)) return refused(400, 'per_second must be > 0 and burst ≥ 0');
  world.throughput.overrides.set(id, { perSecond, burst });
  return ok({ id, per_second: perSecond, burst });
};

const restoreNumberLimit: Endpoint = (world, { id }) => {
  world.throughput.overrides.delete(id);
  return ok({ id });
};

/** How many of a number's messages the throughput limit refused (130429) since the start. */
const refusedByThroughput: Endpoint = (world, { query }) => {
  const refusedOf = Object.fromEntries(world.throughput.refused);
  const numberId = query.phone_number_id;
  return ok({ refused: numberId ? { [numberId]: refusedOf[numberId] ?? 0 } : refusedOf });
};

/** A message's status, reported as Meta would (the `messages` field), e.g. {status: "read", timestamp?: 1790000000}. */
const reportMessageStatus: Endpoint = (world, { id, body }) => {
  const message = world.model.messageOf(decodeURIComponent(id));
  if (!message) return refused(404, 'no such message');
  if (!STATUSES.includes(body.status)) return refused(400, 'status must be sent, delivered, read or failed');
  // `timestamp` (epoch seconds, optional) is when Meta says it happened: the day a charge is priced on.
  if (body.timestamp !== undefined && !Number.isSafeInteger(body.timestamp)) return refused(400, 'timestamp must be epoch seconds');
  if (!world.notifier) return noWebhookTarget();
  world.reportStatus(message, body.status, body.error, 0, body.timestamp === undefined ? undefined : body.timestamp * 1000);
  return ok({ id: message.id, status: body.status });
};

/**
 * A person taps the URL button of a message's template (`{"button"?: "<label>"}`, the first URL button when absent):
 * a click in Meta's template analytics of the day the message was sent (docs/template-analytics.md §1.3).
 */
const clickUrlButton: Endpoint = (world, { id, body }) => {
  const message = world.model.messageOf(decodeURIComponent(id));
  if (!message) return refused(404, 'no such message');
  if (body.button !== undefined && typeof body.button !== 'string') return refused(400, 'button must be a URL button’s label');
  const click = world.templateAnalytics.click(message, body.button);
  if ('refused' in click) return refused(409, click.refused);
  return ok({ id: message.id, ...click });
};

/** The page size of a WABA's template_analytics ({size}; {size: null} back to the default): its reads come in pages. */
const setTemplateAnalyticsPageSize: Endpoint = (world, { id, body }) => {
  if (body.size === null) world.templateAnalytics.pageSizes.delete(id);
  else if (Number.isInteger(body.size) && Number(body.size) >= 1) world.templateAnalytics.pageSizes.set(id, Number(body.size));
  else return refused(400, 'size (an integer ≥ 1, or null) is required');
  return ok({ id, size: body.size });
};

/**
 * Any notification, as given ({waba_id, field, value, time?}): category and quality changes, unknown fields;
 * `time` (epoch seconds) makes it one Meta sends late, carrying its change's time.
 */
const notify: Endpoint = (world, { body }) => {
  if (!world.notifier) return noWebhookTarget();
  if (body.time !== undefined && !Number.isSafeInteger(body.time)) return refused(400, 'time must be epoch seconds');
  world.notifier.notify(String(body.waba_id), String(body.field), body.value ?? {}, 0, body.time);
  return ok({ queued: true });
};

/** A template's status as Meta changes it by itself, with its `message_template_status_update` event. */
function changeStatusAsMeta(
  world: EmulatorWorld,
  found: { waba: { id: string }; template: EmulatedTemplate },
  status: string,
  otherInfo: { title: string },
) {
  found.template.status = status;
  void world.onChange?.();
  world.notifier?.notify(found.waba.id, 'message_template_status_update', {
    event: status,
    message_template_id: Number(found.template.id),
    message_template_name: found.template.name,
    message_template_language: found.template.language,
    message_template_category: found.template.category,
    reason: 'NONE',
    other_info: otherInfo,
  });
}

/** Meta's pause titles of a template's quality pauses, in turn (upstream-facts §2): a third disables it. */
const RED_PAUSE_TITLES = ['FIRST_PAUSE', 'SECOND_PAUSE'];
const RED_PAUSE_SECONDS = [3 * 3600, 6 * 3600];

/**
 * Meta pauses a template whose quality fell ({seconds}: the pause, Meta's 3 hours the first time and 6 the
 * second unless told), sends 132015 for it meanwhile, and unpauses it by itself at the end (upstream-facts §8,
 * docs/platform-2027.md §4): each change with its status event (`FIRST_PAUSE`, `SECOND_PAUSE`, `UNPAUSE`). The
 * third quality pause disables it instead (`DISABLED`, 132016 from then on). `{"kind":"pacing"}` is a pacing
 * pause (`RATE_LIMITING_PAUSE`), not counted.
 */
const pauseTemplate: Endpoint = (world, { id, body }) => {
  const found = world.model.findTemplate(id);
  if (!found) return refused(404, 'no such template');
  const pacing = body.kind === 'pacing';
  if (body.kind !== undefined && !pacing && body.kind !== 'quality') return refused(400, 'kind must be quality or pacing');
  const before = found.template.red_pauses ?? 0;
  if (!pacing && before >= RED_PAUSE_TITLES.length) {
    found.template.red_pauses = before + 1;
    changeStatusAsMeta(world, found, 'DISABLED', { title: 'DISABLED' });
    return ok({ id, status: 'DISABLED', pauses: before });
  }
  const seconds = Number(body.seconds ?? (pacing ? RED_PAUSE_SECONDS[0] : RED_PAUSE_SECONDS[before]));
  if (!(seconds > 0)) return refused(400, 'seconds must be > 0');
  if (!pacing) found.template.red_pauses = before + 1;
  changeStatusAsMeta(world, found, 'PAUSED', { title: pacing ? 'RATE_LIMITING_PAUSE' : RED_PAUSE_TITLES[before] });
  const timer = setTimeout(() => {
    if (found.template.status === 'PAUSED') changeStatusAsMeta(world, found, 'APPROVED', { title: 'UNPAUSE' });
  }, seconds * 1000);
  timer.unref();
  return ok({ id, status: 'PAUSED', seconds });
};

/** Meta holds a template's messages for quality assessment ({outcome: "deliver"|"drop", after_ms}). */
const holdTemplate: Endpoint = (world, { id, body }) => {
  const found = world.model.findTemplate(id);
  if (!found) return refused(404, 'no such template');
  const afterMs = Number(body.after_ms ?? 1000);
  if (!['deliver', 'drop'].includes(body.outcome) || !(afterMs >= 0)) return refused(400, 'outcome must be deliver or drop, after_ms ≥ 0');
  found.template.hold = { outcome: body.outcome, after_ms: afterMs };
  return ok({ id, hold: found.template.hold });
};

/** The hold ends: the template's messages are answered `accepted` again. */
const endHold: Endpoint = (world, { id }) => {
  const found = world.model.findTemplate(id);
  if (!found) return refused(404, 'no such template');
  delete found.template.hold;
  return ok({ id, hold: null });
};

/** Meta's books: each delivered message's day, country, category and cost (micro-dollars), of one WABA. */
const deliveredBooks: Endpoint = (world, { query }) =>
  ok({ delivered: world.pricing.delivered.filter((d) => !query.waba_id || d.waba_id === query.waba_id) });

/** Meta's pricing_analytics of a WABA's day multiplied by `factor` (the reconciliation's gap), e.g. {day, factor}. */
const skewPricing: Endpoint = (world, { id, body }) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.day)) || !(Number(body.factor) >= 0))
    return refused(400, 'day (YYYY-MM-DD) and factor (≥ 0) are required');
  world.pricing.skews.set(`${id}|${body.day}`, Number(body.factor));
  return ok({ id, day: body.day, factor: Number(body.factor) });
};

/** A WABA billed on a partner's credit line ({on: true}): its pricing_analytics carry no `cost` (upstream-facts §9.F). */
const setCreditLine: Endpoint = (world, { id, body }) => {
  if (body.on === false) world.pricing.creditLines.delete(id);
  else world.pricing.creditLines.add(id);
  return ok({ id, on: body.on !== false });
};

/** The share of its max price a WABA's max-price message is charged ({ratio} in (0, 1]; {ratio: null}: the default). */
const setMaxPriceClearing: Endpoint = (world, { id, body }) => {
  if (body.ratio === null) world.pricing.clearing.delete(id);
  else if (Number(body.ratio) > 0 && Number(body.ratio) <= 1) world.pricing.clearing.set(id, Number(body.ratio));
  else return refused(400, 'ratio (a number in (0, 1], or null) is required');
  return ok({ id, ratio: body.ratio });
};

/** The page size of a WABA's pricing_analytics ({size}; {size: null} back to the default): its reads come in pages. */
const setPricingPageSize: Endpoint = (world, { id, body }) => {
  if (body.size === null) world.pricing.pageSizes.delete(id);
  else if (Number.isInteger(body.size) && Number(body.size) >= 1) world.pricing.pageSizes.set(id, Number(body.size));
  else return refused(400, 'size (an integer ≥ 1, or null) is required');
  return ok({ id, size: body.size });
};

/** Meta's volume tier webhook (account_update, VOLUME_BASED_PRICING_TIER_UPDATE), as given or a default. */
const updateVolumeTier: Endpoint = (world, { body }) => {
  if (!world.notifier) return noWebhookTarget();
  world.notifier.notify(String(body.waba_id), 'account_update', {
    event: 'VOLUME_BASED_PRICING_TIER_UPDATE',
    volume_tier_info: body.volume_tier_info ?? {
      pricing_category: 'UTILITY',
      tier: '1:0-2500000',
      effective_month: monthOf(Date.now()),
      region: 'Other',
    },
  });
  return ok({ queued: true });
};

/** Meta enables a WABA for Direct Send (`{"enabled": true}`), takes it back (`false`) or blocks it (`{"blocked": true}`, 139200). */
const setDirectSend: Endpoint = (world, { id, body }) => {
  const waba = world.model.wabas.get(id);
  if (!waba) return refused(404, 'no such WABA');
  waba.direct_send = body.blocked === true ? 'BLOCKED' : body.enabled === false ? 'NOT_ENABLED' : 'ENABLED';
  return ok({ id, direct_send_status: waba.direct_send });
};

/** The accepted messages alone, narrowed to one recipient or template: what tests of the dispatcher read. */
const sentMessages: Endpoint = (world, { query }) =>
  ok({
    sent: world.model.sent.filter(
      (m) =>
        (!query.to || m.message?.to === query.to) &&
        (!query.template || (m.message?.template as { name?: string } | undefined)?.name === query.template) &&
        (!query.phone_number_id || m.phone_number_id === query.phone_number_id),
    ),
  });

const forgetCalls: Endpoint = (world) => {
  world.calls.length = 0;
  return ok({ calls: [] });
};

/**
 * The control endpoints under /_emulator (but people's, in ./people-control.ts and ./recipients.ts): method,
 * path (`:id` one segment) and what answers it. A request that matches none is answered 404.
 */
const ENDPOINTS: [method: string, path: string, endpoint: Endpoint][] = [
  ['POST', '/templates/:id/status', reviewTemplate],
  ['POST', '/templates/:id/pause', pauseTemplate],
  ['POST', '/templates/:id/hold', holdTemplate],
  ['DELETE', '/templates/:id/hold', endHold],
  ['POST', '/wabas', addWaba],
  ['POST', '/wabas/:id/messaging-limit', setMessagingLimit],
  ['POST', '/wabas/:id/currency', setCurrency],
  ['POST', '/wabas/:id/timezone', setTimezone],
  ['POST', '/wabas/:id/pricing-skew', skewPricing],
  ['POST', '/wabas/:id/credit-line', setCreditLine],
  ['POST', '/wabas/:id/max-price-clearing', setMaxPriceClearing],
  ['POST', '/wabas/:id/pricing-page-size', setPricingPageSize],
  ['POST', '/wabas/:id/direct-send', setDirectSend],
  ['POST', '/wabas/:id/template-analytics-page-size', setTemplateAnalyticsPageSize],
  ['POST', '/numbers/:id/throughput', setThroughputLevel],
  ['POST', '/numbers/:id/quality', setQualityRating],
  ['POST', '/numbers/:id/statuses', setNumberStatuses],
  ['POST', '/numbers/:id/limit', setNumberLimit],
  ['DELETE', '/numbers/:id/limit', restoreNumberLimit],
  ['GET', '/throughput', refusedByThroughput],
  ['POST', '/faults', (world, { body }) => ok({ faults: world.faults.add(body as Fault) })],
  ['DELETE', '/faults', (world, { query }) => ok({ faults: world.faults.clear(query.path, query.method) })],
  ['POST', '/messages/:id/status', reportMessageStatus],
  ['POST', '/messages/:id/click', clickUrlButton],
  ['POST', '/notify', notify],
  ['POST', '/account-update', updateVolumeTier],
  ['GET', '/pricing', deliveredBooks],
  ['GET', '/notifications', (world) => ok({ notifications: world.notifier?.log ?? [] })],
  // `?path=` keeps the calls whose path ends so: a test polling for one call reads it, not the whole log.
  ['GET', '/calls', (world, { query }) => ok({ calls: query.path ? world.calls.filter((c) => c.path.endsWith(query.path)) : world.calls })],
  ['DELETE', '/calls', forgetCalls],
  ['GET', '/state', (world) => ok({ wabas: [...world.model.wabas.values()], sent: world.model.sent })],
  ['GET', '/sent', sentMessages],
];

const ROUTES = ENDPOINTS.map(([method, path, endpoint]) => ({
  method,
  pattern: new RegExp(`^/_emulator${path.replace(':id', '([^/]+)')}$`),
  endpoint,
}));

/** The answer of a control endpoint (not part of the Graph API) to a request with a JSON body. */
export function answerControl(world: EmulatorWorld, method: string, path: string, body: Body, query: Record<string, string>): Answer {
  const inboundAt = (numberId: string, phone: string) => world.pricing.inbound.set(`${numberId}|${phone}`, Date.now());
  const ofPeople =
    peopleControl({ model: world.model, people: world.people, notifier: world.notifier, inboundAt }, method, path, body) ??
    recipientsControl(world, method, path, body) ??
    replyControl({ model: world.model, people: world.people, notifier: world.notifier, inboundAt }, method, path, body) ??
    categoryControl(world, method, path, body);
  if (ofPeople) return ofPeople;
  for (const route of ROUTES) {
    const match = route.method === method ? route.pattern.exec(path) : null;
    if (match) return route.endpoint(world, { id: match[1] ?? '', body, query });
  }
  return refused(404, 'unknown control endpoint');
}
