import { randomBytes } from 'node:crypto';
import type { DirectoryFile, Product } from '#lib/adapters/directory-file.ts';
import type { MetaTemplate } from '#lib/domain/templates/template-record.ts';
import { GraphError } from './graph-error.ts';
import { NEWEST_BEHAVIOUR, type VersionBehaviour } from './versions.ts';
import { checkMessage, storedAuthenticationComponents } from './message-check.ts';
import { checkBsuidTarget, contactsOf } from './recipients.ts';
import { browseLibrary, fromLibrary } from './template-library.ts';
import { directSendStatusOf, directSendTemplate, refuseChangeOfGenerated } from './direct-send.ts';
import { DAY_MS } from '#lib/domain/shared/calendar.ts';
import { pageOf } from './paging.ts';
import { answerSignupEdge, emptySignupState, ownerFields, type SignupState } from './signup.ts';
import { META_UTC_TIMEZONE_ID } from '#lib/domain/shared/meta-timezones.ts';

/**
 * Meta's Graph API as a model in memory: WABAs, phone numbers, templates, catalogs and products, uploads and
 * sent messages, with the shapes, paging and errors of shared/spec/upstream-facts.md. No HTTP here: the
 * emulator (./emulator.ts) puts authentication, faults and a call log in front of it, and its server
 * (./server.ts) or an in-process fetch carries requests to it.
 */
/** An upstream template as the model holds it: the fields of meta_template plus its edit history. */
export interface EmulatedTemplate extends MetaTemplate {
  message_send_ttl_seconds?: number;
  rejected_reason?: string;
  previous_category?: string;
  edits?: number[];
  /**
   * Meta holds this template's messages for quality assessment (upstream-facts §8): each is answered
   * `held_for_quality_assessment`, then delivered or dropped (failed 132015) after `after_ms`, as `outcome` says.
   */
  hold?: { outcome: 'deliver' | 'drop'; after_ms: number };
  /** Meta's quality (RED) pauses of the template so far: the first 3 h, the second 6 h, the third disables it. */
  red_pauses?: number;
  /** `AUTO_GENERATED` for a template Direct Send made (./direct-send.ts); absent for one made by hand (`MANUAL`). */
  source?: string;
}

export interface SentMessage {
  id: string;
  phone_number_id: string;
  accepted_at: number;
  /** When the request left the service (its launch stamp), where the local stack stamps it. */
  launched_at?: number;
  /** Sent through the Marketing Messages API (`/marketing_messages`, upstream-facts §9.B). */
  api?: 'mm';
  message: Record<string, unknown>;
  /** A Direct Send's: the name of the template Meta generated (or reused) for its content. */
  direct_template?: string;
}

export interface EmulatedWaba {
  id: string;
  name: string;
  namespace: string;
  country?: string;
  templates: EmulatedTemplate[];
  catalogs: { id: string; name: string; vertical: string; products: Product[] }[];
  /** The business portfolio's messaging limit as Graph names it (`TIER_250` … `TIER_UNLIMITED`); unlimited when absent. */
  messaging_limit?: string;
  /** The WABA's billing currency (`GET /{waba}?fields=currency`, upstream-facts §9.D): USD unless set. */
  currency?: string;
  /** Meta's `timezone_id` of the WABA (upstream-facts §1.6, decisions §31): UTC's ("474") unless set. */
  timezone_id?: string;
  /** Its business accepted the Marketing Messages API's terms (`marketing_messages_onboarding_status`). */
  mm_onboarded?: boolean;
  /** Meta enabled it for Direct Send (`ENABLED`), or blocked it (`BLOCKED`, 139200); `NOT_ENABLED` when absent. */
  direct_send?: 'ENABLED' | 'NOT_ENABLED' | 'BLOCKED';
  /** Its template analytics confirmed (`POST /{waba}?is_enabled_for_insights=true`, docs/template-analytics.md §1.1): never undone. */
  is_enabled_for_insights?: boolean;
}

const TEMPLATE_NAME = /^[a-z0-9_]+$/;
const CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'];

