import type { QUEUES } from '#lib/queues.ts';
import type { Needs } from '#lib/routes.ts';

/**
 * Functions that are not behind the API: queue consumers and scheduled jobs. The CDK stack and the local
 * stack both read this list, so a worker runs the same way in both. `needs` means what it does on routes;
 * the queue a worker consumes is granted by its trigger.
 */
export interface WorkerDef {
  name: string;
  entry: string;
  trigger: { queue: keyof typeof QUEUES; batchSize: number } | { everyMinutes: number };
  needs: Needs;
}

export const workers: WorkerDef[] = [
  {
    name: 'DeliverWebhooks',
    entry: 'functions/workers/deliver-webhooks.ts',
    trigger: { queue: 'webhookEvents', batchSize: 10 },
    needs: { table: 'read' },
  },
  {
    name: 'SyncTemplatesWorker',
    entry: 'functions/workers/sync-templates.ts',
    trigger: { queue: 'sync', batchSize: 1 },
    needs: { table: 'write', upstream: true, bus: true },
  },
  {
    name: 'RelayOutbox',
    entry: 'functions/workers/relay-outbox.ts',
    trigger: { everyMinutes: 1 },
    needs: { table: 'write', bus: true },
  },
];
