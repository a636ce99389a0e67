import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { KinesisClient } from '@aws-sdk/client-kinesis';
import { afterAll, beforeAll } from 'vitest';
import { newStreamClient } from '#lib/adapters/kinesis/status-stream.ts';

/**
 * Kinesalite in this test file's process for its tests (issue 54): started before them, closed after; the returned
 * getter answers the client the adapters use, pointed at it.
 */
export function kinesaliteInProcess(): () => KinesisClient {
  let server: Server;
  let kinesis: KinesisClient;
  beforeAll(async () => {
    server = (createRequire(import.meta.url)('kinesalite') as (o: object) => Server)({ createStreamMs: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kinesis = newStreamClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    process.env.AWS_REGION ??= 'us-east-1';
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return () => kinesis;
}
