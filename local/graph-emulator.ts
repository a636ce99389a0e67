import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DirectoryFile, Product } from '#lib/adapters/directory-file.ts';
import type { MetaTemplate } from '#lib/domain/template-record.ts';

/**
 * Our emulator of Meta's Graph API (the upstream), with the shapes, paging and error envelopes of
 * shared/spec/upstream-facts.md. Control endpoints under /_emulator let tests and people set a template's
 * review status, inject faults (5xx, 429, timeouts) and read the log of upstream calls.
 */
/** An upstream template as the emulator holds it: the fields of meta_template plus its edit history. */
export interface EmulatedTemplate extends MetaTemplate {
  message_send_ttl_seconds?: number;
  rejected_reason?: string;
  previous_category?: string;
  edits?: number[];
}

interface EmulatedWaba {
  id: string;
  name: string;
  namespace: string;
  country?: string;
  templates: EmulatedTemplate[];
  catalogs: { id: string; name: string; vertical: string; products: Product[] }[];
}

interface Fault {
  /** Substring of the request path the fault applies to; all paths when absent. */
  path?: string;
  status?: number;
  /** Graph error code for the envelope (defaults by status). */
  code?: number;
  /** Hang this long before answering (a timeout for a client with a shorter one). */
  delayMs?: number;
  /** How many requests it affects; unlimited when absent. */
  times?: number;
}

export interface UpstreamCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
}

export const EMULATOR_TOKEN = 'local-graph-access-token';
const TEMPLATE_NAME = /^[a-z0-9_]+$/;
const CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'];

class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly userMessage?: string,
  ) {
    super(message);
  }
}

const encodeCursor = (index: number) => Buffer.from(`cursor:${index}`).toString('base64url');
function decodeCursor(cursor: string, code: number): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^cursor:(\d+)$/.exec(text);
  if (!match) throw new GraphError(400, code, 'Invalid pagination cursor');
  return Number(match[1]);
}

/** Graph cursor paging over a list: `after`/`before` point at the last/first item of a page. */
function pageOf<T>(items: T[], query: Record<string, string>, baseUrl: string, cursorError: number, defaultLimit = 25) {
  const limit = Math.max(1, Math.min(Number(query.limit) || defaultLimit, 1000));
  let start = 0;
  if (query.after) start = decodeCursor(query.after, cursorError) + 1;
  else if (query.before) start = Math.max(0, decodeCursor(query.before, cursorError) - limit);
  if (start > items.length) throw new GraphError(400, cursorError, 'Invalid pagination cursor');
  const data = items.slice(start, start + limit);
  const paging: Record<string, unknown> = {};
  if (data.length > 0) {
    paging.cursors = { before: encodeCursor(start), after: encodeCursor(start + data.length - 1) };
    const next = new URL(baseUrl);
    if (start + data.length < items.length) {
      next.searchParams.set('limit', String(limit));
      next.searchParams.delete('before');
      next.searchParams.set('after', encodeCursor(start + data.length - 1));
      paging.next = next.href;
    }
    if (start > 0) {
      const previous = new URL(baseUrl);
      previous.searchParams.set('limit', String(limit));
      previous.searchParams.delete('after');
      previous.searchParams.set('before', encodeCursor(start));
      paging.previous = previous.href;
    }
  }
  return { data, paging };
}

