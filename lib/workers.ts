import type { QUEUES } from '#lib/queues.ts';

/**
 * Functions that are not behind the API: queue consumers and scheduled jobs. The CDK stack and the local
 * stack both read this list, so a worker runs the same way in both.
 */
export interface WorkerDef {
  name: string;
  entry: string;
  trigger: { queue: keyof typeof QUEUES; batchSize: number } | { everyMinutes: number };
  needs: ('events' | 'webhookQueue' | 'graph' | 'syncQueueConsumer')[];
}

export const workers: WorkerDef[] = [
  {
    name: 'DeliverWebhooks',
    entry: 'functions/workers/deliver-webhooks.ts',
    trigger: { queue: 'webhookEvents', batchSize: 10 },
    needs: ['webhookQueue'],
  },
  {
    name: 'SyncTemplatesWorker',
    entry: 'functions/workers/sync-templates.ts',
    trigger: { queue: 'sync', batchSize: 1 },
    needs: ['graph', 'events', 'syncQueueConsumer'],
  },
  {
    name: 'RelayOutbox',
    entry: 'functions/workers/relay-outbox.ts',
    trigger: { everyMinutes: 1 },
    needs: ['events'],
  },
];
