import {
  AssignmentBody,
  AssignmentResponse,
  GroupedAssignmentsResponse,
  RecordIdPath,
  RemoveAssignmentQuery,
} from '#lib/schemas/templates.ts';
import { type RouteDef, RECORD_ID, SAMPLE } from '../route.ts';

// A template's channels and campaigns (decisions §11).

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

/** This area's routes, in the order the OpenAPI document lists them. */
export const assignmentsRoutes: RouteDef[] = [
  GetChannelCampaignsGrouped,
  AddChannelCampaigns,
  ReplaceChannelCampaigns,
  RemoveChannelCampaigns,
];
