import { swaggerUiAssets } from '#lib/adapters/docs-assets.ts';
import { apiReferencePage } from '#lib/docs/api-reference-page.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { openApiDocument } from '#lib/docs/openapi.ts';
import { GetApiDocs } from '#lib/manifest/routes/docs.ts';

const page = apiReferencePage(openApiDocument(), swaggerUiAssets());

export const handler = httpFunction(GetApiDocs, () => page.html, { contentSecurityPolicy: page.contentSecurityPolicy });
