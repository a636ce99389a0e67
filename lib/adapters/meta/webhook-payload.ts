import * as v from 'valibot';
import { InvalidRequest } from '#lib/domain/shared/errors.ts';
import type { MetaNotification, NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import { answerOf } from './reply-payload.ts';
import {
  contactsOf,
  moveOfSystem,
  movesOfUpdate,
  preferencesOf,
  seenOf,
  userId,
  usernameOf,
  type WebhookContact,
} from './people-payload.ts';

/**
 * Meta's webhook payloads (upstream-facts §5; the `messages` field's statuses as Cloud API sends them), read
 * into the domain's notifications. The envelope is read by the endpoint (after the signature), each change by
 * the worker, by the parser of its field (PARSERS_BY_FIELD); fields this service does not handle are left out at
 * the endpoint and never queued.
 */

/** Statuses per queued change: a `messages` change of many statuses is split so each job stays small. */
const STATUSES_PER_JOB = 100;

const Envelope = v.object({
  object: v.literal('whatsapp_business_account', 'must be whatsapp_business_account'),
  entry: v.array(
    v.object({
      id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
      time: v.optional(v.pipe(v.number(), v.finite())),
      changes: v.optional(v.array(v.object({ field: v.pipe(v.string(), v.maxLength(128)), value: v.unknown() })), []),
    }),
  ),
});

/** The changes of a notification body worth queuing, and the fields it carried that are not handled. */
export function changesOfNotification(raw: string, nowMs = Date.now()): { changes: NotifiedChange[]; ignored: string[] } {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new InvalidRequest('The notification is not JSON', [{ path: '', message: 'must be a JSON object' }]);
  }
  const parsed = v.safeParse(Envelope, body);
  if (!parsed.success) throw new InvalidRequest('Not a WhatsApp Business Account notification', issuesToDetails(parsed.issues));
  const changes: NotifiedChange[] = [];
  const ignored: string[] = [];
  for (const entry of parsed.output.entry) {
    const at = entry.time !== undefined ? entry.time * 1000 : nowMs;
    for (const { field, value } of entry.changes) {
      if (!isHandled(field)) {
        ignored.push(field);
        continue;
      }
      const statuses = field === 'messages' ? (value as { statuses?: unknown })?.statuses : undefined;
      const inbound = field === 'messages' ? (value as { messages?: unknown })?.messages : undefined;
      if (field === 'messages' && !Array.isArray(statuses) && !Array.isArray(inbound)) {
        // Other `messages` content (a reaction to a status, an error report): not this service's.
        ignored.push('messages (no statuses)');
        continue;
      }
      if (Array.isArray(inbound)) {
        // People's own messages to a number (consent keywords, decisions §25): a job of their own.
        const { statuses: _statuses, ...rest } = value as Record<string, unknown>;
        changes.push({ waba_id: entry.id, at, field, value: { ...rest, messages: inbound.slice(0, STATUSES_PER_JOB) } });
      }
      if (Array.isArray(statuses)) {
        for (let i = 0; i < statuses.length; i += STATUSES_PER_JOB) {
          changes.push({
            waba_id: entry.id,
            at,
            field,
            value: { ...(value as object), statuses: statuses.slice(i, i + STATUSES_PER_JOB) },
          });
        }
      } else if (field !== 'messages') changes.push({ waba_id: entry.id, at, field, value });
    }
  }
  return { changes, ignored };
}

const id = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((x) => String(x)),
  v.regex(/^[0-9A-Za-z_-]{1,64}$/),
);
const text = v.pipe(v.string(), v.maxLength(1024));

