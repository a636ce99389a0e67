import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import type { MultipartSpec } from '#lib/manifest/route.ts';
import { badRequest, payloadTooLarge } from '../api-error.ts';
import type { HttpMiddleware } from '../context.ts';

const contentTypeOf = (headers: Record<string, string | undefined> | undefined) =>
  headers?.['content-type'] ?? headers?.['Content-Type'] ?? '';
const isMultipart = (headers: Record<string, string | undefined> | undefined) => /^multipart\/form-data/i.test(contentTypeOf(headers));

/**
 * A body busboy would choke on is refused before busboy sees it, since busboy and middy's parser report some
 * problems by throwing from an event callback, which no caller can catch and which ends the process (a Lambda
 * runtime: a 502 and a cold start): a boundary missing or never closed (an 'error' on a file stream nobody
 * listens to), and a part whose Content-Disposition names no field (the parser reads `fieldname.length` of
 * undefined). Every part must be `form-data` with a `name`.
 */
function checkParts(contentType: string, body: Buffer) {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const value = boundary?.[1] ?? boundary?.[2];
  if (!value) throw badRequest('Malformed multipart body', [{ path: 'content-type', message: 'needs a boundary' }]);
  const text = body.toString('latin1');
  const closing = text.indexOf(`--${value}--`);
  if (closing < 0) throw badRequest('Malformed multipart body', [{ path: 'body', message: 'the closing boundary is missing' }]);
  // Each part starts after a delimiter line; its headers end at the first empty line.
  const parts = text.slice(0, closing).split(`--${value}`).slice(1);
  parts.forEach((part, index) => {
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = (headerEnd < 0 ? part : part.slice(0, headerEnd)).split('\r\n');
    const disposition = headers.find((line) => /^content-disposition\s*:/i.test(line));
    if (!disposition || !/^content-disposition\s*:\s*form-data\s*(;|$)/i.test(disposition) || !/;\s*name\*?\s*=/i.test(disposition))
      throw badRequest('Malformed multipart body', [
        { path: `part ${index + 1}`, message: 'needs Content-Disposition: form-data with a name' },
      ]);
  });
}

/**
 * File mode: the size is checked before parsing (413 over the limit), middy's multipart parser splits the
 * parts, the JSON part becomes the body (so both modes share one validation) and the file goes to
 * `context.file`. Any other content type passes through untouched.
 */
export const multipartBody = (spec: MultipartSpec): HttpMiddleware => {
  const parser = httpMultipartBodyParser({ busboy: { limits: { fileSize: spec.maxBytes, files: 1, fields: 5 } } });
  return {
    before: async (request) => {
      const event = request.event;
      if (!isMultipart(event.headers) || typeof event.body !== 'string') return;
      const size = event.isBase64Encoded ? Buffer.byteLength(event.body, 'base64') : Buffer.byteLength(event.body);
      if (size > spec.maxBytes) throw payloadTooLarge(`Multipart body exceeds ${spec.maxBytes} bytes`);
      checkParts(contentTypeOf(event.headers), Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8'));
      await parser.before!(request as never);
      const parts = (event.body ?? {}) as unknown as Record<string, unknown>;
      const unknown = Object.keys(parts).filter((name) => name !== spec.jsonPart && name !== spec.filePart);
      if (unknown.length > 0)
        throw badRequest(
          'Unknown multipart parts',
          unknown.map((path) => ({ path, message: 'Unknown part' })),
        );
      const json = parts[spec.jsonPart];
      if (typeof json !== 'string')
        throw badRequest(`The ${spec.jsonPart} part is required`, [{ path: spec.jsonPart, message: 'is required' }]);
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        throw badRequest(`The ${spec.jsonPart} part is not valid JSON`, [{ path: spec.jsonPart, message: 'must be JSON' }]);
      }
      const file = parts[spec.filePart] as { filename?: string; mimetype?: string; content?: Buffer } | undefined;
      if (file !== undefined) {
        if (!file?.content)
          throw badRequest(`The ${spec.filePart} part must be a file`, [{ path: spec.filePart, message: 'must be a file' }]);
        request.context.file = {
          filename: file.filename ?? 'upload',
          mimetype: (file.mimetype ?? '').toLowerCase(),
          content: file.content,
        };
      }
      (event as { body: unknown }).body = parsed;
    },
  };
};