export { GraphError };

/**
 * A template as Graph keeps it, however it was given (a fixture, the control endpoint, a create): AUTHENTICATION
 * templates in their stored form (preset body, OTP button as a URL carrying the code), as Meta shows them.
 */
export function storedTemplate(template: EmulatedTemplate): EmulatedTemplate {
  const copy = structuredClone(template);
  if (String(copy.category).toUpperCase() === 'AUTHENTICATION' && Array.isArray(copy.components))
    copy.components = storedAuthenticationComponents(copy.components as never) as never;
  return copy;
}

function pick(item: Record<string, unknown>, fields: string | undefined, defaults: string[]) {
  const wanted = fields ? ['id', ...fields.split(',').map((f) => f.trim())] : defaults;
  const out: Record<string, unknown> = {};
  for (const f of wanted) if (item[f] !== undefined) out[f] = item[f];
  return out;
}

/** A request body as Graph receives it: JSON or form fields, whatever their shape. */
// biome-ignore lint/suspicious/noExplicitAny: Graph accepts any JSON; the model checks what it reads.
type Body = Record<string, any>;

/** A request to `/{id}/{edge}`: its query, body, address and the version it named. */
interface EdgeRequest {
  query: Record<string, string>;
  body: Body;
  href: string;
  version: VersionBehaviour;
}

/**
 * A business phone number: its WABA, display number, and throughput (upstream-facts §6.3): `STANDARD` (80/s)
 * until a test or a person upgrades it to `HIGH` (1,000/s); `is_on_biz_app` for a coexistence number (20/s).
 */
export interface EmulatedNumber {
  id: string;
  waba_id: string;
  display_phone_number: string;
  throughput?: { level: 'STANDARD' | 'HIGH' };
  is_on_biz_app?: boolean;
  /** `GREEN`, `YELLOW`, `RED` or `UNKNOWN`; GREEN when absent. */
  quality_rating?: string;
}

export class GraphModel {
  readonly wabas = new Map<string, EmulatedWaba>();
  readonly phoneNumbers = new Map<string, EmulatedNumber>();
  /** Messages accepted by the messages endpoint: their id, sending number, when, and the message as received. */
  readonly sent: SentMessage[] = [];
  /** The same messages by id (the first `indexedSent` of them): a status or click a test reports finds its message at once. */
  private readonly sentById = new Map<string, SentMessage>();
  private indexedSent = 0;
  private uploads = new Map<string, { length: number; type: string; received: number }>();
  private nextId = 7_000_000_000_000_000;
  /** Embedded Signup's codes, tokens, registrations, subscriptions and credit lines (./signup.ts). */
  signup: SignupState = emptySignupState();

  constructor(fixture: DirectoryFile) {
    for (const w of fixture.wabas) {
      this.wabas.set(w.waba_id, {
        id: w.waba_id,
        name: w.waba_name,
        namespace: w.namespace,
        country: w.country,
        templates: w.templates.map((t) => storedTemplate(t as EmulatedTemplate)),
        catalogs: w.catalogs.map((c) => ({ id: c.id, name: c.name, vertical: c.vertical, products: c.products })),
      });
    }
    for (const c of fixture.channels) {
      if (c.phone_number_id) {
        this.phoneNumbers.set(c.phone_number_id, {
          id: c.phone_number_id,
          waba_id: c.waba_id,
          display_phone_number: c.phone_number ?? c.wa_id,
          throughput: { level: 'STANDARD' },
          is_on_biz_app: c.is_on_biz_app ?? false,
        });
      }
    }
  }

  /** The model's whole state, for the local stack to keep between runs (decisions §16). */
  snapshot() {
    return {
      wabas: [...this.wabas.values()],
      phoneNumbers: [...this.phoneNumbers.values()],
      sent: this.sent,
      uploads: [...this.uploads.entries()],
      nextId: this.nextId,
      signup: this.signup,
    };
  }