const StatusUpdate = v.object({
  event: v.pipe(text, v.toUpperCase()),
  message_template_id: id,
  reason: v.optional(v.nullable(text)),
  /** `FIRST_PAUSE`, `SECOND_PAUSE`, `RATE_LIMITING_PAUSE`, `UNPAUSE`, `DISABLED` (upstream-facts §2); anything else is dropped. */
  other_info: v.optional(v.fallback(v.optional(v.object({ title: v.optional(v.pipe(text, v.toUpperCase())) })), undefined)),
});
/** Unix seconds, as a number or its digits; anything else reads as absent. */
const epochSeconds = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number))]),
  v.safeInteger(),
  v.minValue(1),
);
const CategoryUpdate = v.object({
  message_template_id: id,
  new_category: v.pipe(text, v.toUpperCase()),
  previous_category: v.optional(v.nullable(text)),
  correct_category: v.optional(v.nullable(v.pipe(text, v.toUpperCase()))),
  /** When an announced change happens, Unix seconds (platform-2027 §3; one source). */
  category_update_timestamp: v.optional(v.fallback(v.optional(epochSeconds), undefined)),
});
const QualityUpdate = v.object({ message_template_id: id, new_quality_score: v.pipe(text, v.toUpperCase()) });
/** A number's quality or throughput changed: only which number matters here (its level is asked again). */
const NumberQualityUpdate = v.object({
  display_phone_number: v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.regex(/\d/), v.maxLength(64)),
  event: v.optional(v.pipe(text, v.toUpperCase()), 'UNKNOWN'),
});
/** Meta's volume tier of a pricing category (upstream-facts §8: `VOLUME_BASED_PRICING_TIER_UPDATE`). */
const AccountUpdate = v.object({
  event: v.literal('VOLUME_BASED_PRICING_TIER_UPDATE'),
  volume_tier_info: v.object({
    pricing_category: v.pipe(v.string(), v.maxLength(64)),
    tier: v.pipe(v.string(), v.maxLength(64)),
    effective_month: v.optional(v.pipe(v.string(), v.maxLength(16))),
    region: v.optional(v.pipe(v.string(), v.maxLength(64))),
  }),
});
/** The business accepted the Marketing Messages API's terms (upstream-facts §9.B): the WABA it names. */
const TermsSigned = v.object({
  event: v.literal('MM_LITE_TERMS_SIGNED'),
  waba_info: v.optional(v.object({ waba_id: v.optional(id) })),
});
/** A person's text message to one of the numbers (the `messages` field's `messages`, upstream-facts §8). */
const InboundMessage = v.object({
  /** Omitted for a username user whose number Meta may not share (upstream-facts §9.A3); `from_user_id` always there. */
  from: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(64))),
  from_user_id: v.optional(v.fallback(v.optional(userId), undefined)),
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  timestamp: v.optional(v.union([v.string(), v.number()])),
  /** Any type a person sends: a text may be a keyword (decisions §25), any may answer a send (./reply-payload.ts). */
  type: v.pipe(v.string(), v.maxLength(64)),
});
const InboundMetadata = v.object({
  display_phone_number: v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(64)),
  phone_number_id: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(64))),
});
const MessageStatus = v.object({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  status: v.picklist(['sent', 'delivered', 'read', 'failed']),
  timestamp: v.optional(v.union([v.string(), v.number()])),
  biz_opaque_callback_data: v.optional(v.string()),
  recipient_id: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(64))),
  /** The recipient's BSUID (upstream-facts §9.A4): on sent, delivered and read; not on a phone send's failure. */
  recipient_user_id: v.optional(v.fallback(v.optional(userId), undefined)),
  /** Meta's pricing of the message (upstream-facts §8); a status without it is applied without a charge. */
  pricing: v.optional(
    v.object({
      /** Deprecated by Meta: absent, the domain decides from `type` (decisions §30). */
      billable: v.optional(v.boolean()),
      category: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
      type: v.optional(v.pipe(v.string(), v.maxLength(64)), 'regular'),
      /**
       * What a max-price message of the Marketing Messages API was charged (decisions §34; the emulator's shape,
       * docs/platform-2027.md §5): per message, in the WABA's currency. A malformed one is left out.
       */
      max_price: v.optional(
        v.fallback(
          v.optional(
            v.object({
              charged_amount: v.pipe(v.number(), v.finite(), v.minValue(0), v.ltValue(1000)),
              currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
            }),
          ),
          undefined,
        ),
      ),
    }),
  ),
  errors: v.optional(v.array(v.object({ code: v.union([v.number(), v.string()]), title: v.optional(text), message: v.optional(text) }))),
});

