import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { routes } from '#lib/manifest/routes.ts';
import { call, expectErrorShape, tokens } from '../support/api.ts';

describe('routing (decisions §10)', () => {
  it('answers an unknown route with 404 in the error shape', async () => {
    expectErrorShape(await call('GET', '/v1/nothing-here', { token: await tokens.acme() }), 404, 'not_found');
  });

  it('answers a wrong method on a known path with 405', async () => {
    expectErrorShape(await call('DELETE', '/v1/webhook/config', { token: await tokens.acme() }), 405, 'method_not_allowed');
  });

  it('sets security headers and a request id on every response', async () => {
    const response = await call('GET', '/v1/client-msg-channels', { token: await tokens.acme() });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('OpenAPI document', () => {
  it('is served at /v1/openapi.json, lists every route of the manifest and lints without errors', async () => {
    // Act
    const response = await call('GET', '/v1/openapi.json');
    // Assess
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toBe('3.1.0');
    for (const route of routes) expect(document.paths[route.path][route.method.toLowerCase()]).toBeDefined();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: '/openapi.json', config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.message)).toEqual([]);
  });

  it('gives every success its schema, client_id one shape, and required fields as required', async () => {
    // Act
    const document = (await call('GET', '/v1/openapi.json')).body;
    // Assess: every 2xx answer of every operation has a schema that says more than "an object"
    const operations = Object.values(document.paths).flatMap((methods: any) => Object.values(methods)) as any[];
    const successes = operations.flatMap((op) =>
      Object.entries(op.responses)
        .filter(([status]) => status.startsWith('2'))
        .map(([, response]: [string, any]) => ({ op: op.operationId, content: response.content ?? {} })),
    );
    expect(successes).toHaveLength(routes.length);
    for (const { op, content } of successes) {
      // One body, or JSON with the renderings a route offers beside it (CSV, PDF: decisions §24, §27)
      const types = Object.keys(content);
      expect(types.length === 1 || types.includes('application/json'), op).toBe(true);
      const { schema } = content['application/json'] ?? Object.values(content)[0];
      expect(schema.properties ?? schema.items ?? schema.oneOf ?? (schema.type === 'string' ? 'text' : undefined), op).toBeDefined();
    }
    // Assess: client_id in a query has one shape wherever it appears
    const clientIds = operations.flatMap((op) => op.parameters.filter((p: any) => p.in === 'query' && p.name === 'client_id'));
    expect(clientIds.length).toBeGreaterThanOrEqual(10);
    expect(new Set(clientIds.map((p: any) => JSON.stringify(p.schema))).size).toBe(1);
    // Assess: the fields the contract requires are required
    const products = document.paths['/v1/catalogs/{did}/products'].get.parameters.find((p: any) => p.name === 'catalog_id');
    expect(products.required).toBe(true);
    expect(document.paths['/v1/webhook/config'].put.requestBody.content['application/json'].schema.required).toContain('url');
  });

  it('documents the channel query parameters from the validating schema', async () => {
    const document = (await call('GET', '/v1/openapi.json')).body;
    const names = document.paths['/v1/client-msg-channels'].get.parameters.map((p: any) => p.name);
    expect(names).toEqual(expect.arrayContaining(['client_id', 'q', 'fields', 'page', 'size', 'deleted']));
  });
});
