import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DirectoryFile, directoryEntities, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import type { MediaPorts } from '#lib/domain/templates/media.ts';
import { EMULATOR_TOKEN, GraphEmulator } from '../../../local/standins/graph/emulator.ts';
import { MemoryDeliveryLog } from './webhooks/webhook-delivery-log.ts';
import { MemoryDirectoryStore } from './shared/directory-store.ts';
import { MemoryEventPublisher } from './webhooks/event-publisher.ts';
import { MemoryJobQueue } from './shared/job-queue.ts';
import { MemoryMarketingOnboardings } from './sends/marketing-onboardings.ts';
import { MemoryOutboxStore } from './webhooks/outbox-store.ts';
import { MemorySendScheduler } from './sends/send-scheduler.ts';
import { MemoryTestSchedules } from './sends/test-schedules.ts';
import { memorySends } from './sends/sends.ts';
import { MemoryReservationWatches } from './sends/reservation-watches.ts';
import { MemoryBudgetStore } from './money/budget-store.ts';
import { MemoryPriceListStore } from './money/price-list-store.ts';
import { MemorySuppressionStore } from './people/suppression-store.ts';
import { MemoryPeopleMap } from './people/people-map.ts';
import { MemoryFrequencyCaps, MemoryMarketingCounts } from './people/frequency-caps.ts';
import { MemoryThroughputStore } from './sends/throughput-store.ts';
import { MemorySyncLeaseStore } from './templates/sync-lease-store.ts';
import { memoryTemplates } from './templates/templates.ts';
import { MemoryWebhookConfigStore } from './webhooks/webhook-config-store.ts';

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
    testSchedules: new MemoryTestSchedules(),
    ...memorySends(budgets),
    budgets,
    reservationWatches: new MemoryReservationWatches(budgets),
    priceLists: new MemoryPriceListStore(),
    suppressions: new MemorySuppressionStore(),
    peopleMap: new MemoryPeopleMap(),
    frequencyCaps: new MemoryFrequencyCaps(),
    marketingCounts: new MemoryMarketingCounts(),
    // A send's every port (lib/domain/sends/accept/send-deps.ts): Graph answers the currency and the MM onboarding.
    onboardings: new MemoryMarketingOnboardings(),
    currencies: upstream,
    marketing: upstream,
    directSend: upstream,
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