type FieldParser = (change: NotifiedChange) => MetaNotification[];

function templateStatusOf({ waba_id, at, value }: NotifiedChange): MetaNotification[] {
  const r = v.safeParse(StatusUpdate, value);
  if (!r.success) return [];
  const { message_template_id: template_id, event, reason, other_info } = r.output;
  return [{ kind: 'template_status', waba_id, at, template_id, event, reason, ...(other_info?.title && { title: other_info.title }) }];
}

function templateCategoryOf({ waba_id, at, value }: NotifiedChange): MetaNotification[] {
  const r = v.safeParse(CategoryUpdate, value);
  if (!r.success) return [];
  const { message_template_id, new_category, previous_category, correct_category, category_update_timestamp } = r.output;
  return [
    {
      kind: 'template_category',
      waba_id,
      at,
      template_id: message_template_id,
      new_category,
      ...(previous_category ? { previous_category } : {}),
      ...(correct_category ? { correct_category } : {}),
      ...(correct_category && category_update_timestamp ? { takes_effect_at: category_update_timestamp * 1000 } : {}),
    },
  ];
}

function templateQualityOf({ waba_id, at, value }: NotifiedChange): MetaNotification[] {
  const r = v.safeParse(QualityUpdate, value);
  if (!r.success) return [];
  return [{ kind: 'template_quality', waba_id, at, template_id: r.output.message_template_id, new_quality: r.output.new_quality_score }];
}

function numberQualityOf({ waba_id, at, value }: NotifiedChange): MetaNotification[] {
  const r = v.safeParse(NumberQualityUpdate, value);
  if (!r.success) return [];
  return [{ kind: 'number_quality', waba_id, at, number_digits: r.output.display_phone_number.replace(/\D/g, ''), event: r.output.event }];
}

/** `account_update`: the Marketing Messages API's terms signed, or a volume tier reached. */
function accountUpdateOf({ waba_id, at, value }: NotifiedChange): MetaNotification[] {
  const signed = v.safeParse(TermsSigned, value);
  if (signed.success) return [{ kind: 'mm_onboarded', waba_id: signed.output.waba_info?.waba_id ?? waba_id, at }];
  const r = v.safeParse(AccountUpdate, value);
  if (!r.success) return [];
  const { pricing_category, tier, effective_month, region } = r.output.volume_tier_info;
  return [
    { kind: 'pricing_tier', waba_id, at, pricing_category, tier, ...(effective_month && { effective_month }), ...(region && { region }) },
  ];
}

/** Meta's time of a message or status (epoch seconds), else the change's. */
const timeOf = (timestamp: unknown, fallback: number) => {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) ? seconds * 1000 : fallback;
};

/** A person's message of a `messages` change: a move (a system message), a text to a number, or nothing. */
function inboundOf(message: unknown, number: string | undefined, contacts: WebhookContact[], change: NotifiedChange): MetaNotification[] {
  const moved = moveOfSystem(message, change.waba_id, change.at, number);
  if (moved.length > 0) return moved;
  const r = v.safeParse(InboundMessage, message);
  const answer = answerOf(message);
  if (!r.success || number === undefined || !answer) return [];
  const from = r.output.from?.replace(/\D/g, '') || undefined;
  const user = r.output.from_user_id;
  if (!from && !user) return [];
  const username = usernameOf(contacts, { phone: from, user_id: user });
  return [
    {
      kind: 'inbound_message',
      waba_id: change.waba_id,
      number_digits: number,
      ...(from && { from }),
      ...(user && { user_id: user }),
      ...(username && { username }),
      message_id: r.output.id,
      ...answer,
      at: timeOf(r.output.timestamp, change.at),
    },
  ];
}

