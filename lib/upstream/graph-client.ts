import { logger } from '#lib/log.ts';

/**
 * The Graph API (upstream) client: typed calls, a timeout on every call, retries with exponential backoff
 * and full jitter on 5xx, 429 and network failures for calls that are safe to repeat, and one error type
 * that says whether the upstream was unavailable or refused the request. The access token is only ever put
 * in the Authorization header; it never reaches a log line or an error message.
 */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
}

export class UpstreamError extends Error {
  constructor(
    /** unavailable: no usable answer (network, timeout, 5xx/429 after retries, our credentials refused). */
    readonly kind: 'unavailable' | 'rejected',
    message: string,
    readonly status?: number,
    readonly graph?: GraphErrorBody,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface GraphClientOptions {
  baseUrl: string;
  token: () => Promise<string>;
  version?: string;
  timeoutMs?: number;
  /** Attempts for idempotent calls, the first included. */
  attempts?: number;
  baseDelayMs?: number;
  fetch?: typeof fetch;
}

export interface GraphPage<T> {
  data: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string; previous?: string };
}

export interface CreateTemplateResult {
  id: string;
  status: string;
  category: string;
}

type Query = Record<string, string | number | undefined>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class GraphClient {
  private readonly version: string;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly baseDelayMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: GraphClientOptions) {
    this.version = options.version ?? 'v23.0';
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.attempts = options.attempts ?? 3;
    this.baseDelayMs = options.baseDelayMs ?? 100;
    this.fetchImpl = options.fetch ?? fetch;
  }

  private url(path: string, query?: Query) {
    const url = new URL(`${this.options.baseUrl.replace(/\/$/, '')}/${this.version}/${path.replace(/^\//, '')}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { query?: Query; json?: unknown; raw?: Uint8Array; headers?: Record<string, string>; idempotent?: boolean; scheme?: 'Bearer' | 'OAuth' } = {},
  ): Promise<T> {
    const idempotent = options.idempotent ?? method === 'GET';
    const attempts = idempotent ? this.attempts : 1;
    const url = this.url(path, options.query);
    let last: UpstreamError | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const started = Date.now();
      let final: UpstreamError | undefined;
      try {
        const token = await this.options.token();
        const headers: Record<string, string> = { authorization: `${options.scheme ?? 'Bearer'} ${token}`, ...options.headers };
        let body: RequestInit["body"] | undefined;
        if (options.json !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(options.json);
        } else if (options.raw) {
          body = options.raw as RequestInit["body"];
        }
        const response = await this.fetchImpl(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
        const text = await response.text();
        let parsed: any;
        try {
          parsed = text ? JSON.parse(text) : {};
        } catch {
          parsed = undefined;
        }
        logger.debug('upstream call', { method, path: url.pathname, status: response.status, attempt, duration_ms: Date.now() - started });
        if (response.ok && parsed !== undefined) return parsed as T;
        const graph = parsed?.error as GraphErrorBody | undefined;
        if (response.status >= 500 || response.status === 429 || parsed === undefined) {
          last = new UpstreamError('unavailable', `Upstream answered ${response.status}`, response.status, graph);
        } else if (response.status === 401 || graph?.code === 190) {
          // Our own credentials were refused: nothing the caller can fix, and repeating will not help.
          final = new UpstreamError('unavailable', 'Upstream refused the service credentials', response.status, graph);
        } else {
          final = new UpstreamError('rejected', graph?.error_user_msg || graph?.message || `Upstream answered ${response.status}`, response.status, graph);
        }
      } catch (error) {
        const name = (error as Error)?.name;
        last = new UpstreamError('unavailable', name === 'TimeoutError' || name === 'AbortError' ? 'Upstream timed out' : 'Upstream unreachable');
      }
      if (final) throw final;
      if (attempt < attempts) await sleep(Math.random() * this.baseDelayMs * 2 ** (attempt - 1));
    }
    logger.warn('upstream unavailable', { method, path: url.pathname, status: last?.status, reason: last?.message });
    throw last ?? new UpstreamError('unavailable', 'Upstream unreachable');
  }

  getWaba(wabaId: string, fields: string[]) {
    return this.request<Record<string, string>>('GET', wabaId, { query: { fields: fields.join(',') } });
  }

  listCatalogs(wabaId: string) {
    return this.request<GraphPage<{ id: string; name?: string; vertical?: string }>>('GET', `${wabaId}/product_catalogs`, {
      query: { fields: 'id,name,vertical' },
    });
  }

  listProducts(catalogId: string, query: { limit: number; after?: string; before?: string; fields: string[] }) {
    return this.request<GraphPage<Record<string, unknown>>>('GET', `${catalogId}/products`, {
      query: { limit: query.limit, after: query.after, before: query.before, fields: query.fields.join(',') },
    });
  }

  listTemplates(wabaId: string, query: Query = {}) {
    return this.request<GraphPage<Record<string, unknown>>>('GET', `${wabaId}/message_templates`, { query });
  }

  getTemplate(templateId: string, fields?: string[]) {
    return this.request<Record<string, unknown>>('GET', templateId, { query: fields ? { fields: fields.join(',') } : {} });
  }

  createTemplate(wabaId: string, body: Record<string, unknown>) {
    // Not retried: a repeated create could register the template twice or report a false duplicate.
    return this.request<CreateTemplateResult>('POST', `${wabaId}/message_templates`, { json: body, idempotent: false });
  }

  editTemplate(templateId: string, body: Record<string, unknown>) {
    // Editing to the same content twice leaves the same state, so it is safe to retry.
    return this.request<{ success: boolean }>('POST', templateId, { json: body, idempotent: true });
  }

  /** Resumable upload (upstream-facts §1.8): opens a session, sends the bytes, returns the header handle. */
  async uploadMedia(appId: string, file: { name: string; type: string; bytes: Uint8Array }): Promise<string> {
    const session = await this.request<{ id: string }>('POST', `${appId}/uploads`, {
      query: { file_name: file.name, file_length: file.bytes.length, file_type: file.type },
      idempotent: false,
    });
    const result = await this.request<{ h: string }>('POST', session.id, {
      raw: file.bytes,
      headers: { file_offset: '0', 'content-type': 'application/octet-stream' },
      scheme: 'OAuth',
      idempotent: true,
    });
    return result.h;
  }
}