  /** The message accepted under this id (the last, should one be there twice); those `sent` gained are indexed first. */
  messageOf(id: string | undefined): SentMessage | undefined {
    for (; this.indexedSent < this.sent.length; this.indexedSent++)
      this.sentById.set(this.sent[this.indexedSent].id, this.sent[this.indexedSent]);
    return id === undefined ? undefined : this.sentById.get(id);
  }

  restore(state: ReturnType<GraphModel['snapshot']>) {
    this.wabas.clear();
    for (const waba of state.wabas) this.wabas.set(waba.id, waba);
    this.phoneNumbers.clear();
    for (const phone of state.phoneNumbers) this.phoneNumbers.set(phone.id, phone);
    this.sent.splice(0, this.sent.length, ...state.sent);
    this.sentById.clear();
    this.indexedSent = 0;
    this.uploads = new Map(state.uploads);
    this.nextId = state.nextId;
    this.signup = { ...emptySignupState(), ...state.signup };
  }

  findTemplate(id: string): { waba: EmulatedWaba; template: EmulatedTemplate } | undefined {
    for (const waba of this.wabas.values()) {
      const template = waba.templates.find((t) => t.id === id);
      if (template) return { waba, template };
    }
    return undefined;
  }

  /**
   * Answers one Graph request (path segments without the version) as the version it named answers it
   * (./versions.ts; the newest's when none); throws GraphError for a refusal.
   */
  answer(
    method: string,
    segments: string[],
    query: Record<string, string>,
    body: Body | undefined,
    raw: Uint8Array,
    href: string,
    version: VersionBehaviour = NEWEST_BEHAVIOUR,
  ): unknown {
    return this.route(method, segments, query, body, raw, href, version);
  }

  private route(
    method: string,
    s: string[],
    query: Record<string, string>,
    body: Body | undefined,
    raw: Uint8Array,
    href: string,
    version: VersionBehaviour,
  ): unknown {
    const [first, edge] = s;
    const answer =
      s.length === 2
        ? this.answerEdge(method, first, edge, { query, body: body ?? {}, href, version })
        : s.length === 1
          ? this.answerObject(method, first, { query, body: body ?? {}, raw })
          : undefined;
    if (answer !== undefined) return answer;
    throw new GraphError(400, 100, `Unsupported ${method.toLowerCase()} request. Object with ID '${first}' does not exist`);
  }

  /** `/{id}/{edge}`: a WABA's templates and catalogs, a catalog's products, uploads, messages; undefined for another. */
  private answerEdge(method: string, id: string, edge: string, request: EdgeRequest) {
    const { query, body, href } = request;
    const signup = answerSignupEdge(this, method, id, edge, request);
    if (signup !== undefined) return signup;
    if (edge === 'message_templates') return this.answerTemplates(method, this.wabaOr404(id), request);
    if (edge === 'product_catalogs' && method === 'GET') {
      const waba = this.wabaOr404(id);
      return { data: waba.catalogs.map(({ id, name, vertical }) => ({ id, name, vertical })) };
    }
    if (edge === 'products' && method === 'GET') return this.listProducts(id, query, href);
    if (method !== 'POST') return undefined;
    if (edge === 'uploads') return this.startUpload(query);
    if (edge === 'messages') return this.sendMessage(id, body);
    if (edge === 'marketing_messages') return this.sendMarketingMessage(id, body);
    return undefined;
  }

  /** `/{waba}/message_templates`: the listing, a create, a delete; undefined for another method. */
  private answerTemplates(method: string, waba: EmulatedWaba, request: EdgeRequest) {
    if (method === 'GET') return this.listTemplates(waba, request);
    if (method === 'POST') return this.createTemplate(waba, request.body);
    if (method === 'DELETE') return this.deleteTemplates(waba, request.query);
    return undefined;
  }