/** The number a `messages` change is of (its metadata): its digits and its id at the upstream. */
type SendingNumber = { digits?: string; phoneNumberId?: string };

/** A status of a `messages` change; one Meta added since (not sent/delivered/read/failed) is skipped. */
function statusOf(status: unknown, contacts: WebhookContact[], change: NotifiedChange, number: SendingNumber): MetaNotification[] {
  const r = v.safeParse(MessageStatus, status);
  if (!r.success) return [];
  const error = r.output.errors?.[0];
  const recipient = r.output.recipient_id?.replace(/\D/g, '') || undefined;
  const userOf = r.output.recipient_user_id;
  // The username only on delivered and read, from the contact of this recipient (upstream-facts §9.A4).
  const username = r.output.status === 'failed' ? undefined : usernameOf(contacts, { phone: recipient, user_id: userOf });
  return [
    {
      kind: 'message_status',
      message_id: r.output.id,
      status: r.output.status,
      reference: r.output.biz_opaque_callback_data,
      at: timeOf(r.output.timestamp, change.at),
      waba_id: change.waba_id,
      ...(number.digits && { number_digits: number.digits }),
      ...(number.phoneNumberId && { phone_number_id: number.phoneNumberId }),
      ...(recipient && { recipient }),
      ...(userOf && { recipient_user_id: userOf }),
      ...(username && { username }),
      ...(r.output.pricing && { pricing: r.output.pricing }),
      ...(error && { error: { code: String(error.code), title: error.title ?? error.message ?? String(error.code) } }),
    },
  ];
}

/** `messages`: the pairs its contacts show, people's own messages, then the statuses of the messages sent. */
function messagesOf(change: NotifiedChange): MetaNotification[] {
  const value = change.value as { statuses?: unknown[]; messages?: unknown[]; metadata?: unknown };
  const metadata = v.safeParse(InboundMetadata, value?.metadata);
  const number = metadata.success ? metadata.output.display_phone_number.replace(/\D/g, '') : undefined;
  const contacts = contactsOf(value);
  // The pairs an inbound change's contacts show (statuses name theirs on each status).
  const seen = Array.isArray(value?.messages) ? seenOf(contacts, change.waba_id, change.at, number) : [];
  return [
    ...seen,
    ...(value?.messages ?? []).flatMap((message) => inboundOf(message, number, contacts, change)),
    ...(value?.statuses ?? []).flatMap((status) =>
      statusOf(status, contacts, change, { digits: number, phoneNumberId: metadata.success ? metadata.output.phone_number_id : undefined }),
    ),
  ];
}

/**
 * Meta's webhook fields this service handles, each with its parser. A field not here is left out at the
 * endpoint and never queued.
 */
const PARSERS_BY_FIELD: Record<string, FieldParser> = {
  message_template_status_update: templateStatusOf,
  template_category_update: templateCategoryOf,
  message_template_quality_update: templateQualityOf,
  phone_number_quality_update: numberQualityOf,
  messages: messagesOf,
  account_update: accountUpdateOf,
  // People (decisions §28): a person's new BSUID, and their marketing preference.
  user_id_update: ({ value, waba_id, at }) => movesOfUpdate(value, waba_id, at),
  user_preferences: ({ value, waba_id, at }) => preferencesOf(value, waba_id, at),
};

const isHandled = (field: string) => Object.hasOwn(PARSERS_BY_FIELD, field);

/**
 * What a queued change says. A change whose value is not what Meta documents yields nothing (logged by the
 * caller); statuses other than sent/delivered/read/failed (Meta adds new ones) are skipped one by one.
 */
export function notificationsOf(change: NotifiedChange): MetaNotification[] {
  return isHandled(change.field) ? PARSERS_BY_FIELD[change.field](change) : [];
}
