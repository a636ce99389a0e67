import { httpFunction } from '#lib/http/handler.ts';
import { openApiDocument } from '#lib/openapi.ts';

const document = openApiDocument();

export const handler = httpFunction({ public: true }, async () => ({ status: 200, body: document }));
