import { UpstreamRejected, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import type { Log } from '#lib/domain/shared/log.ts';
import { settingDefault } from '#lib/config.ts';

/**
 * The Graph API's wire: a timeout on every call, retries with exponential backoff and full jitter on 5xx,
 * 429 and network failures for calls that are safe to repeat, and the domain's two upstream errors:
 * UpstreamUnavailable (no usable answer) or UpstreamRejected (a refusal, with Graph's message for a person).
 * The access token is only ever put in the Authorization header; it never reaches a log line or an error.
 */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
}

/** Graph's "Content in This Language Already Exists" (upstream-facts §6.2). */
const DUPLICATE_SUBCODE = 2388024;

export interface GraphClientOptions {
  baseUrl: string;
  token: () => Promise<string>;
  /** The Graph API version every call names (`v24.0`); GRAPH_API_VERSION's default when not given. */
  version?: string;
  timeoutMs?: number;
  /** How long an `exchange` (never repeated, so its lost answer costs more) waits; `timeoutMs` when absent. */
  exchangeTimeoutMs?: number;
  /** Attempts for idempotent calls, the first included. */
  attempts?: number;
  baseDelayMs?: number;
  fetch?: typeof fetch;
  log: Log;
}

type Query = Record<string, string | number | undefined>;
type Method = 'GET' | 'POST' | 'DELETE';

interface RequestOptions {
  query?: Query;
  json?: unknown;
  raw?: Uint8Array;
  headers?: Record<string, string>;
  idempotent?: boolean;
  scheme?: 'Bearer' | 'OAuth';
}

/** Why a try had no usable answer: Graph's status when it answered, and the reason for the log. */
type Failure = { status?: number; reason: string };

/** What one try of a call came to: Graph's answer, a failure worth another try, or a refusal that ends the call. */
type Attempt = { answer: unknown } | { failure: Failure } | { refusal: Error };

/** Socket errors raised before any byte of the request left: nothing can have reached the upstream. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Graph's answer as JSON (`{}` when empty), or undefined when it is not JSON. */
function parseAnswer(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class GraphClient {
  private readonly version: string;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly baseDelayMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: GraphClientOptions) {
    this.version = options.version ?? settingDefault('GRAPH_API_VERSION');
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

  /**
   * One POST of JSON, never repeated (a message must not be sent twice): Graph's status and parsed body, or
   * `network` when no connection was made (safe to try again), or `timeout` when the request may have arrived.
   */
  async exchange(path: string, json: unknown): Promise<{ status: number; body: unknown } | { failure: 'network' | 'timeout' }> {
    const url = this.url(path);
    const started = Date.now();
    // Outside the try: missing credentials are not a lost request (nothing left), they are the answer.
    const token = await this.options.token();
    try {
      const response = await this.fetchImpl(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(json),
        signal: AbortSignal.timeout(this.options.exchangeTimeoutMs ?? this.timeoutMs),
      });
      const body = parseAnswer(await response.text());
      this.options.log.debug('upstream call', {
        method: 'POST',
        path: url.pathname,
        status: response.status,
        duration_ms: Date.now() - started,
      });
      return { status: response.status, body };
    } catch (error) {
      const code = ((error as { cause?: { code?: string } })?.cause?.code ?? '') as string;
      return { failure: NOT_CONNECTED.has(code) ? 'network' : 'timeout' };
    }
  }

  /** One call; resolves with the parsed JSON answer, which the caller validates (lib/adapters/graph/graph-upstream.ts). */
  async request(method: Method, path: string, options: RequestOptions = {}): Promise<unknown> {
    const idempotent = options.idempotent ?? method === 'GET';
    const attempts = idempotent ? this.attempts : 1;
    const url = this.url(path, options.query);
    let last: Failure | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await this.attempt(method, url, options, attempt);
      if ('answer' in outcome) return outcome.answer;
      if ('refusal' in outcome) throw outcome.refusal;
      last = outcome.failure;
      if (attempt < attempts) await sleep(Math.random() * this.baseDelayMs * 2 ** (attempt - 1));
    }
    this.options.log.warn('upstream unavailable', { method, path: url.pathname, status: last?.status, reason: last?.reason });
    throw new UpstreamUnavailable();
  }

  /** One try of a call, logged: Graph's answer, a failure worth another try, or a refusal that ends the call. */
  private async attempt(method: Method, url: URL, options: RequestOptions, attempt: number): Promise<Attempt> {
    const started = Date.now();
    // Outside the try: missing credentials are the answer (502 saying so), not a reason to try again.
    const token = await this.options.token();
    try {
      const { headers, body } = requestContent(options, token);
      const response = await this.fetchImpl(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
      const parsed = parseAnswer(await response.text());
      this.options.log.debug('upstream call', {
        method,
        path: url.pathname,
        status: response.status,
        attempt,
        duration_ms: Date.now() - started,
      });
      return this.judge(method, url, response, parsed);
    } catch (error) {
      const name = (error as Error)?.name;
      return { failure: { reason: name === 'TimeoutError' || name === 'AbortError' ? 'Upstream timed out' : 'Upstream unreachable' } };
    }
  }

  /** What Graph's answer comes to: itself when it is good JSON, else a failure to try again or a refusal. */
  private judge(method: Method, url: URL, response: Response, parsed: unknown): Attempt {
    if (response.ok && parsed !== undefined) return { answer: parsed };
    const graph = (parsed as { error?: GraphErrorBody } | undefined)?.error;
    if (response.status >= 500 || response.status === 429 || parsed === undefined) {
      return { failure: { status: response.status, reason: `Upstream answered ${response.status}` } };
    }
    if (response.status === 401 || graph?.code === 190) {
      // Our own credentials were refused: nothing the caller can fix, and repeating will not help.
      this.options.log.warn('upstream refused the service credentials', { method, path: url.pathname, status: response.status });
      return { refusal: new UpstreamUnavailable() };
    }
    const message = graph?.error_user_msg || graph?.message || `Upstream answered ${response.status}`;
    return { refusal: new UpstreamRejected(message, graph?.error_subcode === DUPLICATE_SUBCODE ? 'duplicate_template' : undefined) };
  }
}

/** A call's headers and body: the credentials first, then the caller's headers, and JSON or raw bytes. */
function requestContent(
  options: RequestOptions,
  token: string,
): { headers: Record<string, string>; body: RequestInit['body'] | undefined } {
  const headers: Record<string, string> = { authorization: `${options.scheme ?? 'Bearer'} ${token}`, ...options.headers };
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    return { headers, body: JSON.stringify(options.json) };
  }
  return { headers, body: options.raw ? (options.raw as RequestInit['body']) : undefined };
}
