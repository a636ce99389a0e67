import type * as v from 'valibot';
import { ListCatalogsQuery, ListProductsQuery } from '#lib/schemas/catalogs.ts';
import { ListChannelsQuery } from '#lib/schemas/channels.ts';
import { CreateTemplateBody, CreateTemplateQuery, EditTemplateBody } from '#lib/schemas/create-template.ts';
import { SendBody } from '#lib/schemas/send.ts';
import { SyncBody } from '#lib/schemas/sync.ts';
import { AssignmentBody, BulkStatusBody, ListTemplatesQuery, RemoveAssignmentQuery } from '#lib/schemas/templates.ts';
import { GetWebhookQuery, SetWebhookBody } from '#lib/schemas/webhook.ts';

/**
 * The route manifest: the single list of endpoints. The CDK stack makes one function and one route per
 * entry, the local server dispatches by it, and the OpenAPI document is written from it. Adding an endpoint
 * is one entry here plus its file under functions/http/.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
  /** False only for public documents; everything else sits behind the JWT authorizer. */
  auth: boolean;
  request?: { query?: v.GenericSchema; body?: v.GenericSchema; multipart?: boolean };
  /** Error statuses this route documents besides 401 and 500. */
  errors: number[];
  /** Upstream or queue access the function needs (grants in the stack, env locally). */
  needs?: ('graph' | 'syncQueue' | 'dispatchQueue' | 'events' | 'webhookQueue')[];
}

