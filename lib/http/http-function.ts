import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { Caller } from '#lib/domain/shared/caller.ts';
import type { ErrorDetail } from '#lib/domain/shared/errors.ts';
import type { OwnershipLookup } from '#lib/domain/shared/tenancy.ts';
import { inInvocation } from '#lib/log/logger.ts';
import type { MultipartSpec, RenderedType, RouteDef } from '#lib/manifest/route.ts';
import { wantedType } from './accept.ts';
import { csvOf, wantsCsv } from './csv.ts';
import { jsonResponse, renderedResponse, textResponse, type HttpMiddleware, type ServiceContext, type UploadedFile } from './context.ts';
import { errorResponse } from './error-response.ts';
import { authenticateCaller } from './middlewares/authenticate-caller.ts';
import { jsonBody } from './middlewares/json-body.ts';
import { ownedPath } from './middlewares/owned-path.ts';
import { requestContext } from './middlewares/request-context.ts';
import { type CrossOriginPolicies, securityHeaders } from './middlewares/security-headers.ts';
import { validateRequest } from './middlewares/validate-request.ts';

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;
type Req<R> = R extends { request: infer Q } ? Q : object;

/** What a handler gets: the route's validated input, the caller and the request id. */
export interface RouteInput<R extends RouteDef> {
  path: Out<Req<R> extends { path: infer S } ? S : undefined>;
  query: Out<Req<R> extends { query: infer S } ? S : undefined>;
  body: Out<Req<R> extends { body: infer S } ? S : undefined>;
  caller: Caller;
  requestId: string;
  /** The file part, on routes that accept multipart bodies. */
  file?: UploadedFile;
  /** The `Idempotency-Key` header, on routes that take one. */
  idempotencyKey?: string;
  /** On routes signed by Meta, the body as it arrived (its signature verified). */
  rawBody?: string;
  /** The Lambda context (its remaining time). */
  context: ServiceContext;
}

type DryRunOf<R> = Req<R> extends { dryRun: infer D } ? D : never;
type DryRunRead<R> =
  DryRunOf<R> extends { read: (raw: unknown) => infer T } ? Exclude<T, { problems: ErrorDetail[] }> : RouteInput<R & RouteDef>['body'];

/** What a dry run gets: the route's input, its body as the dry run reads it (route.request.dryRun). */
export type DryRunInput<R extends RouteDef> = Omit<RouteInput<R>, 'body'> & { body: DryRunRead<R> };

/**
 * Middlewares handed in by the routes that use them, so no other bundle carries them: the multipart parser
 * (routes that accept files) and Meta's signature check (with the secrets client it needs).
 */
export interface BodyMiddlewares {
  multipart?: (spec: MultipartSpec) => HttpMiddleware;
  signature?: () => HttpMiddleware;
  /** Where the tenant's check looks up what the path names (routes with `request.owned`). */
  owners?: OwnershipLookup;
  /** A page's own Content-Security-Policy directives (routes that produce text/html), instead of the API's. */
  contentSecurityPolicy?: Record<string, string | false>;
  /** A page's cross-origin policies where they must differ from isolation (the console with Facebook's SDK). */
  crossOrigin?: CrossOriginPolicies;
  /** How the body is rendered as each of the route's `renders` types (a CSV's text, a PDF's bytes). */
  renderers?: Partial<Record<RenderedType, (body: never) => string | Uint8Array | Promise<string | Uint8Array>>>;
}

/** A function's use cases: what it does, and on routes with `?dry_run=true`, what it checks instead. */
export interface UseCases<R extends RouteDef> {
  run: (input: RouteInput<R>) => Promise<unknown> | unknown;
  dryRun?: (input: DryRunInput<R>) => Promise<unknown> | unknown;
}

/**
 * An HTTP function: its route (lib/manifest/routes/) plus one use case that returns the response body (and on routes
 * with a dry run, the use case that checks instead). The route decides everything else: authentication,
 * parsing, validation, which use case runs and the success status; errors become the contract's error body
 * and every response carries the security headers.
 */
