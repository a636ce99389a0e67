import { outbox, publisher } from '#lib/deps.ts';
import { relayOutbox } from '#lib/domain/outbox.ts';

/** Every minute: publishes events whose request could not publish them (transactional outbox). */
export const handler = async () => ({ relayed: await relayOutbox(publisher, outbox) });
