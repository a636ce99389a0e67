/** An error the API answered (`{message, code, details?, request_id}`), or a request that got no answer. */
export class ApiProblem extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly requestId?: string,
    readonly details?: { path?: string; message: string }[],
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | undefined>;

/** The API, called with the signed-in operator's own token: what it may see is exactly what the API lets it. */
export class Api {
  constructor(
    readonly token: string,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  get<T>(path: string, query: Query = {}): Promise<T> {
    return this.call<T>('GET', path, query);
  }

  post<T>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return this.call<T>('POST', path, {}, body, headers);
  }

  /** The address of an API path, beside the console (`/console` → `/v1/…`, a stage prefix kept). */
  url(path: string, query: Query = {}): URL {
    const url = new URL(path.replace(/^\//, ''), document.baseURI);
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
    return url;
  }

  async call<T>(method: string, path: string, query: Query = {}, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url(path, query), {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ApiProblem(`The API could not be reached (${(error as Error).message})`, 0);
    }
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const text = await response.text();
    const parsed = text ? safeJson(text) : undefined;
    if (!response.ok) {
      const error = (parsed ?? {}) as { message?: string; code?: string; request_id?: string; details?: ApiProblem['details'] };
      if (response.status === 401) this.onUnauthorized();
      throw new ApiProblem(
        error.message ?? `HTTP ${response.status}`,
        response.status,
        error.code,
        error.request_id ?? requestId,
        error.details,
      );
    }
    return parsed as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200) };
  }
}
