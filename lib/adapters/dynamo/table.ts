/**
 * The single table's shape, shared by the CDK stack (infra/) and the local stack (local/) so both create
 * the same keys and indexes. The entities and their access patterns are described in docs/data-model.md.
 */
export const TABLE_KEYS = { partition: 'pk', sort: 'sk' } as const;
export const TTL_ATTRIBUTE = 'expires_at';

export const INDEXES = [
  { name: 'gsi1', partition: 'gsi1pk', sort: 'gsi1sk' },
  { name: 'gsi2', partition: 'gsi2pk', sort: 'gsi2sk' },
] as const;

/** Key builders: every key the service writes or queries is made here, so the data model has one spelling. */
export const keys = {
  client: (clientId: number) => `CLIENT#${clientId}`,
  waba: (wabaId: string) => `WABA#${wabaId}`,
  channel: (waId: string) => `CHANNEL#${waId}`,
  record: (recordId: string) => `RECORD#${recordId}`,
  template: (wabaId: string, templateId: string) => `TEMPLATE#${wabaId}#${templateId}`,
  clientRecords: (clientId: number) => `CLIENT#${clientId}#RECORDS`,
  campaign: (campaignId: number) => `CAMPAIGN#${campaignId}`,
  contactChannel: (channelId: number) => `CONTACT_CHANNEL#${channelId}`,
  outbox: (eventId: string) => `OUTBOX#${eventId}`,
  /** One (template, client)'s assignment keys; the sort key names the pair, or the placeholder. */
  assignments: (wabaId: string, templateId: string, clientId: number) => `ASSIGNMENT#${wabaId}#${templateId}#${clientId}`,
  pair: (channelId: number, campaignId: number) => `PAIR#${channelId}#${campaignId}`,
  // Index sort keys.
  /** gsi1 of channels: by client_id (numerically), then wa_id; a client's prefix is `channelOrder(id, '')`. */
  channelOrder: (clientId: number, waId: string) => `${String(clientId).padStart(12, '0')}#${waId}`,
  /** gsi1 of template records: a template's records by client; a client's prefix is `recordOfClient(id, '')`. */
  recordOfClient: (clientId: number, recordId: string) => `CLIENT#${clientId}#${recordId}`,
  /** gsi2 of template records: a client's records in listing order (name, language, WABA, template, record). */
  listingOrder: (name: string, language: string, wabaId: string, templateId: string, recordId: string) =>
    `${name}#${language}#${wabaId}#${templateId}#${recordId}`,
  /** gsi1 of outbox events: by the time they occurred. */
  outboxOrder: (occurredAt: string, eventId: string) => `${occurredAt}#${eventId}`,
} as const;

/** The sort keys of single-item entities and the prefixes of the ones that repeat under a partition. */
export const SORT = {
  client: 'CLIENT',
  waba: 'WABA',
  channel: 'CHANNEL',
  record: 'RECORD',
  outbox: 'OUTBOX',
  syncLease: 'SYNC_LEASE',
  syncLastRun: 'SYNC_LAST_RUN',
  webhookConfig: 'WEBHOOK',
  placeholder: 'PAIR#UNASSIGNED',
  /** The version of one client's records of one template, beside their assignment keys. */
  assignmentsVersion: 'VERSION',
  /** A client's WABA memberships sort as `WABA#<id>` under the client. */
  wabaPrefix: 'WABA#',
} as const;

export const CHANNELS_PARTITION = 'CHANNELS';
export const OUTBOX_PARTITION = 'OUTBOX';
