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
import { type RouteDef, SAMPLE } from '../route.ts';

// The client's webhook: its configuration, secret and deliveries (decisions §15).

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

/** This area's routes, in the order the OpenAPI document lists them. */
export const webhooksRoutes: RouteDef[] = [
  PutWebhookConfig,
  GetWebhookConfig,
  RotateWebhookSecret,
  ListWebhookDeliveries,
  ReplayWebhookDelivery,
];
