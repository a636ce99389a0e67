import type { Needs } from './needs.ts';
import type { RouteDef } from './route.ts';
import { channelsRoutes } from './routes/channels.ts';
import { webhooksRoutes } from './routes/webhooks.ts';
import { catalogsRoutes } from './routes/catalogs.ts';
import { templatesRoutes } from './routes/templates.ts';
import { assignmentsRoutes } from './routes/assignments.ts';
import { sendsRoutes } from './routes/sends.ts';
import { performanceRoutes } from './routes/performance.ts';
import { costsRoutes } from './routes/costs.ts';
import { pricesRoutes } from './routes/prices.ts';
import { consentRoutes } from './routes/consent.ts';
import { metaRoutes } from './routes/meta.ts';
import { docsRoutes } from './routes/docs.ts';
import { consoleRoutes } from './routes/console.ts';
import { onboardingRoutes } from './routes/onboarding.ts';

/**
 * Every route, by API area, in the order the OpenAPI document lists them. A route is added in its area's file
 * (lib/manifest/routes/), which lists it; the stack, the local server and the documents read it from here.
 */
export const routes: RouteDef[] = [
  ...channelsRoutes,
  ...onboardingRoutes,
  ...webhooksRoutes,
  ...catalogsRoutes,
  ...templatesRoutes,
  ...assignmentsRoutes,
  ...sendsRoutes,
  ...performanceRoutes,
  ...costsRoutes,
  ...pricesRoutes,
  ...consentRoutes,
  ...metaRoutes,
  ...docsRoutes,
  ...consoleRoutes,
];

/** The `$default` route's function: anything the manifest does not know (404, or 405 for a known path). */
export const ROUTE_NOT_FOUND = { name: 'RouteNotFound', entry: 'functions/http/route-not-found.ts', needs: { table: 'none' } as Needs };
