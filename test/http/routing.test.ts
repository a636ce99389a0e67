import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { routes } from '#lib/routes.ts';
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

  it('documents the channel query parameters from the validating schema', async () => {
    const document = (await call('GET', '/v1/openapi.json')).body;
    const names = document.paths['/v1/client-msg-channels'].get.parameters.map((p: any) => p.name);
    expect(names).toEqual(expect.arrayContaining(['client_id', 'q', 'fields', 'page', 'size', 'deleted']));
  });
});
