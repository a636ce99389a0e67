import { InvalidRequest } from '../shared/errors.ts';
import { checkPublicHttpsUrl, type Resolver } from '../shared/url-guard.ts';

/**
 * Where a media header's example comes from (decisions §4): exactly one of header_source (a public HTTPS
 * URL we download), header_handle (the caller's own upload handle) or the multipart `file`.
 */
export const MEDIA_TYPES: Record<string, string[]> = {
  IMAGE: ['image/jpeg', 'image/png'],
  VIDEO: ['video/mp4'],
  DOCUMENT: ['application/pdf'],
};
/** Largest media we download from a header_source. */
export const MAX_MEDIA_BYTES = 16 * 1024 * 1024;
export const MUTUALLY_EXCLUSIVE = 'header_source and header_handle are mutually exclusive';
export const BLOCKED_MEDIA_URL = 'Media URL is not HTTPS or points to a private IP (blocked)';

export interface MediaFile {
  filename: string;
  mimetype: string;
  content: Uint8Array;
}

export interface MediaPorts {
  resolve: Resolver;
  download(url: URL, maxBytes: number): Promise<{ bytes: Uint8Array; contentType: string }>;
  upload(file: { name: string; type: string; bytes: Uint8Array }): Promise<string>;
}

export interface MediaInput {
  header_source?: string;
  header_handle?: string;
  file?: MediaFile;
}

function checkType(type: string, format: string, path: string) {
  if (!MEDIA_TYPES[format]?.includes(type)) {
    throw new InvalidRequest('invalid media', [
      { path, message: `a ${format} header takes ${MEDIA_TYPES[format].join(' or ')}, not ${type || 'an unknown type'}` },
    ]);
  }
}

/**
 * Returns the header handle to put in the HEADER example, or undefined when the components already
 * carry one. Refusals never reach the network: a blocked URL is refused before any request.
 */
export async function resolveMediaHandle(
  ports: MediaPorts,
  input: MediaInput,
  header: { format?: string; isMedia: boolean; hasHandle: boolean },
): Promise<string | undefined> {
  const given = [input.header_source !== undefined, input.header_handle !== undefined, input.file !== undefined].filter(Boolean).length;
  if (input.header_source !== undefined && input.header_handle !== undefined) {
    throw new InvalidRequest(MUTUALLY_EXCLUSIVE, [{ path: 'header_handle', message: 'give header_source or header_handle, not both' }]);
  }
  if (given > 1)
    throw new InvalidRequest('Give one media source: header_source, header_handle or the file part', [
      { path: 'file', message: 'only one media source' },
    ]);
  if (!header.isMedia) {
    if (given > 0)
      throw new InvalidRequest('invalid media', [
        { path: 'components', message: 'a media source needs an IMAGE, VIDEO or DOCUMENT header' },
      ]);
    return undefined;
  }
  const format = header.format!;
  if (given === 0) {
    if (header.hasHandle) return undefined;
    throw new InvalidRequest('invalid media', [
      { path: 'header_source', message: `a ${format} header needs header_source, header_handle or a file` },
    ]);
  }
  if (header.hasHandle)
    throw new InvalidRequest(MUTUALLY_EXCLUSIVE, [{ path: 'components', message: 'the header already carries example.header_handle' }]);
  if (input.header_handle !== undefined) {
    if (input.header_handle.trim() === '')
      throw new InvalidRequest('invalid media', [{ path: 'header_handle', message: 'must not be empty' }]);
    return input.header_handle;
  }
  if (input.file) {
    checkType(input.file.mimetype, format, 'file');
    if (input.file.content.length === 0) throw new InvalidRequest('invalid media', [{ path: 'file', message: 'is empty' }]);
    return ports.upload({ name: input.file.filename || 'header', type: input.file.mimetype, bytes: input.file.content });
  }
  const check = await checkPublicHttpsUrl(input.header_source!, ports.resolve);
  if (!check.ok) {
    const reason = check.reason === 'unresolvable' ? 'host does not resolve' : 'must be HTTPS and must not point at a private address';
    throw new InvalidRequest(BLOCKED_MEDIA_URL, [{ path: 'header_source', message: reason }]);
  }
  let media: { bytes: Uint8Array; contentType: string };
  try {
    media = await ports.download(check.url, MAX_MEDIA_BYTES);
  } catch (error) {
    const tooLarge = (error as Error).message === 'media is too large';
    throw new InvalidRequest('invalid media', [
      { path: 'header_source', message: tooLarge ? `exceeds ${MAX_MEDIA_BYTES} bytes` : 'could not be downloaded' },
    ]);
  }
  checkType(media.contentType, format, 'header_source');
  const name = decodeURIComponent(check.url.pathname.split('/').pop() || 'header');
  return ports.upload({ name, type: media.contentType, bytes: media.bytes });
}