function pick(item: Record<string, unknown>, fields: string | undefined, defaults: string[]) {
  const wanted = fields ? ['id', ...fields.split(',').map((f) => f.trim())] : defaults;
  const out: Record<string, unknown> = {};
  for (const f of wanted) if (item[f] !== undefined) out[f] = item[f];
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export class GraphEmulator {
  readonly wabas = new Map<string, EmulatedWaba>();
  readonly phoneNumbers = new Map<string, { id: string; waba_id: string; display_phone_number: string }>();
  readonly calls: UpstreamCall[] = [];
  readonly sent: Record<string, unknown>[] = [];
  private faults: Fault[] = [];
  private uploads = new Map<string, { length: number; type: string; received: number }>();
  private nextId = 7_000_000_000_000_000;
  private server?: Server;
  url = '';

  constructor(fixture: DirectoryFile, private readonly token = EMULATOR_TOKEN) {
    for (const w of fixture.wabas) {
      this.wabas.set(w.waba_id, {
        id: w.waba_id,
        name: w.waba_name,
        namespace: w.namespace,
        country: w.country,
        templates: w.templates.map((t) => structuredClone(t) as EmulatedTemplate),
        catalogs: w.catalogs.map((c) => ({ id: c.id, name: c.name, vertical: c.vertical, products: c.products })),
      });
    }
    for (const c of fixture.channels) {
      if (c.phone_number_id) {
        this.phoneNumbers.set(c.phone_number_id, { id: c.phone_number_id, waba_id: c.waba_id, display_phone_number: c.phone_number ?? c.wa_id });
      }
    }
  }

  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  findTemplate(id: string): { waba: EmulatedWaba; template: EmulatedTemplate } | undefined {
    for (const waba of this.wabas.values()) {
      const template = waba.templates.find((t) => t.id === id);
      if (template) return { waba, template };
    }
    return undefined;
  }

  private send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private sendError(res: ServerResponse, error: GraphError) {
    this.send(res, error.status, {
      error: {
        message: `(#${error.code}) ${error.message}`,
        type: 'OAuthException',
        code: error.code,
        ...(error.subcode && { error_subcode: error.subcode }),
        ...(error.userMessage && { error_user_msg: error.userMessage }),
        is_transient: error.status >= 500,
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    });
  }

  private takeFault(path: string): Fault | undefined {
    const index = this.faults.findIndex((f) => !f.path || path.includes(f.path));
    if (index < 0) return undefined;
    const fault = this.faults[index];
    if (fault.times !== undefined && --fault.times <= 0) this.faults.splice(index, 1);
    return fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams);
    try {
      const raw = await readBody(req);
      if (path.startsWith('/_emulator/')) return this.control(req.method ?? 'GET', path, raw, res, query);
      const isUpload = /^\/(v\d+\.\d+\/)?upload:/.test(path.slice(1)) || path.includes('/upload:');
      let body: unknown;
      const type = req.headers['content-type'] ?? '';
      if (!isUpload && raw.length > 0) {
        body = type.includes('json') ? JSON.parse(raw.toString()) : Object.fromEntries(new URLSearchParams(raw.toString()));
      }
      this.calls.push({ method: req.method ?? 'GET', path, query, body: isUpload ? `<${raw.length} bytes>` : body });
      const fault = this.takeFault(path);
      if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault?.status) {
        const code = fault.code ?? (fault.status === 429 ? 80007 : fault.status >= 500 ? 2 : 100);
        return this.sendError(res, new GraphError(fault.status, code, 'Injected fault'));
      }
      const auth = req.headers.authorization ?? '';
      const expected = isUpload ? `OAuth ${this.token}` : `Bearer ${this.token}`;
      if (auth !== expected && query.access_token !== this.token) {
        throw new GraphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
      }
      const segments = path.split('/').filter(Boolean);
      if (/^v\d+\.\d+$/.test(segments[0] ?? '')) segments.shift();
      const result = this.route(req.method ?? 'GET', segments, query, body, raw, url.href);
      this.send(res, 200, result);
    } catch (error) {
      if (error instanceof GraphError) return this.sendError(res, error);
      if (error instanceof SyntaxError) return this.sendError(res, new GraphError(400, 100, 'Invalid JSON body'));
      this.sendError(res, new GraphError(500, 1, 'An unknown error occurred'));
    }
  }

  private route(method: string, s: string[], query: Record<string, string>, body: any, raw: Buffer, href: string): unknown {
    const [first, edge] = s;
    if (s.length === 2 && edge === 'message_templates') {
      const waba = this.wabaOr404(first);
      if (method === 'GET') return this.listTemplates(waba, query, href);
      if (method === 'POST') return this.createTemplate(waba, body ?? {});
      if (method === 'DELETE') return this.deleteTemplates(waba, query);
    }
    if (s.length === 2 && edge === 'product_catalogs' && method === 'GET') {
      const waba = this.wabaOr404(first);
      return { data: waba.catalogs.map(({ id, name, vertical }) => ({ id, name, vertical })) };
    }
    if (s.length === 2 && edge === 'products' && method === 'GET') {
      const catalog = [...this.wabas.values()].flatMap((w) => w.catalogs).find((c) => c.id === first);
      if (!catalog) throw new GraphError(400, 100, `Unsupported get request. Object with ID '${first}' does not exist`);
      const page = pageOf(catalog.products, query, href, 100);
      const defaults = ['id'];
      return { ...page, data: page.data.map((p) => pick(p as never, query.fields, defaults)), summary: { total_count: catalog.products.length } };
    }
    if (s.length === 2 && edge === 'uploads' && method === 'POST') return this.startUpload(query);
    if (s.length === 1 && first.startsWith('upload:') && method === 'POST') return this.receiveUpload(first, raw);
    if (s.length === 2 && edge === 'messages' && method === 'POST') return this.sendMessage(first, body ?? {});
    if (s.length === 1) {
      const waba = this.wabas.get(first);
      if (waba && method === 'GET') {
        return pick(
          { id: waba.id, name: waba.name, message_template_namespace: waba.namespace, country: waba.country },
          query.fields,
          ['id', 'name'],
        );
      }
      const found = this.findTemplate(first);
      if (found && method === 'GET') {
        return pick(found.template, query.fields, ['id', 'name', 'language', 'status', 'category', 'components']);
      }
      if (found && method === 'POST') return this.editTemplate(found.template, body ?? {});
    }
    throw new GraphError(400, 100, `Unsupported ${method.toLowerCase()} request. Object with ID '${first}' does not exist`);
  }

  private wabaOr404(id: string): EmulatedWaba {
    const waba = this.wabas.get(id);
    if (!waba) throw new GraphError(400, 100, `Unsupported request. Object with ID '${id}' does not exist`);
    return waba;
  }

  private listTemplates(waba: EmulatedWaba, query: Record<string, string>, href: string) {
    const list = (v?: string) => v?.split(',').map((x) => x.trim().toUpperCase());
    const statuses = list(query.status);
    const categories = list(query.category);
    const languages = query.language?.split(',').map((x) => x.trim());
    const matching = waba.templates.filter(
      (t) =>
        (!query.name || t.name === query.name) &&
        (!statuses || statuses.includes(t.status)) &&
        (!categories || categories.includes(t.category)) &&
        (!languages || languages.includes(t.language)),
    );
    const page = pageOf(matching, query, href, 131059);
    const defaults = ['id', 'name', 'language', 'status', 'category', 'components', 'parameter_format', 'quality_score', 'previous_category', 'rejected_reason'];
    return { ...page, data: page.data.map((t) => pick(t, query.fields, defaults)) };
  }

  private createTemplate(waba: EmulatedWaba, body: Record<string, any>) {
    const name = String(body.name ?? '');
    if (!TEMPLATE_NAME.test(name) || name.length > 512) throw new GraphError(400, 100, 'Invalid parameter', 2388042, 'Template name is invalid');
    const category = String(body.category ?? '').toUpperCase();
    if (!CATEGORIES.includes(category)) throw new GraphError(400, 100, 'Invalid parameter', undefined, 'Invalid category');
    if (!body.language) throw new GraphError(400, 100, 'Invalid parameter', undefined, 'language is required');
    if (!Array.isArray(body.components)) throw new GraphError(400, 100, 'Invalid parameter', undefined, 'components is required');
    if (waba.templates.some((t) => t.name === name && t.language === body.language)) {
      throw new GraphError(400, 100, 'Invalid parameter', 2388024, 'Content in this language already exists');
    }
    const template: EmulatedTemplate = {
      id: String(this.nextId++),
      name,
      language: String(body.language),
      status: 'PENDING',
      category,
      components: body.components,
      parameter_format: String(body.parameter_format ?? 'POSITIONAL').toUpperCase(),
      quality_score: { score: 'UNKNOWN' },
      ...(body.message_send_ttl_seconds !== undefined && { message_send_ttl_seconds: body.message_send_ttl_seconds }),
    };
    waba.templates.push(template);
    return { id: template.id, status: template.status, category: template.category };
  }

  private editTemplate(template: EmulatedTemplate, body: Record<string, any>) {
    if (!['APPROVED', 'REJECTED', 'PAUSED'].includes(template.status)) {
      throw new GraphError(400, 100, 'Invalid parameter', 2388082, `A template in status ${template.status} cannot be edited`);
    }
    if (body.category && template.status === 'APPROVED' && String(body.category).toUpperCase() !== template.category) {
      throw new GraphError(400, 100, 'Invalid parameter', 2388091, 'The category of an approved template cannot be changed');
    }
    if (template.status === 'APPROVED') {
      const now = Date.now();
      const edits = (template.edits ?? []).filter((t) => now - t < 30 * 86_400_000);
      if (edits.some((t) => now - t < 86_400_000) || edits.length >= 10) {
        throw new GraphError(400, 100, 'Invalid parameter', 2388083, 'Edit limit reached for this template');
      }
      template.edits = [...edits, now];
    }
    if (body.components) template.components = body.components;
    if (body.category) template.category = String(body.category).toUpperCase();
    if (body.message_send_ttl_seconds !== undefined) template.message_send_ttl_seconds = body.message_send_ttl_seconds;
    template.status = 'PENDING';
    return { success: true };
  }

  private deleteTemplates(waba: EmulatedWaba, query: Record<string, string>) {
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

  private receiveUpload(id: string, raw: Buffer) {
    const session = this.uploads.get(id);
    if (!session) throw new GraphError(400, 100, 'Unknown upload session');
    if (raw.length !== session.length) throw new GraphError(400, 100, 'Uploaded length does not match file_length');
    session.received = raw.length;
    return { h: `4::${Buffer.from(session.type).toString('base64')}:${randomBytes(24).toString('base64url')}` };
  }

  private sendMessage(phoneNumberId: string, body: Record<string, any>) {
    const phone = this.phoneNumbers.get(phoneNumberId);
    if (!phone) throw new GraphError(400, 100, `Object with ID '${phoneNumberId}' does not exist`);
    const waba = this.wabas.get(phone.waba_id)!;
    const t = waba.templates.find((x) => x.name === body.template?.name && x.language === body.template?.language?.code);
    if (!t || t.status !== 'APPROVED') {
      if (t?.status === 'PAUSED') throw new GraphError(400, 132015, 'Template is paused');
      if (t?.status === 'DISABLED') throw new GraphError(400, 132016, 'Template is disabled');
      throw new GraphError(404, 132001, 'Template name does not exist in the translation');
    }
    this.sent.push(body);
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: String(body.to).replace(/\D/g, '') }],
      messages: [{ id: `wamid.${randomBytes(16).toString('base64url')}`, message_status: 'accepted' }],
    };
  }

  /** Control endpoints: not part of the Graph API. */
  private control(method: string, path: string, raw: Buffer, res: ServerResponse, query: Record<string, string>) {
    const body = raw.length ? JSON.parse(raw.toString()) : {};
    const status = /^\/_emulator\/templates\/([^/]+)\/status$/.exec(path);
    if (status && method === 'POST') {
      const found = this.findTemplate(status[1]);
      if (!found) return this.send(res, 404, { error: 'no such template' });
      found.template.status = String(body.status).toUpperCase();
      if (body.reason) found.template.rejected_reason = body.reason;
      return this.send(res, 200, found.template);
    }
    if (path === '/_emulator/faults' && method === 'POST') {
      this.faults.push(body as Fault);
      return this.send(res, 200, { faults: this.faults });
    }
    if (path === '/_emulator/faults' && method === 'DELETE') {
      // ?path=X clears only the faults set for X, so concurrent tests do not clear each other's.
      const only = query.path;
      this.faults = only === undefined ? [] : this.faults.filter((f) => f.path !== only);
      return this.send(res, 200, { faults: this.faults });
    }
    if (path === '/_emulator/calls' && method === 'GET') return this.send(res, 200, { calls: this.calls });
    if (path === '/_emulator/calls' && method === 'DELETE') {
      this.calls.length = 0;
      return this.send(res, 200, { calls: [] });
    }
    if (path === '/_emulator/state' && method === 'GET') {
      return this.send(res, 200, { wabas: [...this.wabas.values()], sent: this.sent });
    }
    this.send(res, 404, { error: 'unknown control endpoint' });
  }
}
