import { request } from 'node:https';
import { guardConnectedAddress, guardedLookup } from './guarded-https.ts';

/**
 * Downloads a header_source over HTTPS with the address check done again at connect time (guardedLookup).
 * No redirects are followed, the size is capped while reading, and the download has a deadline.
 */
export interface FetchedMedia {
  bytes: Uint8Array;
  contentType: string;
}

export class MediaFetchError extends Error {}

export function fetchMedia(url: URL, options: { maxBytes: number; timeoutMs?: number }): Promise<FetchedMedia> {
  return new Promise((resolve, reject) => {
    const req = guardConnectedAddress(
      request(url, { method: 'GET', lookup: guardedLookup, timeout: options.timeoutMs ?? 10_000 }, (res) => {
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
          res.resume();
          return reject(new MediaFetchError(`media URL answered ${res.statusCode}`));
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          res.destroy();
          return reject(new MediaFetchError('media is too large'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(new MediaFetchError('media is too large'));
          } else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            bytes: Buffer.concat(chunks),
            contentType: String(res.headers['content-type'] ?? '')
              .split(';')[0]
              .trim()
              .toLowerCase(),
          }),
        );
        res.on('error', reject);
      }),
    );
    req.on('timeout', () => req.destroy(new MediaFetchError('media download timed out')));
    req.on('error', (error) => reject(error instanceof MediaFetchError ? error : new MediaFetchError('media could not be downloaded')));
    req.end();
  });
}
