import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { consoleAssets } from '../../console/serve/files.ts';
import { consoleEmbeddedSignup } from '../../console/serve/embedded-signup.ts';
import { consolePage } from '../../console/serve/page.ts';
import { consoleSignIn } from '../../console/serve/sign-in.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetConsole } from '#lib/manifest/routes/console.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The page is made at the first request (its files read, or built from source) and kept: its policy names its
 * script's hash, so the function is made with it then. A bundle without top-level await loads as Lambda loads it.
 */
let ready: Promise<{ serve: Handler; gzipped: Buffer }> | undefined;

const make = async () => {
  const page = consolePage(await consoleAssets(), consoleSignIn(), consoleEmbeddedSignup());
  return {
    serve: httpFunction(GetConsole, () => page.html, {
      contentSecurityPolicy: page.contentSecurityPolicy,
      ...(page.crossOrigin && { crossOrigin: page.crossOrigin }),
    }) as Handler,
    gzipped: gzipSync(page.html, { level: 9 }),
  };
};

/** The page, gzipped where the browser takes it (API Gateway's HTTP API compresses nothing itself). */
export const handler: Handler = async (event, context) => {
  // A page that failed to be made (a build error from source) is tried again at the next request.
  ready ??= make().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  const { serve, gzipped } = await ready;
  const response = await serve(event, context);
  if (response.statusCode !== 200 || !/\bgzip\b/.test(event.headers?.['accept-encoding'] ?? '')) return response;
  return {
    ...response,
    headers: { ...response.headers, 'content-encoding': 'gzip', vary: 'accept-encoding' },
    body: gzipped.toString('base64'),
    isBase64Encoded: true,
  };
};
