import { createHash } from 'node:crypto';
import { type EmbeddedSignupConfig, FACEBOOK_ORIGINS } from './embedded-signup.ts';
import type { ConsoleSignIn } from './sign-in.ts';

/** The console's built script and style (console/build.ts), as text. */
export interface ConsoleAssets {
  script: string;
  css: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Text put inside a <script> or <style> element: it can never close the element early. */
const inert = (text: string) => text.replace(/<\/(script|style)/gi, '<\\/$1');

/** The id of the element holding how the console signs in (console/src/config.ts reads it). */
export const CONSOLE_CONFIG_ID = 'console-config';

/**
 * The console as one self-contained page, as the API reference is: its script, style and settings inline, so it is
 * one route and one request. Its Content-Security-Policy allows exactly its script and style (by hash), calls to
 * this API, when it signs in through Cognito the hosted UI's token endpoint, and when Embedded Signup is configured
 * Facebook's SDK, its frames and its calls (issue 55); nothing else.
 */
export function consolePage(
  assets: ConsoleAssets,
  signIn: ConsoleSignIn,
  embeddedSignup?: EmbeddedSignupConfig,
): { html: string; contentSecurityPolicy: Record<string, string | false>; crossOrigin?: { embedder: string; opener: string } } {
  const script = inert(assets.script);
  const css = inert(assets.css);
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Console · Template Messaging Service</title>',
    `<style>${css}</style>`,
    `<script type="application/json" id="${CONSOLE_CONFIG_ID}">${inert(JSON.stringify({ ...signIn, ...(embeddedSignup && { embeddedSignup }) }))}</script>`,
    '</head>',
    '<body>',
    '<div id="console"><p>Loading the console…</p></div>',
    '<noscript>The console needs JavaScript.</noscript>',
    `<script type="module">${script}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
  const facebook = embeddedSignup ? FACEBOOK_ORIGINS : { script: [], frame: [], connect: [] };
  const connect = ["'self'", ...(signIn.signIn === 'cognito' ? [new URL(signIn.domain).origin] : []), ...facebook.connect];
  return {
    html,
    contentSecurityPolicy: {
      'default-src': "'none'",
      'script-src': [sha256(script), ...facebook.script].join(' '),
      'style-src': sha256(css),
      'img-src': 'data:',
      'connect-src': connect.join(' '),
      // Facebook's SDK writes script URLs and markup itself, which Trusted Types would refuse: not required with it.
      ...(embeddedSignup && { 'frame-src': facebook.frame.join(' '), 'require-trusted-types-for': false }),
      'form-action': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
      // The API's defaults a page cannot live with: a sandboxed page runs no script, and the local stack is plain
      // HTTP on 127.0.0.1, whose calls an upgrade would make over HTTPS.
      sandbox: false,
      'upgrade-insecure-requests': false,
    },
    // Meta's login window posts back to its opener, which isolation would cut (COOP same-origin), and its frames
    // send no CORP header (COEP require-corp would block them): loosened only where Embedded Signup is configured.
    ...(embeddedSignup && { crossOrigin: { embedder: 'unsafe-none', opener: 'same-origin-allow-popups' } }),
  };
}