  /** `/{catalog}/products`: a page of a catalog's products, with their count. */
  private listProducts(catalogId: string, query: Record<string, string>, href: string) {
    const catalog = [...this.wabas.values()].flatMap((w) => w.catalogs).find((c) => c.id === catalogId);
    if (!catalog) throw new GraphError(400, 100, `Unsupported get request. Object with ID '${catalogId}' does not exist`);
    const page = pageOf(catalog.products, query, href, 100);
    const defaults = ['id'];
    return {
      ...page,
      data: page.data.map((p) => pick(p as never, query.fields, defaults)),
      summary: { total_count: catalog.products.length },
    };
  }

  /** `/{id}`: an upload's bytes, a WABA, a number or a template (read or edited); undefined for another. */
  private answerObject(method: string, id: string, request: { query: Record<string, string>; body: Body; raw: Uint8Array }) {
    const { query, body, raw } = request;
    if (id.startsWith('upload:') && method === 'POST') return this.receiveUpload(id, raw);
    if (id === 'message_template_library' && method === 'GET') return browseLibrary(query);
    const waba = this.wabas.get(id);
    if (waba && method === 'GET') return this.wabaFields(waba, query);
    const number = this.phoneNumbers.get(id);
    if (number && method === 'GET') {
      const { waba_id: _waba, ...fields } = number;
      return pick(
        { ...fields, throughput: number.throughput ?? { level: 'STANDARD' }, quality_rating: number.quality_rating ?? 'GREEN' } as never,
        query.fields,
        ['id', 'display_phone_number'],
      );
    }
    const found = this.findTemplate(id);
    if (found && method === 'GET')
      return pick(found.template, query.fields, ['id', 'name', 'language', 'status', 'category', 'components']);
    if (found && method === 'POST') return this.editTemplate(found.template, body);
    return undefined;
  }

  /** `GET /{waba}`: the fields asked for, with Graph's defaults for what was never set. */
  private wabaFields(waba: EmulatedWaba, query: Record<string, string>) {
    return pick(
      {
        id: waba.id,
        name: waba.name,
        message_template_namespace: waba.namespace,
        country: waba.country,
        whatsapp_business_manager_messaging_limit: waba.messaging_limit ?? 'TIER_UNLIMITED',
        currency: waba.currency ?? 'USD',
        timezone_id: waba.timezone_id ?? META_UTC_TIMEZONE_ID,
        marketing_messages_onboarding_status: waba.mm_onboarded ? 'ONBOARDED' : 'ELIGIBLE',
        direct_send_status: directSendStatusOf(waba),
        is_enabled_for_insights: waba.is_enabled_for_insights ?? false,
        ...ownerFields(this.signup, waba.id),
      },
      query.fields,
      ['id', 'name'],
    );
  }

  private wabaOr404(id: string): EmulatedWaba {
    const waba = this.wabas.get(id);
    if (!waba) throw new GraphError(400, 100, `Unsupported request. Object with ID '${id}' does not exist`);
    return waba;
  }

  /** `GET /{waba}/message_templates`: a page; an invalid cursor is refused with the version's code (./versions.ts). */
  private listTemplates(waba: EmulatedWaba, { query, href, version }: EdgeRequest) {
    const list = (v?: string) => v?.split(',').map((x) => x.trim().toUpperCase());
    const statuses = list(query.status);
    const categories = list(query.category);
    const languages = query.language?.split(',').map((x) => x.trim());
    const matching = waba.templates.filter(
      (t) =>
        (!query.name || t.name === query.name) &&
        (!statuses || statuses.includes(t.status)) &&
        (!categories || categories.includes(t.category)) &&
        (!languages || languages.includes(t.language)) &&
        (!query.source || query.source.toUpperCase() === (t.source ?? 'MANUAL')),
    );
    const page = pageOf(matching, query, href, version.templateCursorError);
    const defaults = [
      'id',
      'name',
      'language',
      'status',
      'category',
      'components',
      'parameter_format',
      'quality_score',
      'previous_category',
      'rejected_reason',
      'library_template_name',
      'source',
    ];
    return { ...page, data: page.data.map((t) => pick(t, query.fields, defaults)) };
  }

