import { httpFunction } from '#lib/http/http-function.ts';
import { openApiDocument } from '#lib/openapi/openapi.ts';
import { GetOpenApi } from '#lib/manifest/routes/docs.ts';

const document = openApiDocument();

export const handler = httpFunction(GetOpenApi, () => document);
