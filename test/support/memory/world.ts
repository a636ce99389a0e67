import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DirectoryFile, directoryEntities, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import type { Caller } from '#lib/domain/caller.ts';
import { silentLog } from '#lib/domain/log.ts';
import type { MediaPorts } from '#lib/domain/media.ts';
import { EMULATOR_TOKEN, GraphEmulator } from '../../../local/standins/graph/emulator.ts';
import { MemoryDeliveryLog } from './delivery-log.ts';
import { MemoryDirectoryStore } from './directory-store.ts';
import { MemoryEventPublisher } from './event-publisher.ts';
import { MemoryJobQueue } from './job-queue.ts';
import { MemoryOutboxStore } from './outbox-store.ts';
import { MemorySendScheduler } from './send-scheduler.ts';
import { memorySends } from './sends.ts';
import { MemoryBudgetStore } from './budget-store.ts';
import { MemoryPriceListStore } from './price-list-store.ts';
import { MemorySuppressionStore } from './suppression-store.ts';
import { MemoryIdentityMap } from './identity-map.ts';
import { MemoryThroughputStore } from './throughput-store.ts';
import { MemorySyncLeaseStore } from './sync-lease-store.ts';
import { memoryTemplates } from './templates.ts';
import { MemoryWebhookConfigStore } from './webhook-config-store.ts';

export const DEMO_FIXTURE: DirectoryFile = parseDirectoryFile(
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/demo.json'), 'utf8')),
);

/**
 * Everything a use case needs, in process: the in-memory stores loaded with a directory file, and the real
 * Graph adapter talking to the Graph emulator without sockets. A fresh world per test: nothing is shared.
 */
export function memoryWorld(fixture: DirectoryFile = DEMO_FIXTURE) {
  const entities = directoryEntities(fixture);
  const emulator = new GraphEmulator(fixture);
  const upstream = new GraphUpstream(
    new GraphClient({
      baseUrl: 'http://graph.emulator',
      token: async () => EMULATOR_TOKEN,
      fetch: emulator.fetch,
      log: silentLog,
      baseDelayMs: 1,
      timeoutMs: 300,
    }),
    'app',
  );
  const templates = memoryTemplates(entities.records);
  // Host names resolve to one public address: no network is asked.
  const resolve = async () => ['93.184.216.34'];
  const media: MediaPorts = {
    resolve,
    download: async () => ({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png' }),
    upload: (file) => upstream.uploadMedia(file),
  };
  const budgets = new MemoryBudgetStore();
  return {
    emulator,
    upstream,
    directory: new MemoryDirectoryStore(entities),
    ...templates,
    outbox: new MemoryOutboxStore(templates.templateTable),
    publisher: new MemoryEventPublisher(),
    leases: new MemorySyncLeaseStore(),
    webhooks: new MemoryWebhookConfigStore(),
    deliveries: new MemoryDeliveryLog(),
    queue: new MemoryJobQueue(),
    scheduler: new MemorySendScheduler(),
    ...memorySends(budgets),
    budgets,
    priceLists: new MemoryPriceListStore(),
    suppressions: new MemorySuppressionStore(),
    identities: new MemoryIdentityMap(),
    levels: new MemoryThroughputStore(),
    media,
    resolve,
    log: silentLog,
  };
}

export type MemoryWorld = ReturnType<typeof memoryWorld>;

export const callerOf = (clientId: number, extra: Partial<Caller> = {}): Caller => ({
  sub: `user-${clientId}`,
  clientId,
  permissions: [],
  campaigns: [31],
  isBsp: false,
  ...extra,
});

export const bspCaller = (clientId = 1): Caller => callerOf(clientId, { permissions: ['BSP_CN'], isBsp: true });
