import httpSecurityHeaders from '@middy/http-security-headers';
import type { HttpMiddleware } from '../context.ts';

/** A JSON API's policy: nothing may load from a response, nobody may frame it. */
const API_POLICY = { 'default-src': "'none'", 'frame-ancestors': "'none'" };

/**
 * middy's security headers, set for a JSON API that no browser should render or frame: nothing may load
 * from a response, HSTS for two years, no referrer. A page (the API reference) brings its own policy.
 */
export const securityHeaders = (contentSecurityPolicy: Record<string, string | false> = API_POLICY): HttpMiddleware =>
  httpSecurityHeaders({
    // A directive set to false is left out of the header (middy writes only truthy ones; its types say strings).
    contentSecurityPolicy: contentSecurityPolicy as Record<string, string>,
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true, preload: false },
    referrerPolicy: { policy: 'no-referrer' },
  }) as unknown as HttpMiddleware;
