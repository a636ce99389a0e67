import { createHash } from 'node:crypto';

/** Swagger UI's two files (npm swagger-ui-dist), as text. */
export interface SwaggerUiAssets {
  script: string;
  css: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Text put inside a <script> or <style> element: it can never close the element early. */
const inert = (text: string) => text.replace(/<\/(script|style)/gi, '<\\/$1');

/**
 * The API reference as one self-contained page: Swagger UI and the OpenAPI document inline, so it needs no CDN,
 * no second request and no network at all. Its Content-Security-Policy allows exactly its two scripts (by hash)
 * and nothing from elsewhere; "Try it out" may call this API only (connect-src 'self').
 */
export function apiReferencePage(
  document: unknown,
  assets: SwaggerUiAssets,
): { html: string; contentSecurityPolicy: Record<string, string | false> } {
  const bundle = inert(assets.script);
  const init = inert(
    `window.ui = SwaggerUIBundle({ spec: ${JSON.stringify(document)}, dom_id: '#reference', deepLinking: true, tryItOutEnabled: false });`,
  );
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Template Messaging Service API</title>',
    `<style>${inert(assets.css)}</style>`,
    '</head>',
    '<body>',
    '<div id="reference"></div>',
    `<script>${bundle}</script>`,
    `<script>${init}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
  return {
    html,
    contentSecurityPolicy: {
      'default-src': "'none'",
      'script-src': `${sha256(bundle)} ${sha256(init)}`,
      'style-src': "'unsafe-inline'",
      'img-src': 'data:',
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
      // The API's defaults that a page cannot live with: a sandboxed page runs no script, and Swagger UI (React)
      // writes rendered Markdown as HTML, which Trusted Types would refuse. Its own hashes still bound the scripts.
      sandbox: false,
      'require-trusted-types-for': false,
      'upgrade-insecure-requests': false,
    },
  };
}
