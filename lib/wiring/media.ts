import { fetchMedia } from '#lib/adapters/https/media-fetch.ts';
import { resolveHost } from '#lib/adapters/https/resolve-host.ts';
import type { MediaPorts } from '#lib/domain/templates/media.ts';
import type { MediaUpload } from '#lib/domain/templates/ports.ts';

/** Media for template headers: the guarded downloader and the upstream's resumable upload. */
export const mediaPorts = (upload: MediaUpload): MediaPorts => ({
  resolve: resolveHost,
  download: (url, maxBytes) => fetchMedia(url, { maxBytes }),
  upload: (file) => upload.uploadMedia(file),
});
