import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { invokeIsolated, lambdaContext } from '../../../local/api-server.ts';

/**
 * The local server isolates a handler's crash as Lambda does (issue 32): an error thrown from a callback no
 * promise holds fails that invocation alone, with a 502 in the contract's error shape; the process and every
 * other invocation go on.
 */
const event = {} as APIGatewayProxyEventV2;
const answering = async (): Promise<APIGatewayProxyStructuredResultV2> => {
  await new Promise((resolve) => setTimeout(resolve, 30));
  return { statusCode: 200, body: 'fine' };
};
const crashingInCallback = () =>
  new Promise<APIGatewayProxyStructuredResultV2>(() => {
    // As busboy's event handlers did: thrown where no caller can catch it.
    setTimeout(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'length')");
    }, 5);
  });

describe('a handler that crashes in a callback, on the local server', () => {
  it('answers 502 for that invocation and lets the one beside it answer', async () => {
    // Act
    const [crashed, beside] = await Promise.all([
      invokeIsolated(crashingInCallback, event, lambdaContext('CreateTemplate', 'req-crash')),
      invokeIsolated(answering, event, lambdaContext('ListTemplates', 'req-fine')),
    ]);
    // Assess
    expect(crashed.statusCode).toBe(502);
    expect(JSON.parse(String(crashed.body))).toEqual({
      message: 'The function ended without answering',
      code: 'function_crashed',
      request_id: 'req-crash',
    });
    expect(beside).toEqual({ statusCode: 200, body: 'fine' });
    expect((await invokeIsolated(answering, event, lambdaContext('ListTemplates', 'req-after'))).statusCode).toBe(200);
  });
});
