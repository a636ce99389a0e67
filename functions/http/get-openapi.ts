import { httpFunction } from '#lib/http/http-function.ts';
import { openApiDocument } from '#lib/openapi.ts';
import { GetOpenApi } from '#lib/routes.ts';

const document = openApiDocument();

export const handler = httpFunction(GetOpenApi, () => document);