export const routes: RouteDef[] = [
  {
    name: 'ListClientMsgChannels',
    method: 'GET',
    path: '/v1/client-msg-channels',
    entry: 'functions/http/list-client-msg-channels.ts',
    summary: 'List client messaging channels',
    success: 200,
    auth: true,
    request: { query: ListChannelsQuery },
    errors: [400, 403],
  },
  {
    name: 'PutWebhookConfig',
    method: 'PUT',
    path: '/v1/webhook/config',
    entry: 'functions/http/put-webhook-config.ts',
    summary: "Create or update the client's webhook configuration",
    success: 200,
    auth: true,
    request: { body: SetWebhookBody },
    errors: [400, 403],
  },
  {
    name: 'GetWebhookConfig',
    method: 'GET',
    path: '/v1/webhook/config',
    entry: 'functions/http/get-webhook-config.ts',
    summary: "Get the client's webhook configuration",
    success: 200,
    auth: true,
    request: { query: GetWebhookQuery },
    errors: [400, 403, 404],
  },
  {
    name: 'ListCatalogs',
    method: 'GET',
    path: '/v1/catalogs/{did}',
    entry: 'functions/http/list-catalogs.ts',
    summary: "List the commerce catalogs of the DID's WABA",
    success: 200,
    auth: true,
    request: { query: ListCatalogsQuery },
    errors: [400, 403, 502],
    needs: ['graph'],
  },
  {
    name: 'ListProducts',
    method: 'GET',
    path: '/v1/catalogs/{did}/products',
    entry: 'functions/http/list-products.ts',
    summary: 'List the products of one of the WABA’s catalogs, cursor-paged',
    success: 200,
    auth: true,
    request: { query: ListProductsQuery },
    errors: [400, 403, 404, 502],
    needs: ['graph'],
  },
  {
    name: 'ListTemplates',
    method: 'GET',
    path: '/v1/templates',
    entry: 'functions/http/list-templates.ts',
    summary: "List a client's templates, one entry per template with its campaigns and channels",
    success: 200,
    auth: true,
    request: { query: ListTemplatesQuery },
    errors: [400, 403],
  },
  {
    name: 'ChangeTemplateStatus',
    method: 'PATCH',
    path: '/v1/templates/status',
    entry: 'functions/http/change-template-status.ts',
    summary: 'Enable or disable many template records',
    success: 200,
    auth: true,
    request: { body: BulkStatusBody },
    errors: [400, 403],
  },
  {
    name: 'CreateTemplate',
    method: 'POST',
    path: '/v1/templates/{id}',
    params: { id: 'The DID (wa_id) the template is created for' },
    entry: 'functions/http/create-template.ts',
    summary: 'Create a template at the upstream and register its record (JSON, or multipart with a header file)',
    success: 200,
    auth: true,
    request: { query: CreateTemplateQuery, body: CreateTemplateBody, multipart: true },
    errors: [400, 403, 409, 413, 502],
    needs: ['graph', 'events'],
  },
  {
    name: 'EditTemplate',
    method: 'PUT',
    path: '/v1/templates/{id}/{messageTemplateId}',
    params: { id: 'The DID (wa_id) of the template’s WABA', messageTemplateId: 'The template record id' },
    entry: 'functions/http/edit-template.ts',
    summary: 'Edit a template at the upstream (components replace the existing list)',
    success: 200,
    auth: true,
    request: { body: EditTemplateBody },
    errors: [400, 403, 404, 502],
    needs: ['graph'],
  },
  {
    name: 'SyncTemplates',
    method: 'POST',
    path: '/v1/templates/sync-from-meta',
    entry: 'functions/http/sync-templates.ts',
    summary: "Start a synchronization of the client's templates from the upstream (one at a time)",
    success: 200,
    auth: true,
    request: { body: SyncBody },
    errors: [400, 403, 409, 502],
    needs: ['graph', 'syncQueue'],
  },
  {
    name: 'GetChannelCampaignsGrouped',
    method: 'GET',
    path: '/v1/templates/{id}/channel-campaigns-grouped',
    params: { id: 'The template record id (messageTemplateId)' },
    entry: 'functions/http/get-channel-campaigns-grouped.ts',
    summary: "The template's assignments grouped by campaign (Unassigned excluded)",
    success: 200,
    auth: true,
    errors: [403, 404],
  },
  {
    name: 'AddChannelCampaigns',
    method: 'POST',
    path: '/v1/templates/{id}/channel-campaigns',
    params: { id: 'The template record id (messageTemplateId)' },
    entry: 'functions/http/add-channel-campaigns.ts',
    summary: 'Assign the template to channel/campaign pairs',
    success: 201,
    auth: true,
    request: { body: AssignmentBody },
    errors: [400, 403, 404, 409],
  },
  {
    name: 'ReplaceChannelCampaigns',
    method: 'PUT',
    path: '/v1/templates/{id}/channel-campaigns',
    params: { id: 'The template record id (messageTemplateId)' },
    entry: 'functions/http/replace-channel-campaigns.ts',
    summary: "Set the client's channel/campaign pairs of the template to exactly the given ones",
    success: 200,
    auth: true,
    request: { body: AssignmentBody },
    errors: [400, 403, 404, 409],
  },
  {
    name: 'RemoveChannelCampaigns',
    method: 'DELETE',
    path: '/v1/templates/{id}/channel-campaigns',
    params: { id: 'The template record id (messageTemplateId)' },
    entry: 'functions/http/remove-channel-campaigns.ts',
    summary: 'Remove one pair (channel_id and campaign_id) or all pairs of the client',
    success: 200,
    auth: true,
    request: { query: RemoveAssignmentQuery },
    errors: [400, 403, 404, 409],
  },
  {
    name: 'SendTemplate',
    method: 'POST',
    path: '/v1/template/messages/{did}',
    entry: 'functions/http/send-template.ts',
    summary: 'Send an approved template to a list of recipients (queued as dispatch jobs)',
    success: 200,
    auth: true,
    request: { body: SendBody },
    errors: [400, 403, 404, 422, 502],
    needs: ['graph', 'dispatchQueue'],
  },
  {
    name: 'GetOpenApi',
    method: 'GET',
    path: '/v1/openapi.json',
    entry: 'functions/http/get-openapi.ts',
    summary: 'This API as an OpenAPI 3.1 document',
    success: 200,
    auth: false,
    errors: [],
  },
];

/** Path template to a matcher; `{name}` matches one non-empty segment. */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(path);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
}
