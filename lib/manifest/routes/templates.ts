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
import { SyncBody, SyncStartedResponse, SyncStatusQuery, SyncStatusResponse } from '#lib/schemas/sync.ts';
import { BulkStatusBody, BulkStatusResponse, ListTemplatesQuery, ListTemplatesResponse } from '#lib/schemas/templates.ts';
import { type RouteDef, SAMPLE } from '../route.ts';

// Templates: the listing, bulk status, create, edit and sync.

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
  summary:
    'Create a template at the upstream and register its record (JSON, or multipart with a header file), or one from Meta’s Template Library by library_template_name',
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
  errors: [400, 403, 404, 422, 502],
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

/** This area's routes, in the order the OpenAPI document lists them. */
export const templatesRoutes: RouteDef[] = [
  ListTemplates,
  ChangeTemplateStatus,
  CreateTemplate,
  EditTemplate,
  SyncTemplates,
  GetSyncStatus,
];
