import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiUrl } from '../support/api.ts';

describe('GET /v1/docs: the API reference page (issue 14)', () => {
  it('serves Swagger UI over this API’s OpenAPI document as one page, its scripts allowed by hash and nothing else', async () => {
    // Act
    const response = await fetch(`${apiUrl()}/v1/docs`);
    const html = await response.text();
    // Assess: a page, with Swagger UI and the document inline
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('SwaggerUIBundle');
    const document = (await (await fetch(`${apiUrl()}/v1/openapi.json`)).json()) as { info: { title: string } };
    expect(html).toContain(JSON.stringify(document.info.title));
    // Assess: the policy names exactly the page's inline scripts, so a browser runs them and nothing injected
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(2);
    const policy = response.headers.get('content-security-policy') ?? '';
    const scriptSrc = policy
      .split(';')
      .find((d) => d.trim().startsWith('script-src'))
      ?.trim();
    const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
    expect(scriptSrc).toBe(`script-src ${hashes.join(' ')}`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    // Assess: none of the API's directives that stop a page: a sandboxed page runs no script at all, and
    // Trusted Types refuse Swagger UI's rendered Markdown (both left the page blank in headless Chromium)
    expect(policy).not.toMatch(/(^|;\s*)sandbox\b/);
    expect(policy).not.toContain('require-trusted-types-for');
  });

  it('keeps the JSON API’s own policy on every other route', async () => {
    const response = await fetch(`${apiUrl()}/v1/openapi.json`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('script-src');
  });
});
