import { swaggerUiAssets } from '#lib/adapters/api-reference-assets.ts';
import { apiReferencePage } from '#lib/openapi/api-reference-page.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { openApiDocument } from '#lib/openapi/openapi.ts';
import { GetApiDocs } from '#lib/manifest/routes/docs.ts';

const page = apiReferencePage(openApiDocument(), swaggerUiAssets());

export const handler = httpFunction(GetApiDocs, () => page.html, { contentSecurityPolicy: page.contentSecurityPolicy });