  private createTemplate(waba: EmulatedWaba, body: Body) {
    const name = String(body.name ?? '');
    if (!TEMPLATE_NAME.test(name) || name.length > 512)
      throw new GraphError(400, 100, 'Invalid parameter', 2388042, 'Template name is invalid');
    const category = String(body.category ?? '').toUpperCase();
    if (!CATEGORIES.includes(category)) throw new GraphError(400, 100, 'Invalid parameter', undefined, 'Invalid category');
    if (!body.language) throw new GraphError(400, 100, 'Invalid parameter', undefined, 'language is required');
    // A library template (docs/platform-2027.md §6): the library's content, approved without review.
    const library = body.library_template_name !== undefined ? fromLibrary(body) : undefined;
    if (!library && !Array.isArray(body.components))
      throw new GraphError(400, 100, 'Invalid parameter', undefined, 'components is required');
    if (waba.templates.some((t) => t.name === name && t.language === body.language)) {
      throw new GraphError(400, 100, 'Invalid parameter', 2388024, 'Content in this language already exists');
    }
    const template: EmulatedTemplate = {
      id: String(this.nextId++),
      name,
      language: String(body.language),
      status: library ? 'APPROVED' : 'PENDING',
      category: library?.category ?? category,
      components:
        library?.components ?? (category === 'AUTHENTICATION' ? storedAuthenticationComponents(body.components) : body.components),
      ...(library && { library_template_name: library.library_template_name }),
      parameter_format: String(body.parameter_format ?? 'POSITIONAL').toUpperCase(),
      quality_score: { score: 'UNKNOWN' },
      ...(body.message_send_ttl_seconds !== undefined && { message_send_ttl_seconds: body.message_send_ttl_seconds }),
    };
    waba.templates.push(template);
    return { id: template.id, status: template.status, category: template.category };
  }

  private editTemplate(template: EmulatedTemplate, body: Body) {
    refuseChangeOfGenerated(template, 'edit');
    if (!['APPROVED', 'REJECTED', 'PAUSED'].includes(template.status)) {
      throw new GraphError(400, 100, 'Invalid parameter', 2388082, `A template in status ${template.status} cannot be edited`);
    }
    if (body.category && template.status === 'APPROVED' && String(body.category).toUpperCase() !== template.category) {
      throw new GraphError(400, 100, 'Invalid parameter', 2388091, 'The category of an approved template cannot be changed');
    }
    if (template.status === 'APPROVED') {
      const now = Date.now();
      const edits = (template.edits ?? []).filter((t) => now - t < 30 * DAY_MS);
      if (edits.some((t) => now - t < DAY_MS) || edits.length >= 10) {
        throw new GraphError(400, 100, 'Invalid parameter', 2388083, 'Edit limit reached for this template');
      }
      template.edits = [...edits, now];
    }
    if (body.category) template.category = String(body.category).toUpperCase();
    if (body.components)
      template.components = template.category === 'AUTHENTICATION' ? storedAuthenticationComponents(body.components) : body.components;
    if (body.message_send_ttl_seconds !== undefined) template.message_send_ttl_seconds = body.message_send_ttl_seconds;
    template.status = 'PENDING';
    return { success: true };
  }

  private deleteTemplates(waba: EmulatedWaba, query: Record<string, string>) {
    refuseChangeOfGenerated(
      waba.templates.find((t) => t.name === query.name && (!query.hsm_id || t.id === query.hsm_id)),
      'delete',
    );
    const before = waba.templates.length;
    waba.templates = waba.templates.filter((t) => !(t.name === query.name && (!query.hsm_id || t.id === query.hsm_id)));
    if (waba.templates.length === before) throw new GraphError(400, 100, 'Template not found');
    return { success: true };
  }

  private startUpload(query: Record<string, string>) {
    const allowed = ['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4'];
    if (!allowed.includes(query.file_type)) throw new GraphError(400, 100, 'Invalid file_type');
    const length = Number(query.file_length);
    if (!Number.isInteger(length) || length <= 0) throw new GraphError(400, 100, 'Invalid file_length');
    const id = `upload:${randomBytes(12).toString('hex')}`;
    this.uploads.set(id, { length, type: query.file_type, received: 0 });
    return { id };
  }

