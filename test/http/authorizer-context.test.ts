import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStackTable } from '../support/seed.ts';

/**
 * In AWS the JWT authorizer verifies the token and hands the function flattened claims; the function must
 * use them and not ask for the token again. This invokes the deployed handler with the event AWS sends.
 */
let handler: (event: APIGatewayProxyEventV2, context: unknown) => Promise<{ statusCode: number; body: string }>;

beforeAll(async () => {
  useStackTable();
  ({ handler } = (await import('../../functions/http/list-client-msg-channels.ts')) as never);
});

const event = (claims: Record<string, string> | undefined): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'GET /v1/client-msg-channels',
    rawPath: '/v1/client-msg-channels',
    rawQueryString: '',
    headers: {},
    requestContext: {
      requestId: 'req-1',
      http: { method: 'GET', path: '/v1/client-msg-channels' },
      ...(claims && { authorizer: { jwt: { claims, scopes: null } } }),
    },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

describe('claims from the API Gateway JWT authorizer', () => {
  it('serves the caller named by the authorizer’s flattened claims', async () => {
    const response = await handler(event({ sub: 'x', client_id: '9', permissions: '[]', campaigns: '[51]' }), {});
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).data.every((c: { client_id: number }) => c.client_id === 9)).toBe(true);
  });

  it('honours BSP_CN from a flattened permissions claim', async () => {
    const response = await handler(
      { ...event({ sub: 'x', client_id: '9', permissions: '[BSP_CN]' }), queryStringParameters: { size: '100' } },
      {},
    );
    const clients = new Set(JSON.parse(response.body).data.map((c: { client_id: number }) => c.client_id));
    expect([7, 8, 9, 10].every((c) => clients.has(c))).toBe(true);
  });

  it.each([
    { client_id: '1e+21' },
    { client_id: '1000000000000000000000' },
    { client_id: '9007199254740992' },
    { client_id: '0' },
    { client_id: '-1' },
    { client_id: '1.5' },
    { client_id: 'NaN' },
    { campaigns: '[51 1e+21]' },
    { campaigns: '[51 0]' },
    { campaigns: '[51 1.5]' },
  ])('refuses flattened claims whose ids are not safe positive integers (%o)', async (broken) => {
    // Act
    const response = await handler(event({ sub: 'x', client_id: '9', permissions: '[]', campaigns: '[51]', ...broken }), {});
    // Assess
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ message: 'Unauthorized', code: 'unauthorized', request_id: 'req-1' });
  });

  it('refuses an event with neither authorizer claims nor a bearer token', async () => {
    const response = await handler(event(undefined), {});
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ message: 'Unauthorized', request_id: 'req-1' });
  });
});
