import type { Context } from 'aws-lambda';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { relayOutbox } from '#lib/domain/webhooks/outbox.ts';
import { inInvocation, logger } from '#lib/log/logger.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/** Every minute: publishes events whose request could not publish them (transactional outbox). */
const deps = { outbox: new DynamoOutboxStore(table), publisher: new EventBridgePublisher(), log: logger };

export const handler = (_event: unknown, context?: Context) =>
  inInvocation(context, {}, async () => ({ relayed: await relayOutbox(deps) }));