  private receiveUpload(id: string, raw: Uint8Array) {
    const session = this.uploads.get(id);
    if (!session) throw new GraphError(400, 100, 'Unknown upload session');
    if (raw.length !== session.length) throw new GraphError(400, 100, 'Uploaded length does not match file_length');
    session.received = raw.length;
    return { h: `4::${Buffer.from(session.type).toString('base64')}:${randomBytes(24).toString('base64url')}` };
  }

  private sendMessage(phoneNumberId: string, body: Body) {
    const phone = this.phoneNumbers.get(phoneNumberId);
    if (!phone) throw new GraphError(400, 100, `Object with ID '${phoneNumberId}' does not exist`);
    const waba = this.wabas.get(phone.waba_id)!;
    if (body.category !== undefined && body.template === undefined) return this.sendDirect(phoneNumberId, waba, body);
    const t = waba.templates.find((x) => x.name === body.template?.name && x.language === body.template?.language?.code);
    if (t?.status !== 'APPROVED') {
      if (t?.status === 'PAUSED') throw new GraphError(400, 132015, 'Template is paused');
      if (t?.status === 'DISABLED') throw new GraphError(400, 132016, 'Template is disabled');
      throw new GraphError(404, 132001, 'Template name does not exist in the translation');
    }
    checkMessage(t, body);
    checkBsuidTarget(t, body);
    const id = `wamid.${randomBytes(16).toString('base64url')}`;
    this.sent.push({ id, phone_number_id: phoneNumberId, accepted_at: Date.now(), message: body });
    return {
      messaging_product: 'whatsapp',
      contacts: contactsOf(body),
      messages: [{ id, message_status: t.hold ? 'held_for_quality_assessment' : 'accepted' }],
    };
  }

  /** A Direct Send (./direct-send.ts): accepted as sent with its generated template's name beside it. */
  private sendDirect(phoneNumberId: string, waba: EmulatedWaba, body: Body) {
    const template = directSendTemplate(waba, body, () => String(this.nextId++));
    const id = `wamid.${randomBytes(16).toString('base64url')}`;
    this.sent.push({ id, phone_number_id: phoneNumberId, accepted_at: Date.now(), message: body, direct_template: template.name });
    return { messaging_product: 'whatsapp', contacts: contactsOf(body), messages: [{ id, message_status: 'accepted' }] };
  }

  /**
   * `POST /{phone-number-id}/marketing_messages` (upstream-facts §9.B): MARKETING templates only. A WABA whose
   * business has not accepted the terms falls back to the Cloud API (`CLOUD_API_FALLBACK`, the default: priced
   * `marketing`) or is refused (`STRICT`); an onboarded one's message is priced `marketing_lite`.
   */
  private sendMarketingMessage(phoneNumberId: string, body: Body) {
    const { product_policy: policy, message_activity_sharing: _sharing, ...message } = body;
    const phone = this.phoneNumbers.get(phoneNumberId);
    const waba = phone ? this.wabas.get(phone.waba_id) : undefined;
    const t = waba?.templates.find((x) => x.name === message.template?.name && x.language === message.template?.language?.code);
    if (t && String(t.category).toUpperCase() !== 'MARKETING')
      throw new GraphError(400, 100, 'Invalid parameter: only marketing templates are sent through the Marketing Messages API');
    if (policy !== undefined && policy !== 'CLOUD_API_FALLBACK' && policy !== 'STRICT')
      throw new GraphError(400, 100, 'Invalid parameter: product_policy');
    if (!waba?.mm_onboarded && policy === 'STRICT')
      throw new GraphError(400, 100, 'Terms of Service for Marketing Messages API not accepted (STRICT)');
    const answer = this.sendMessage(phoneNumberId, message);
    if (waba?.mm_onboarded) this.sent.at(-1)!.api = 'mm';
    return answer;
  }
}
