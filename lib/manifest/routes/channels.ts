import { ListChannelsQuery, ListChannelsResponse } from '#lib/schemas/channels.ts';
import type { RouteDef } from '../route.ts';

// The client's messaging channels (decisions §10).

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

/** This area's routes, in the order the OpenAPI document lists them. */
export const channelsRoutes: RouteDef[] = [ListClientMsgChannels];
