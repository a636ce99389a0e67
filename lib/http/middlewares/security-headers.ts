import httpSecurityHeaders from '@middy/http-security-headers';
import type { HttpMiddleware } from '../context.ts';

/**
 * middy's security headers, set for a JSON API that no browser should render or frame: nothing may load
 * from a response, HSTS for two years, no referrer.
 */
export const securityHeaders = (): HttpMiddleware =>
  httpSecurityHeaders({
    contentSecurityPolicy: { 'default-src': "'none'", 'frame-ancestors': "'none'" },
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true, preload: false },
    referrerPolicy: { policy: 'no-referrer' },
  }) as unknown as HttpMiddleware;
