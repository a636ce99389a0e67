import httpSecurityHeaders from '@middy/http-security-headers';
import type { HttpMiddleware } from '../context.ts';

/** A JSON API's policy: nothing may load from a response, nobody may frame it. */
const API_POLICY = { 'default-src': "'none'", 'frame-ancestors': "'none'" };

/** A page's cross-origin policies where it must differ from isolation (a sign-in popup that posts back to its opener). */
export interface CrossOriginPolicies {
  embedder: string;
  opener: string;
}

/**
 * middy's security headers, set for a JSON API that no browser should render or frame: nothing may load
 * from a response, HSTS for two years, no referrer. A page (the API reference) brings its own policy.
 */
export const securityHeaders = (
  contentSecurityPolicy: Record<string, string | false> = API_POLICY,
  crossOrigin?: CrossOriginPolicies,
): HttpMiddleware =>
  httpSecurityHeaders({
    // A directive set to false is left out of the header (middy writes only truthy ones; its types say strings).
    contentSecurityPolicy: contentSecurityPolicy as Record<string, string>,
    ...(crossOrigin && {
      crossOriginEmbedderPolicy: { policy: crossOrigin.embedder },
      crossOriginOpenerPolicy: { policy: crossOrigin.opener },
    }),
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true, preload: false },
    referrerPolicy: { policy: 'no-referrer' },
  }) as unknown as HttpMiddleware;
