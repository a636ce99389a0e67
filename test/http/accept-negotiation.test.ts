import { describe, expect, it } from 'vitest';
import { apiUrl, tokens } from '../support/api.ts';

/**
 * Accept negotiation on the running local stack (issue 51): `GET /v1/usage` answers JSON or CSV by the header's
 * q-values, wildcards and order; a header that accepts neither still answers JSON (never a 406 or a 500).
 */
const today = () => new Date().toISOString().slice(0, 10);

async function usageAs(accept: string) {
  const answer = await fetch(`${apiUrl()}/v1/usage?from=${today()}&to=${today()}&group_by=day`, {
    headers: { authorization: `Bearer ${await tokens.acme()}`, accept },
  });
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', body: await answer.text() };
}

describe('GET /v1/usage by the Accept header', () => {
  it.each([
    ['text/csv;q=0.9, application/json', 'application/json'],
    ['application/json;q=0.5, text/csv', 'text/csv'],
    ['text/*', 'text/csv'],
    ['*/*', 'application/json'],
    ['text/csv;q=0, */*', 'application/json'],
    ['text/csv, application/json', 'text/csv'],
    ['image/png', 'application/json'],
  ])('Accept %j answers %s', async (accept, expected) => {
    // Act
    const answer = await usageAs(accept);
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.type).toContain(expected);
    if (expected === 'text/csv') expect(answer.body.split('\r\n')[0]).toContain('client_id');
    else expect(JSON.parse(answer.body)).toHaveProperty('data');
  });
});