export function httpFunction<const R extends RouteDef>(route: R, useCases: UseCases<R> | UseCases<R>['run'], extra: BodyMiddlewares = {}) {
  const { run, dryRun } = typeof useCases === 'function' ? { run: useCases, dryRun: undefined } : useCases;
  if (route.request?.dryRun && !dryRun) throw new Error(`${route.name} has a dry run: pass its use case`);
  const core = async (event: APIGatewayProxyEventV2, context: ServiceContext): Promise<APIGatewayProxyStructuredResultV2> => {
    const input = context.input ?? {};
    const routeInput = routeInputOf(context);
    const body = !input.dryRun
      ? await run(routeInput as RouteInput<R>)
      : input.invalid
        ? // A template whose body fails its schema: the dry run's answer without a look further (decisions §18).
          { valid: false, errors: input.invalid, review_warnings: [] }
        : await dryRun?.(routeInput as DryRunInput<R>);
    return responseOf(route, extra, event, body, context.requestId);
  };
  const handler = withMiddlewares(route, extra, core);
  // Each invocation logs through a logger of its own, also where many run at once in one process (the local stack).
  return (event: APIGatewayProxyEventV2, context: Context) => inInvocation(context, {}, () => handler(event, context as ServiceContext));
}

/** What the middlewares made of the request, as a use case reads it. */
function routeInputOf(context: ServiceContext) {
  const input = context.input ?? {};
  return {
    path: input.path,
    query: input.query,
    body: input.body,
    caller: context.caller as Caller,
    requestId: context.requestId,
    file: context.file,
    idempotencyKey: input.idempotencyKey,
    rawBody: context.rawBody,
    context,
  };
}

/** The use case's body as the route answers it: the page it produces, a rendered type or CSV the caller accepts, else JSON. */
async function responseOf(
  route: RouteDef,
  extra: BodyMiddlewares,
  event: APIGatewayProxyEventV2,
  body: unknown,
  requestId: string,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (route.produces) return textResponse(route.success, String(body), requestId, route.produces);
  const rendered = route.renders && wantedType(event.headers?.accept, route.renders);
  const render = rendered && extra.renderers?.[rendered];
  if (rendered && render) return renderedResponse(route.success, rendered, await render(body as never), requestId);
  if (route.csv && wantsCsv(event.headers?.accept))
    return textResponse(route.success, csvOf((body as { data: Record<string, unknown>[] }).data, route.csv), requestId, 'text/csv');
  return jsonResponse(route.success, body, requestId);
}

/** The use case behind the middlewares the route asks for, in the order each must run. */
function withMiddlewares(
  route: RouteDef,
  extra: BodyMiddlewares,
  core: (event: APIGatewayProxyEventV2, context: ServiceContext) => Promise<APIGatewayProxyStructuredResultV2>,
) {
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ServiceContext>(core)
    .use(requestContext())
    .use(securityHeaders(extra.contentSecurityPolicy, extra.crossOrigin))
    .use(errorResponse());
  // Authenticate before touching the body, so an anonymous caller learns nothing about validation.
  if (route.auth) handler.use(authenticateCaller());
  const spec = route.request;
  // The tenant's check before the body: another tenant's DID is a 403 whatever the body holds.
  if (spec?.owned) {
    if (!extra.owners) throw new Error(`${route.name} names what must be the caller's own: pass its lookup`);
    handler.use(ownedPath(spec, extra.owners));
  }
  if (spec?.signedBy) {
    if (!extra.signature) throw new Error(`${route.name} takes signed bodies: pass the signature middleware`);
    handler.use(extra.signature());
  }
  if (spec?.body) {
    if (spec.multipart) {
      if (!extra.multipart) throw new Error(`${route.name} accepts multipart bodies: pass the multipart middleware`);
      handler.use(extra.multipart(spec.multipart));
    }
    handler.use(jsonBody());
  }
  handler.use(validateRequest(spec));
  return handler;
}
