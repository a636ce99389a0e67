import * as v from 'valibot';
import type { RouteDef } from '../route.ts';

// The operator's console (issue 45): one self-contained page, public as the API reference is; every figure it
// shows comes from this API with the operator's own token.

/** The console's built files (console/build.ts writes them to console/dist), copied beside the page's function. */
export const CONSOLE_FILES = [
  { from: 'console/dist/console.js', to: 'console.js' },
  { from: 'console/dist/console.css', to: 'console.css' },
] as const;

export const GetConsole = {
  name: 'GetConsole',
  method: 'GET',
  path: '/console',
  entry: 'functions/http/get-console.ts',
  summary: 'The operator’s console (sends, money, templates, consent, webhook deliveries), for a browser',
  success: 200,
  produces: 'text/html',
  response: v.string(),
  sample: { expect: 200 },
  auth: false,
  publicBecause: 'The console’s page holds no data: it calls the API with the signed-in operator’s own token.',
  files: CONSOLE_FILES,
  errors: [],
  needs: { table: 'none', console: true },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const consoleRoutes: RouteDef[] = [GetConsole];
