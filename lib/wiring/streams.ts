import { KinesisStatusStream, newStreamClient, type ServiceStream } from '#lib/adapters/kinesis/status-stream.ts';
import { kinesisEndpoint, loadConfig } from '#lib/config.ts';
import type { StreamKey } from '#lib/manifest/needs.ts';
import { STREAMS } from '#lib/manifest/queues.ts';
import { clientPerEndpoint } from './client-per-endpoint.ts';

/** The process's Kinesis client; the SDK reads its endpoint from the same setting. */
export const streamClient = clientPerEndpoint(kinesisEndpoint, () => newStreamClient());

/** The stream of that key: the process's client, and its name read from the function's settings at first put. */
export function serviceStream(key: StreamKey): ServiceStream {
  return {
    get client() {
      return streamClient();
    },
    get name() {
      const setting = STREAMS[key].nameSetting;
      return loadConfig(setting)[setting];
    },
  };
}

/** Meta's statuses' stream (issue 54). */
export const statusStream = () => new KinesisStatusStream(serviceStream('metaStatuses'));
