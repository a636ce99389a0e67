import * as v from 'valibot';
import { inject } from 'vitest';
import { routeFor } from '../../local/api-server.ts';
import { mintToken, type TokenOptions } from '../../local/keys.ts';
import type { RequestMeter } from '../../local/request-meter.ts';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** The stack this file talks to: the test run's shared one, or one of the file's own (`useStack`). */
let own: { apiUrl: string; graphUrl: string; readonly out?: string; readonly log?: string } | undefined;

/** Points `call`, `emulator` and the `/_local` helpers of this file at a stack of its own (a child process). */
export function useStack(stack: { apiUrl: string; graphUrl: string; readonly out?: string; readonly log?: string }) {
  own = stack;
}

export const apiUrl = () => own?.apiUrl ?? inject('apiUrl');

/** What one API request cost on the local stack's DynamoDB and SQS (by its x-request-id). */
export async function meterOf(response: ApiResponse): Promise<RequestMeter> {
  const requestId = response.headers.get('x-request-id');
  return (await (await fetch(`${apiUrl()}/_local/requests/${requestId}/meter`)).json()) as RequestMeter;
}
/** The messages one API request put on the queues (the dispatch jobs of a send), in order. */
export async function queuedBy(response: ApiResponse): Promise<Record<string, any>[]> {
  const requestId = response.headers.get('x-request-id');
  return (await (await fetch(`${apiUrl()}/_local/requests/${requestId}/queued`)).json()) as Record<string, any>[];
}
export const graphUrl = () => own?.graphUrl ?? inject('graphUrl');

export async function call<T = any>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${apiUrl()}${path}`, { method, headers, body: body as RequestInit['body'] | undefined });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  if (response.ok) assertResponseShape(method, path, parsed, text);
  if (response.status >= 500) printErrorsOf(response.headers.get('x-request-id'));
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/**
 * A child stack's error lines of one request, printed when it answered 5xx: a run on another machine (CI) then
 * shows why, where the answer alone says only `internal_error`.
 */
function printErrorsOf(requestId: string | null) {
  if (!own || !requestId) return;
  const lines = `${own.out ?? ''}\n${own.log ?? ''}`.split('\n').filter((line) => line.includes(requestId));
  if (lines.length > 0) console.error(`the stack's log of request ${requestId}:\n${lines.join('\n')}`);
}

/**
 * Every success the tests see has its route's shape (lib/manifest/route.ts `response`, or the dry run's): the OpenAPI
 * document shows those shapes, so a test fails when an answer leaves them.
 */
function assertResponseShape(method: string, pathAndQuery: string, body: unknown, text: string) {
  const url = new URL(pathAndQuery, 'http://api');
  const { route } = routeFor(method.toUpperCase(), url.pathname);
  if (!route) return;
  const dryRun = url.searchParams.get('dry_run') === 'true' ? route.request?.dryRun : undefined;
  const result = v.safeParse(dryRun?.response ?? route.response, route.produces ? text : body);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);
    throw new Error(`${route.name} answered outside its response schema: ${problems.join('; ')}`);
  }
}

export const token = (options: TokenOptions) => mintToken(options);

/** Common tokens of the demo fixture. */
export const tokens = {
  acme: () => mintToken({ clientId: 7, campaigns: [31, 32], sub: 'alice' }),
  beta: () => mintToken({ clientId: 8, campaigns: [41], sub: 'bob' }),
  gamma: () => mintToken({ clientId: 9, campaigns: [51], sub: 'gina' }),
  delta: () => mintToken({ clientId: 10, campaigns: [], sub: 'dan' }),
  bsp: () => mintToken({ clientId: 7, bsp: true, sub: 'bsp-operator' }),
};

/** Asserts the contract's error body (decisions §2) and returns it. */
export function expectErrorShape(response: ApiResponse, status: number, code?: string) {
  const body = response.body as Record<string, unknown>;
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(body)}`);
  }
  if (typeof body?.message !== 'string' || typeof body?.code !== 'string' || typeof body?.request_id !== 'string') {
    throw new Error(`not the error shape: ${JSON.stringify(body)}`);
  }
  if (code && body.code !== code) throw new Error(`expected code ${code}, got ${String(body.code)}`);
  if (!response.headers.get('content-type')?.includes('application/json')) throw new Error('error is not JSON');
  return body as { message: string; code: string; details?: { path: string; message: string }[]; request_id: string };
}

/** Control of the Graph API emulator. */
export async function emulator(method: string, path: string, body?: unknown) {
  const response = await fetch(`${graphUrl()}/_emulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json() as Promise<any>;
}
