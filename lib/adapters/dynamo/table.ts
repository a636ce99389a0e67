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

/** Key builders: every key the service writes is made here, so the data model has one spelling. */
export const keys = {
  client: (clientId: number) => `CLIENT#${clientId}`,
  waba: (wabaId: string) => `WABA#${wabaId}`,
  channel: (waId: string) => `CHANNEL#${waId}`,
  record: (recordId: string) => `RECORD#${recordId}`,
  template: (wabaId: string, templateId: string) => `TEMPLATE#${wabaId}#${templateId}`,
  clientRecords: (clientId: number) => `CLIENT#${clientId}#RECORDS`,
  /** Fixed-width client id so the channel index sorts by client_id numerically, then wa_id. */
  clientOrder: (clientId: number) => String(clientId).padStart(12, '0'),
} as const;

export const CHANNELS_PARTITION = 'CHANNELS';
export const OUTBOX_PARTITION = 'OUTBOX';
