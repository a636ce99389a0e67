import { lookup } from 'node:dns/promises';
import { DynamoDirectoryStore } from '#lib/store/dynamo/directory-store.ts';
import { DynamoWebhookConfigStore } from '#lib/store/dynamo/webhook-store.ts';
import type { Resolver } from '#lib/domain/url-guard.ts';

/** The production adapters, made once per process. Handlers take what they need from here. */
export const directory = new DynamoDirectoryStore();
export const webhookConfigs = new DynamoWebhookConfigStore();
export const resolveHost: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
