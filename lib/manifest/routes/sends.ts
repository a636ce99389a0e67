import { DidPath } from '#lib/schemas/catalogs.ts';
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
import { type RouteDef, SAMPLE } from '../route.ts';

// Sending approved templates, their progress and recipients (decisions §12, §22–25).

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

/** This area's routes, in the order the OpenAPI document lists them. */
export const sendsRoutes: RouteDef[] = [SendTemplate, GetSend, ListSendRecipients, CancelSend, ListSends, ResendSend];
