import * as v from 'valibot';
import type { ErrorDetail } from '#lib/domain/errors.ts';
import type { QUEUES } from '#lib/queues.ts';
import { DidPath, ListCatalogsQuery, ListCatalogsResponse, ListProductsQuery, ListProductsResponse } from '#lib/schemas/catalogs.ts';
import { ListChannelsQuery, ListChannelsResponse } from '#lib/schemas/channels.ts';
import {
  CreateTemplateBody,
  CreateTemplateQuery,
  CreateTemplateResponse,
  DidTemplatePath,
  EditTemplateBody,
  EditTemplateQuery,
  EditTemplateResponse,
  TemplateDidPath,
  TemplateDryRunResponse,
} from '#lib/schemas/create-template.ts';
import {
  CancelSendResponse,
  dryRunInput,
  ListRecipientsQuery,
  ListRecipientsResponse,
  ListSendsQuery,
  ListSendsResponse,
  ResendAcceptedResponse,
  ResendBody,
  resendInput,
  SendAcceptedResponse,
  SendBody,
  SendDryRunResponse,
  SendIdPath,
  SendQuery,
  SendStatusResponse,
} from '#lib/schemas/send.ts';
import { BudgetBody, BudgetResponse, ClientIdPath } from '#lib/schemas/budget.ts';
import {
  AddSuppressionBody,
  AddSuppressionResponse,
  ListSuppressionsQuery,
  ListSuppressionsResponse,
  PhonePath,
  RemoveSuppressionQuery,
  RemoveSuppressionResponse,
} from '#lib/schemas/suppression.ts';
import { USAGE_CSV, UsageQuery, UsageResponse } from '#lib/schemas/usage.ts';
import { SyncBody, SyncStartedResponse, SyncStatusQuery, SyncStatusResponse } from '#lib/schemas/sync.ts';
import { ReceiveMetaResponse, VerifyMetaQuery } from '#lib/schemas/meta-webhooks.ts';
import {
  AssignmentBody,
  AssignmentResponse,
  BulkStatusBody,
  BulkStatusResponse,
  GroupedAssignmentsResponse,
  ListTemplatesQuery,
  ListTemplatesResponse,
  RecordIdPath,
  RemoveAssignmentQuery,
} from '#lib/schemas/templates.ts';
import {
  DeliveryIdPath,
  GetWebhookQuery,
  ListDeliveriesQuery,
  ListDeliveriesResponse,
  ReplayDeliveryResponse,
  RotateSecretBody,
  SetWebhookBody,
  WebhookConfigResponse,
} from '#lib/schemas/webhook.ts';

/**
 * The route manifest: everything about each endpoint, once. A handler (functions/http/) is its route plus one
 * use case; the CDK stack (function, grants, settings), the local server and the OpenAPI document read the
 * same entry. Each route is its own export so a function's bundle carries only its own schemas.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueueKey = keyof typeof QUEUES;

/** What a function may use: the stack grants exactly this, and a test fails when a bundle uses more. */
export interface Needs {
  /** Access to the service's table. */
  table: 'none' | 'read' | 'write';
  /** Queues the function sends jobs to. */
  queues?: readonly QueueKey[];
  /** Puts service events on the event bus. */
  bus?: boolean;
  /** Calls the Graph API (its URL, app id and the token secret). */
  upstream?: boolean;
  /** Reads the Meta app's webhook secrets (decisions §13). */
  metaApp?: boolean;
  /** Paces messages per sending number (MESSAGES_PER_SECOND, decisions §12). */
  pacing?: boolean;
  /** Makes one-time schedules of sends (decisions §22): the schedule group, its target queue and role. */
  schedules?: boolean;
}

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
}

/** The demo fixture's ids the samples use (fixtures/demo.json). */
export const SAMPLE = { record: '65a1b2c3d4e5f60718293a4b', did: '5215550001', unknownId: '00000000-0000-4000-8000-000000000000' };

const RECORD_ID = { id: 'The template record id (messageTemplateId)' };

