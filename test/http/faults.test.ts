import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tableClient } from '#lib/wiring/table.ts';
import { useStackTable } from '../support/seed.ts';

/**
 * An unexpected failure (here: DynamoDB refusing every call, injected into the AWS client) is a 500 with a
 * request id and nothing internal in the body. The handler is the deployed one, invoked with API
 * Gateway's event and authorizer claims.
 */
let handler: (
  event: APIGatewayProxyEventV2,
  context: unknown,
) => Promise<{ statusCode: number; body: string; headers: Record<string, string> }>;

beforeAll(async () => {
  useStackTable();
  ({ handler } = (await import('../../functions/http/list-templates.ts')) as never);
});

afterEach(() => vi.restoreAllMocks());

const event = {
  version: '2.0',
  routeKey: 'GET /v1/templates',
  rawPath: '/v1/templates',
  rawQueryString: '',
  headers: {},
  requestContext: {
    requestId: 'req-500',
    http: { method: 'GET', path: '/v1/templates' },
    authorizer: { jwt: { claims: { sub: 's', client_id: '7', campaigns: '[31]' } } },
  },
  isBase64Encoded: false,
} as unknown as APIGatewayProxyEventV2;

describe('unexpected failures', () => {
  it('answer 500 with the request id and no internal detail', async () => {
    // Prepare: a DynamoDB client whose every call fails with an internal-looking error
    vi.spyOn(tableClient(), 'send').mockRejectedValue(
      Object.assign(new Error('ProvisionedThroughputExceededException: table arn:aws:dynamodb:secret-table'), {
        name: 'InternalServerError',
      }),
    );
    // Act
    const response = await handler(event, {});
    // Assess
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ message: 'Internal server error', code: 'internal_error', request_id: 'req-500' });
    expect(response.body).not.toContain('secret-table');
  });
});
