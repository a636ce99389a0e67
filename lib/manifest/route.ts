import type * as v from 'valibot';
import type { ErrorDetail } from '#lib/domain/shared/errors.ts';
import type { Needs } from './needs.ts';

/**
 * The route manifest: everything about each endpoint, once. A handler (functions/http/) is its route plus one
 * use case; the CDK stack (function, grants, settings), the local server and the OpenAPI document read the
 * same entry. Each route is its own export so a function's bundle carries only its own schemas.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface MultipartSpec {
  /** The part holding the JSON body. */
  jsonPart: string;
  /** The part holding the file. */
  filePart: string;
  /** Larger bodies get 413 before they are parsed. */
  maxBytes: number;
}

export interface DryRunSpec {
  /** What a dry run answers (the OpenAPI document shows it beside the route's response). */
  response: v.GenericSchema;
  /**
   * How a dry run reads its body. Absent: by the body's schema, and a body that fails it is answered at once
   * as `{valid: false, errors, review_warnings: []}` (decisions §18). Given: the route's own reading (a send's
   * recipients one by one, decisions §12), whose `problems` are a 400.
   */
  read?: (raw: unknown) => { problems: ErrorDetail[] } | object;
}

/**
 * A request to try the route with (`events/<name>.json`, the deployed-bundle and response-shape tests): against
 * the demo fixture, with a token of one of its callers (local/sample-events.ts mints them), and the status
 * it answers there.
 */
export interface SampleRequest {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  token?: 'acme' | 'delta';
  signedByMeta?: boolean;
  expect: number;
}

export interface RouteRequest {
  path?: v.GenericSchema;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
  /** An absent body counts as `{}` (every body field is optional). */
  bodyOptional?: boolean;
  /** Also accepts multipart/form-data: a JSON part validated like a JSON body, plus one file. */
  multipart?: MultipartSpec;
  /** Message of the 400 when the request fails validation (the spec's wording where it has one). */
  invalidMessage?: string;
  /** One message for every problem of the query, a bad client_id too (the spec's wording for that route). */
  queryMessage?: string;
  /** The route has `?dry_run=true` (httpFunction runs the function's dry run instead of its use case). */
  dryRun?: DryRunSpec;
  /** The route takes an `Idempotency-Key` header (decisions §12), checked before the handler runs. */
  idempotencyKey?: boolean;
  /** The body must carry Meta's signature (decisions §13); the handler gets it raw once verified. */
  signedBy?: 'meta';
  /**
   * Path parameters naming what must be the caller's own (a DID of its hierarchy, a template record): an agent
   * naming another tenant's is refused (403 / 404) before the body is read (lib/http/middlewares/owned-path.ts).
   */
  owned?: OwnedPath;
}

/** The names of the path parameters that hold a DID and a template record id. */
export interface OwnedPath {
  did?: string;
  record?: string;
}

/** The types a route's body may be rendered as besides JSON. */
export type RenderedType = 'text/csv' | 'application/pdf';

export interface RouteDef {
  /** Logical id, also the CDK construct id of the function. */
  name: string;
  method: HttpMethod;
  /**
   * API Gateway path template, `{param}` for path parameters. API Gateway refuses two routes with differently
   * named variables at the same level, so the segment after /v1/templates/ is `{id}` everywhere (a DID for
   * create and edit, a record id for channel-campaigns); `params` says which, for the OpenAPI document.
   */
  path: string;
  params?: Record<string, string>;
  /** Function source relative to the repo root; it exports `handler`. */
  entry: string;
  summary: string;
  success: number;
  /** The success body's type: JSON unless said otherwise. */
  produces?: 'text/plain' | 'text/html';
  /**
   * The success body's `data` rows also as CSV, when the caller's `Accept` asks for `text/csv`: these columns
   * in this order (a header row first), numbers of `decimals`' columns with that many decimals.
   */
  csv?: { columns: readonly string[]; decimals: Readonly<Record<string, number>> };
  /**
   * Other types the success body is also rendered as, when the caller's `Accept` asks (its first type of these,
   * JSON or any): the handler hands in each one's renderer (`BodyMiddlewares.renderers`), so only its bundle
   * carries them. A PDF is answered base64 with `isBase64Encoded`, as API Gateway wants binary bodies.
   */
  renders?: readonly RenderedType[];
  /** The success body's shape (the OpenAPI document shows it; the HTTP tests check every answer against it). */
  response: v.GenericSchema;
  /** A request to try the route with. */
  sample: SampleRequest;
  /**
   * False for public documents and for Meta's webhooks (which prove themselves by signature); everything else
   * sits behind the JWT authorizer.
   */
  auth: boolean;
  /** Why a route without the authorizer may be public (the stack's cdk-nag acknowledgement says it). */
  publicBecause?: string;
  /** Files the function serves, copied next to its bundle (paths relative to the repo root). */
  files?: readonly { from: string; to: string }[];
  request?: RouteRequest;
  /** Error statuses this route documents besides 401 and 500. */
  errors: readonly number[];
  needs: Needs;
  /**
   * Served at its function's Lambda function URL (AuthType NONE) in place of the HTTP API, where the function also
   * answers these routes of its path: Meta's webhook intake (issue 54, docs/high-tier.md §3), which no request
   * quota of API Gateway's bounds. Locally the API server serves it as the URL does.
   */
  functionUrl?: { alsoServes: readonly RouteDef[] };
}

/** The demo fixture's ids the samples use (fixtures/demo.json). */
export const SAMPLE = { record: '65a1b2c3d4e5f60718293a4b', did: '5215550001', unknownId: '00000000-0000-4000-8000-000000000000' };

/** The path parameter holding a template record id. */
export const RECORD_ID = { id: 'The template record id (messageTemplateId)' };