export const ListClientMsgChannels = {
  name: 'ListClientMsgChannels',
  method: 'GET',
  path: '/v1/client-msg-channels',
  entry: 'functions/http/list-client-msg-channels.ts',
  summary: 'List client messaging channels',
  success: 200,
  response: ListChannelsResponse,
  sample: { token: 'acme', expect: 200 },
  auth: true,
  request: { query: ListChannelsQuery, queryMessage: 'client_id, deleted, page or size not valid numbers/booleans' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const PutWebhookConfig = {
  name: 'PutWebhookConfig',
  method: 'PUT',
  path: '/v1/webhook/config',
  entry: 'functions/http/put-webhook-config.ts',
  summary: "Create or update the client's webhook configuration",
  success: 200,
  response: WebhookConfigResponse,
  sample: { token: 'delta', body: { url: 'https://hooks.example.com/delta', active: false }, expect: 200 },
  auth: true,
  request: { body: SetWebhookBody },
  errors: [400, 403],
  needs: { table: 'write' },
} satisfies RouteDef;

export const GetWebhookConfig = {
  name: 'GetWebhookConfig',
  method: 'GET',
  path: '/v1/webhook/config',
  entry: 'functions/http/get-webhook-config.ts',
  summary: "Get the client's webhook configuration",
  success: 200,
  response: WebhookConfigResponse,
  sample: { token: 'delta', expect: 200 },
  auth: true,
  request: { query: GetWebhookQuery },
  errors: [400, 403, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

export const RotateWebhookSecret = {
  name: 'RotateWebhookSecret',
  method: 'POST',
  path: '/v1/webhook/config/rotate-secret',
  entry: 'functions/http/rotate-webhook-secret.ts',
  summary: 'Make a new signing secret; for 24 hours deliveries are signed with the old and the new one',
  success: 200,
  response: WebhookConfigResponse,
  sample: { token: 'delta', expect: 200 },
  auth: true,
  request: { body: RotateSecretBody, bodyOptional: true },
  errors: [400, 403, 404],
  needs: { table: 'write' },
} satisfies RouteDef;

export const ListWebhookDeliveries = {
  name: 'ListWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhook/deliveries',
  entry: 'functions/http/list-webhook-deliveries.ts',
  summary: 'The acting client’s webhook deliveries, newest first: attempts, last answer, next attempt, outcome',
  success: 200,
  response: ListDeliveriesResponse,
  sample: { token: 'delta', query: { size: '10' }, expect: 200 },
  auth: true,
  request: { query: ListDeliveriesQuery, invalidMessage: 'client_id, status, page or size not valid' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const ReplayWebhookDelivery = {
  name: 'ReplayWebhookDelivery',
  method: 'POST',
  path: '/v1/webhook/deliveries/{id}/replay',
  params: { id: 'The delivery id (its event’s id, the webhook-id receivers saw)' },
  entry: 'functions/http/replay-webhook-delivery.ts',
  summary: 'Queue a delivery’s event again for the client’s current configuration, with the same webhook-id',
  success: 202,
  response: ReplayDeliveryResponse,
  sample: { token: 'delta', path: { id: SAMPLE.unknownId }, expect: 404 },
  auth: true,
  request: { path: DeliveryIdPath },
  errors: [400, 404, 409],
  needs: { table: 'write', queues: ['webhookEvents'] },
} satisfies RouteDef;

export const ListCatalogs = {
  name: 'ListCatalogs',
  method: 'GET',
  path: '/v1/catalogs/{did}',
  entry: 'functions/http/list-catalogs.ts',
  summary: "List the commerce catalogs of the DID's WABA",
  success: 200,
  response: ListCatalogsResponse,
  sample: { token: 'acme', path: { did: SAMPLE.did }, expect: 200 },
  auth: true,
  request: { path: DidPath, query: ListCatalogsQuery },
  errors: [400, 403, 502],
  needs: { table: 'read', upstream: true },
} satisfies RouteDef;

export const ListProducts = {
  name: 'ListProducts',
  method: 'GET',
  path: '/v1/catalogs/{did}/products',
  entry: 'functions/http/list-products.ts',
  summary: 'List the products of one of the WABA’s catalogs, cursor-paged',
  success: 200,
  response: ListProductsResponse,
  sample: { token: 'acme', path: { did: SAMPLE.did }, query: { catalog_id: 'cat-1', limit: '5' }, expect: 200 },
  auth: true,
  request: { path: DidPath, query: ListProductsQuery, invalidMessage: 'Invalid query parameters' },
  errors: [400, 403, 404, 502],
  needs: { table: 'read', upstream: true },
} satisfies RouteDef;

export const ListTemplates = {
  name: 'ListTemplates',
  method: 'GET',
  path: '/v1/templates',
  entry: 'functions/http/list-templates.ts',
  summary: "List a client's templates, one entry per template with its campaigns and channels",
  success: 200,
  response: ListTemplatesResponse,
  sample: { token: 'acme', query: { size: '5' }, expect: 200 },
  auth: true,
  request: { query: ListTemplatesQuery, invalidMessage: 'Invalid query parameters' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const ChangeTemplateStatus = {
  name: 'ChangeTemplateStatus',
  method: 'PATCH',
  path: '/v1/templates/status',
  entry: 'functions/http/change-template-status.ts',
  summary: 'Enable or disable many template records',
  success: 200,
  response: BulkStatusResponse,
  sample: { token: 'acme', body: { templates: [{ id: SAMPLE.record, action: 'enable' }] }, expect: 200 },
  auth: true,
  request: { body: BulkStatusBody, invalidMessage: 'Invalid bulk status request' },
  errors: [400, 403],
  needs: { table: 'write' },
} satisfies RouteDef;

export const CreateTemplate = {
  name: 'CreateTemplate',
  method: 'POST',
  path: '/v1/templates/{id}',
  params: { id: 'The DID (wa_id) the template is created for' },
  entry: 'functions/http/create-template.ts',
  summary: 'Create a template at the upstream and register its record (JSON, or multipart with a header file)',
  success: 200,
  response: CreateTemplateResponse,
  sample: {
    token: 'acme',
    path: { id: SAMPLE.did },
    query: { dry_run: 'true' },
    body: {
      name: 'pickup_ready',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order is ready to collect at the store.', example: { body_text: [['Ana']] } }],
    },
    expect: 200,
  },
  auth: true,
  request: {
    owned: { did: 'id' },
    path: TemplateDidPath,
    query: CreateTemplateQuery,
    body: CreateTemplateBody,
    // Multipart bodies over 4 MiB get 413 (decisions §4).
    multipart: { jsonPart: 'template', filePart: 'file', maxBytes: 4 * 1024 * 1024 },
    invalidMessage: 'Template validation failed',
    dryRun: { response: TemplateDryRunResponse },
  },
  errors: [400, 403, 409, 413, 502],
  needs: { table: 'write', upstream: true, bus: true },
} satisfies RouteDef;

export const EditTemplate = {
  name: 'EditTemplate',
  method: 'PUT',
  path: '/v1/templates/{id}/{messageTemplateId}',
  params: { id: 'The DID (wa_id) of the template’s WABA', messageTemplateId: 'The template record id' },
  entry: 'functions/http/edit-template.ts',
  summary: 'Edit a template at the upstream (components replace the existing list)',
  success: 200,
  response: EditTemplateResponse,
  sample: {
    token: 'acme',
    path: { id: SAMPLE.did, messageTemplateId: SAMPLE.record },
    query: { dry_run: 'true' },
    body: {
      components: [{ type: 'BODY', text: 'Your order {{1}} is on its way and arrives tomorrow.', example: { body_text: [['A-1']] } }],
    },
    expect: 200,
  },
  auth: true,
  request: {
    owned: { did: 'id', record: 'messageTemplateId' },
    path: DidTemplatePath,
    query: EditTemplateQuery,
    body: EditTemplateBody,
    invalidMessage: 'Template validation failed',
    dryRun: { response: TemplateDryRunResponse },
  },
  errors: [400, 403, 404, 502],
  needs: { table: 'write', upstream: true },
} satisfies RouteDef;

export const SyncTemplates = {
  name: 'SyncTemplates',
  method: 'POST',
  path: '/v1/templates/sync-from-meta',
  entry: 'functions/http/sync-templates.ts',
  summary: "Start a synchronization of the client's templates from the upstream (one at a time)",
  success: 200,
  response: SyncStartedResponse,
  sample: { token: 'acme', body: {}, expect: 200 },
  auth: true,
  request: { body: SyncBody, bodyOptional: true },
  errors: [400, 403, 409, 502],
  needs: { table: 'write', upstream: true, queues: ['sync'] },
} satisfies RouteDef;

export const GetSyncStatus = {
  name: 'GetSyncStatus',
  method: 'GET',
  path: '/v1/templates/sync-from-meta',
  entry: 'functions/http/get-sync-status.ts',
  summary: "The client's synchronization: the running one's progress and the last run's result",
  success: 200,
  response: SyncStatusResponse,
  sample: { token: 'acme', expect: 200 },
  auth: true,
  request: { query: SyncStatusQuery, invalidMessage: 'client_id must be a whole number' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const GetChannelCampaignsGrouped = {
  name: 'GetChannelCampaignsGrouped',
  method: 'GET',
  path: '/v1/templates/{id}/channel-campaigns-grouped',
  params: RECORD_ID,
  entry: 'functions/http/get-channel-campaigns-grouped.ts',
  summary: "The template's assignments grouped by campaign (Unassigned excluded)",
  success: 200,
  response: GroupedAssignmentsResponse,
  sample: { token: 'acme', path: { id: SAMPLE.record }, expect: 200 },
  auth: true,
  request: { path: RecordIdPath },
  errors: [403, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

export const AddChannelCampaigns = {
  name: 'AddChannelCampaigns',
  method: 'POST',
  path: '/v1/templates/{id}/channel-campaigns',
  params: RECORD_ID,
  entry: 'functions/http/add-channel-campaigns.ts',
  summary: 'Assign the template to channel/campaign pairs',
  success: 201,
  response: AssignmentResponse,
  sample: { token: 'acme', path: { id: SAMPLE.record }, body: { channel_campaigns: [{ channel_id: 42, campaign_id: 33 }] }, expect: 201 },
  auth: true,
  request: { owned: { record: 'id' }, path: RecordIdPath, body: AssignmentBody },
  errors: [400, 403, 404, 409],
  needs: { table: 'write' },
} satisfies RouteDef;

export const ReplaceChannelCampaigns = {
  name: 'ReplaceChannelCampaigns',
  method: 'PUT',
  path: '/v1/templates/{id}/channel-campaigns',
  params: RECORD_ID,
  entry: 'functions/http/replace-channel-campaigns.ts',
  summary: "Set the client's channel/campaign pairs of the template to exactly the given ones",
  success: 200,
  response: AssignmentResponse,
  sample: {
    token: 'acme',
    path: { id: SAMPLE.record },
    body: {
      channel_campaigns: [
        { channel_id: 41, campaign_id: 31 },
        { channel_id: 42, campaign_id: 33 },
      ],
    },
    expect: 200,
  },
  auth: true,
  request: { owned: { record: 'id' }, path: RecordIdPath, body: AssignmentBody },
  errors: [400, 403, 404, 409],
  needs: { table: 'write' },
} satisfies RouteDef;

export const RemoveChannelCampaigns = {
  name: 'RemoveChannelCampaigns',
  method: 'DELETE',
  path: '/v1/templates/{id}/channel-campaigns',
  params: RECORD_ID,
  entry: 'functions/http/remove-channel-campaigns.ts',
  summary: 'Remove one pair (channel_id and campaign_id) or all pairs of the client',
  success: 200,
  response: AssignmentResponse,
  sample: { token: 'acme', path: { id: SAMPLE.record }, query: { channel_id: '42', campaign_id: '33' }, expect: 200 },
  auth: true,
  request: { path: RecordIdPath, query: RemoveAssignmentQuery },
  errors: [400, 403, 404, 409],
  needs: { table: 'write' },
} satisfies RouteDef;

export const SendTemplate = {
  name: 'SendTemplate',
  method: 'POST',
  path: '/v1/template/messages/{did}',
  entry: 'functions/http/send-template.ts',
  summary: 'Send an approved template to a list of recipients (queued as dispatch jobs)',
  success: 200,
  response: SendAcceptedResponse,
  sample: {
    token: 'acme',
    path: { did: SAMPLE.did },
    query: { dry_run: 'true' },
    body: {
      did: SAMPLE.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      recipients: [{ to: '+52 1 555 010 0001', params: { body: ['A-1001'] } }],
    },
    expect: 200,
  },
  auth: true,
  request: {
    owned: { did: 'did' },
    path: DidPath,
    query: SendQuery,
    body: SendBody,
    invalidMessage: 'Invalid send payload',
    dryRun: { response: SendDryRunResponse, read: dryRunInput },
    idempotencyKey: true,
  },
  errors: [400, 403, 404, 409, 422, 502],
  needs: { table: 'write', upstream: true, queues: ['dispatch'], schedules: true },
} satisfies RouteDef;

export const GetSend = {
  name: 'GetSend',
  method: 'GET',
  path: '/v1/sends/{send_id}',
  entry: 'functions/http/get-send.ts',
  summary: 'A send’s status: what the dispatcher sent, removed, expired and failed so far',
  success: 200,
  response: SendStatusResponse,
  sample: { token: 'acme', path: { send_id: SAMPLE.unknownId }, expect: 404 },
  auth: true,
  request: { path: SendIdPath },
  errors: [400, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

export const ListSendRecipients = {
  name: 'ListSendRecipients',
  method: 'GET',
  path: '/v1/sends/{send_id}/recipients',
  entry: 'functions/http/list-send-recipients.ts',
  summary: 'A send’s recipients in order, each with its latest state (filter by status)',
  success: 200,
  response: ListRecipientsResponse,
  sample: { token: 'acme', path: { send_id: SAMPLE.unknownId }, query: { status: 'failed' }, expect: 404 },
  auth: true,
  request: { path: SendIdPath, query: ListRecipientsQuery, invalidMessage: 'status, page or size not valid' },
  errors: [400, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

export const CancelSend = {
  name: 'CancelSend',
  method: 'POST',
  path: '/v1/sends/{send_id}/cancel',
  entry: 'functions/http/cancel-send.ts',
  summary: 'Cancel a send: recipients not yet sent never are, and count as cancelled',
  success: 202,
  response: CancelSendResponse,
  sample: { token: 'acme', path: { send_id: SAMPLE.unknownId }, expect: 404 },
  auth: true,
  request: { path: SendIdPath, bodyOptional: true },
  errors: [400, 404, 409],
  needs: { table: 'write' },
} satisfies RouteDef;

export const ResendSend = {
  name: 'ResendSend',
  method: 'POST',
  path: '/v1/sends/{send_id}/resend',
  entry: 'functions/http/resend-send.ts',
  summary: 'A new send of a send’s failed (or not delivered) recipients, with their values; leaves out who cannot or would not get it',
  success: 200,
  response: ResendAcceptedResponse,
  sample: { token: 'acme', path: { send_id: SAMPLE.unknownId }, body: { which: 'failed' }, expect: 404 },
  auth: true,
  request: {
    path: SendIdPath,
    body: ResendBody,
    dryRun: { response: SendDryRunResponse, read: resendInput },
    idempotencyKey: true,
  },
  errors: [400, 403, 404, 409, 422, 502],
  needs: { table: 'write', upstream: true, queues: ['dispatch'], schedules: true },
} satisfies RouteDef;

export const ListSends = {
  name: 'ListSends',
  method: 'GET',
  path: '/v1/sends',
  entry: 'functions/http/list-sends.ts',
  summary: 'The acting client’s sends, newest first',
  success: 200,
  response: ListSendsResponse,
  sample: { token: 'acme', expect: 200 },
  auth: true,
  request: { query: ListSendsQuery, invalidMessage: 'client_id, page or size not valid numbers' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const GetUsage = {
  name: 'GetUsage',
  method: 'GET',
  path: '/v1/usage',
  entry: 'functions/http/get-usage.ts',
  summary: 'What a client’s delivered messages cost, by day, month, market, category or number, with Meta’s own figures (JSON or CSV)',
  success: 200,
  response: UsageResponse,
  csv: USAGE_CSV,
  sample: { token: 'acme', query: { from: '2026-11-01', to: '2026-11-30' }, expect: 200 },
  auth: true,
  request: { query: UsageQuery, invalidMessage: 'client_id, from, to or group_by not valid' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const PutBudget = {
  name: 'PutBudget',
  method: 'PUT',
  path: '/v1/clients/{client_id}/budget',
  entry: 'functions/http/put-budget.ts',
  summary: 'Set or remove a client’s monthly budget in USD (BSP_CN): a send whose estimate exceeds what is left is refused',
  success: 200,
  response: BudgetResponse,
  sample: { token: 'acme', path: { client_id: '7' }, body: { monthly_amount: 100 }, expect: 403 },
  auth: true,
  request: { path: ClientIdPath, body: BudgetBody },
  errors: [400, 403, 404],
  needs: { table: 'write' },
} satisfies RouteDef;

export const GetBudget = {
  name: 'GetBudget',
  method: 'GET',
  path: '/v1/clients/{client_id}/budget',
  entry: 'functions/http/get-budget.ts',
  summary: 'A client’s monthly budget, what this month’s sends reserved of it and what is left',
  success: 200,
  response: BudgetResponse,
  sample: { token: 'acme', path: { client_id: '7' }, expect: 200 },
  auth: true,
  request: { path: ClientIdPath },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const ListSuppressions = {
  name: 'ListSuppressions',
  method: 'GET',
  path: '/v1/suppressions',
  entry: 'functions/http/list-suppressions.ts',
  summary: 'The client’s suppression list: recipients who opted out of marketing, with where each entry came from',
  success: 200,
  response: ListSuppressionsResponse,
  sample: { token: 'acme', expect: 200 },
  auth: true,
  request: { query: ListSuppressionsQuery, invalidMessage: 'client_id, page or size not valid numbers' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const AddSuppression = {
  name: 'AddSuppression',
  method: 'POST',
  path: '/v1/suppressions',
  entry: 'functions/http/add-suppression.ts',
  summary: 'Put a recipient on the client’s suppression list: MARKETING sends skip them',
  success: 200,
  response: AddSuppressionResponse,
  sample: { token: 'acme', body: { phone: '+52 1 555 000 0000', reason: 'asked by phone' }, expect: 200 },
  auth: true,
  request: { body: AddSuppressionBody },
  errors: [400, 403],
  needs: { table: 'write' },
} satisfies RouteDef;

export const RemoveSuppression = {
  name: 'RemoveSuppression',
  method: 'DELETE',
  path: '/v1/suppressions/{phone}',
  entry: 'functions/http/remove-suppression.ts',
  summary: 'Take a recipient off the client’s suppression list (they opted back in)',
  success: 200,
  response: RemoveSuppressionResponse,
  sample: { token: 'acme', path: { phone: '5215550009999' }, expect: 404 },
  auth: true,
  request: { path: PhonePath, query: RemoveSuppressionQuery },
  errors: [400, 403, 404],
  needs: { table: 'write' },
} satisfies RouteDef;

export const VerifyMetaWebhook = {
  name: 'VerifyMetaWebhook',
  method: 'GET',
  path: '/v1/meta/webhooks',
  entry: 'functions/http/verify-meta-webhook.ts',
  summary: 'Meta’s verification handshake: the challenge back, as text, for the configured verify token',
  success: 200,
  produces: 'text/plain',
  response: v.string(),
  sample: {
    query: { 'hub.mode': 'subscribe', 'hub.challenge': '4711', 'hub.verify_token': '{{meta-verify-token}}' },
    expect: 200,
  },
  auth: false,
  publicBecause: "Meta's handshake: answers only the configured verify token, and reads nothing else.",
  request: { query: VerifyMetaQuery, invalidMessage: 'Invalid verification request' },
  errors: [400, 403],
  needs: { table: 'none', metaApp: true },
} satisfies RouteDef;

export const ReceiveMetaWebhook = {
  name: 'ReceiveMetaWebhook',
  method: 'POST',
  path: '/v1/meta/webhooks',
  entry: 'functions/http/receive-meta-webhook.ts',
  summary: 'Meta’s notifications (template reviews, categories, quality, message statuses), signed; queued and applied by a worker',
  success: 200,
  response: ReceiveMetaResponse,
  sample: {
    signedByMeta: true,
    body: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100200300',
          time: 1767225600,
          changes: [
            {
              field: 'message_template_quality_update',
              value: { previous_quality_score: 'UNKNOWN', new_quality_score: 'GREEN', message_template_id: 9001 },
            },
          ],
        },
      ],
    },
    expect: 200,
  },
  auth: false,
  publicBecause: 'Meta calls it without a token; every body must carry a valid X-Hub-Signature-256 of the app secret.',
  request: { signedBy: 'meta' },
  errors: [400, 413],
  needs: { table: 'none', metaApp: true, queues: ['metaNotifications'] },
} satisfies RouteDef;

export const GetOpenApi = {
  name: 'GetOpenApi',
  method: 'GET',
  path: '/v1/openapi.json',
  entry: 'functions/http/get-openapi.ts',
  summary: 'This API as an OpenAPI 3.1 document',
  success: 200,
  response: v.looseObject({ openapi: v.string(), paths: v.record(v.string(), v.unknown()) }),
  sample: { expect: 200 },
  auth: false,
  publicBecause: "The API's public description; no data.",
  errors: [],
  needs: { table: 'none' },
} satisfies RouteDef;

/** Where Swagger UI's files come from (npm swagger-ui-dist) and where the function finds them (next to its bundle). */
export const API_DOCS_FILES = [
  { from: 'node_modules/swagger-ui-dist/swagger-ui-bundle.js', to: 'swagger-ui-bundle.js' },
  { from: 'node_modules/swagger-ui-dist/swagger-ui.css', to: 'swagger-ui.css' },
] as const;

export const GetApiDocs = {
  name: 'GetApiDocs',
  method: 'GET',
  path: '/v1/docs',
  entry: 'functions/http/get-api-docs.ts',
  summary: 'This API’s reference page (Swagger UI over the OpenAPI document), for a browser',
  success: 200,
  produces: 'text/html',
  response: v.string(),
  sample: { expect: 200 },
  auth: false,
  publicBecause: "The API's public reference page; no data.",
  files: API_DOCS_FILES,
  errors: [],
  needs: { table: 'none' },
} satisfies RouteDef;

/** Every route, in the order the OpenAPI document lists them. */
export const routes: RouteDef[] = [
  ListClientMsgChannels,
  PutWebhookConfig,
  GetWebhookConfig,
  RotateWebhookSecret,
  ListWebhookDeliveries,
  ReplayWebhookDelivery,
  ListCatalogs,
  ListProducts,
  ListTemplates,
  ChangeTemplateStatus,
  CreateTemplate,
  EditTemplate,
  SyncTemplates,
  GetSyncStatus,
  GetChannelCampaignsGrouped,
  AddChannelCampaigns,
  ReplaceChannelCampaigns,
  RemoveChannelCampaigns,
  SendTemplate,
  GetSend,
  ListSendRecipients,
  CancelSend,
  ListSends,
  ResendSend,
  GetUsage,
  PutBudget,
  GetBudget,
  ListSuppressions,
  AddSuppression,
  RemoveSuppression,
  VerifyMetaWebhook,
  ReceiveMetaWebhook,
  GetOpenApi,
  GetApiDocs,
];

/** The `$default` route's function: anything the manifest does not know (404, or 405 for a known path). */
export const ROUTE_NOT_FOUND = { name: 'RouteNotFound', entry: 'functions/http/route-not-found.ts', needs: { table: 'none' } as Needs };

/** A path segment decoded as API Gateway does; a malformed escape stays as it came (never an exception). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Path template to a matcher; `{name}` matches one non-empty segment. Null when the path does not match. */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(path);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeSegment(match[i + 1])]));
}
