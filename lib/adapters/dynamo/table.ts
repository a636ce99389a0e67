/**
 * The single table's shape, shared by the CDK stack (infra/) and the local stack (local/) so both create
 * the same keys and indexes. The entities and their access patterns are described in docs/data-model.md.
 */
export const TABLE_KEYS = { partition: 'pk', sort: 'sk' } as const;
export const TTL_ATTRIBUTE = 'expires_at';

/** What an index copies of each item: everything, the keys, or the keys and these attributes. */
export type IndexProjection = 'ALL' | 'KEYS_ONLY' | { include: string[] };

/** The listing's facet indexes copy only the entry's compact facets (decisions §9; docs/data-model.md). */
const FACETS: IndexProjection = { include: ['facets'] };

export const INDEXES: readonly { name: string; partition: string; sort: string; projection: IndexProjection }[] = [
  { name: 'gsi1', partition: 'gsi1pk', sort: 'gsi1sk', projection: 'ALL' },
  { name: 'gsi2', partition: 'gsi2pk', sort: 'gsi2sk', projection: 'ALL' },
  { name: 'listing', partition: 'listing_pk', sort: 'listing_sk', projection: FACETS },
  { name: 'listing_state', partition: 'listing_state_pk', sort: 'listing_sk', projection: FACETS },
  { name: 'listing_category', partition: 'listing_category_pk', sort: 'listing_sk', projection: FACETS },
  { name: 'listing_language', partition: 'listing_language_pk', sort: 'listing_sk', projection: FACETS },
  { name: 'listing_waba', partition: 'listing_waba_pk', sort: 'listing_sk', projection: FACETS },
  { name: 'listing_active', partition: 'listing_active_pk', sort: 'listing_sk', projection: FACETS },
  { name: 'listing_template', partition: 'listing_template_pk', sort: 'listing_sk', projection: FACETS },
  // Assignment keys by campaign name: a template's entry is found through any of its records' campaigns.
  { name: 'listing_campaign', partition: 'listing_campaign_pk', sort: 'listing_sk', projection: 'KEYS_ONLY' },
];

/** Key builders: every key the service writes or queries is made here, so the data model has one spelling. */
export const keys = {
  client: (clientId: number) => `CLIENT#${clientId}`,
  waba: (wabaId: string) => `WABA#${wabaId}`,
  /** An onboarding by Embedded Signup (issue 55), by the hash of its code. */
  onboarding: (onboardingId: string) => `ONBOARDING#${onboardingId}`,
  channel: (waId: string) => `CHANNEL#${waId}`,
  record: (recordId: string) => `RECORD#${recordId}`,
  template: (wabaId: string, templateId: string) => `TEMPLATE#${wabaId}#${templateId}`,
  clientRecords: (clientId: number) => `CLIENT#${clientId}#RECORDS`,
  campaign: (campaignId: number) => `CAMPAIGN#${campaignId}`,
  /** A channel of the client's WABA hierarchy, under the client: the DID check in one GetItem. */
  clientChannel: (waId: string) => `DID#${waId}`,
  contactChannel: (channelId: number) => `CONTACT_CHANNEL#${channelId}`,
  outbox: (eventId: string) => `OUTBOX#${eventId}`,
  /** A webhook delivery (decisions §15): one per event, its id the event's. */
  delivery: (deliveryId: string) => `DELIVERY#${deliveryId}`,
  /** gsi1 of deliveries: a client's, newest first; gsi2: a client's of one status. */
  clientDeliveries: (clientId: number, status?: string) => `CLIENT#${clientId}#DELIVERIES${status ? `#${status}` : ''}`,
  deliveryOrder: (createdAt: string, deliveryId: string) => `${createdAt}#${deliveryId}`,
  /** A client's delivery counts by status, one item per day the deliveries were made (they expire by day). */
  deliveryCounts: (day: string) => `DELIVERY_COUNTS#${day}`,
  send: (sendId: string) => `SEND#${sendId}`,
  /** A message this service did not send, charged once to its number's client (decisions §30), by Meta's id. */
  outsideMessage: (wabaId: string, messageId: string) => `OUTSIDE_MESSAGE#${wabaId}#${messageId}`,
  clientSends: (clientId: number) => `CLIENT#${clientId}#SENDS`,
  /**
   * One of a send's partitions of blocks and message states (decisions §19): a block's or message's part is a
   * hash of its position, so a send's writes spread over SEND_PARTS keys rather than one.
   */
  sendPart: (sendId: string, part: number) => `SEND#${sendId}#P${String(part).padStart(2, '0')}`,
  /** A block of a send's positions: its claim, then its outcomes; by its first position. */
  sendBlock: (first: number) => `BLOCK#${String(first).padStart(9, '0')}`,
  /** A block's recipients (decisions §22), by the block's first position: their `to` and repeats from acceptance. */
  sendRecipients: (first: number) => `RCPT#${String(first).padStart(9, '0')}`,
  /**
   * A block's messages' latest delivery states, compact (`d<offset>`), for the recipients listing: apart from
   * the recipients so that a batch of status reports rewrites a small item. Since issue 54 a third of a block each
   * (`from`: its first offset, 0, 30 or 60; the first third keeps the block's key, where a send accepted before
   * keeps the whole block's).
   */
  sendLatest: (first: number, from = 0) => `LATEST#${String(first).padStart(9, '0')}${from === 0 ? '' : `.${from}`}`,
  /** A sent message's delivery state (delivered, read, failed after acceptance), by its position. */
  sendMessage: (index: number) => `MSG#${String(index).padStart(9, '0')}`,
  /** One of a send's count shards, under the send beside its item: one Query reads the send and its counts. */
  sendCounts: (shard: number) => `SEND#COUNTS#${String(shard).padStart(2, '0')}`,
  /** A scheduled send's job, held until its time (decisions §22): the job as queued, one item each. */
  sendHeldJob: (job: number) => `HELD_JOB#${String(job).padStart(5, '0')}`,
  /** A job of a send: begun (its blocks are claimed one by one) or settled whole. */
  sendJob: (job: number) => `JOB#${job}`,
  /** A sending number's pacing: the next free send slot (decisions §12). */
  pacing: (phoneNumberId: string) => `PACING#${phoneNumberId}`,
  /** A sending number's throughput level as last learned (decisions §19), by the number's digits. */
  number: (digits: string) => `NUMBER#${digits}`,
  /**
   * The cost ledger (decisions §24): one of LEDGER_SHARDS partitions of a WABA's charges, so a busy WABA's
   * statuses spread over several keys; a day's charges are one item in each.
   */
  ledger: (wabaId: string, shard: number) => `LEDGER#${wabaId}#${String(shard).padStart(2, '0')}`,
  /**
   * One of LEDGER_SHARDS partitions of a client's charges on a WABA (decisions §32: money reads keyed by client):
   * its number days and late charges. A client's usage reads only its own partitions, whoever else sends there.
   */
  clientLedger: (wabaId: string, clientId: number, shard: number) => `LEDGER#${wabaId}#C${clientId}#${String(shard).padStart(2, '0')}`,
  ledgerDay: (day: string) => `DAY#${day}`,
  /** A number's charges of a day on a ledger shard, before issue 54 (issue 41: an item a number, so none outgrows 400 KB). */
  ledgerNumberDay: (day: string, did: string) => `DAY#${day}#${did}`,
  /**
   * A number's charges of a day in one of Meta's pricing categories on a ledger shard (issue 54: an item holds at
   * most the card's markets × their currencies, a few KB, whatever the day holds; a status batch is one send's, so
   * mostly one category: one item a day).
   */
  ledgerCategoryDay: (day: string, did: string, category: string) => `DAY#${day}#${did}#${category}`,
  /** The last sort key of a day's items on a ledger shard, its numbers' and the older whole-WABA item. */
  ledgerDayEnd: (day: string) => `DAY#${day}#~`,
  /**
   * One of LEDGER_SHARDS partitions of a business portfolio's tier counts (decisions §31: counted per portfolio,
   * across its WABAs; a WABA with none counts alone under its own id), so a busy portfolio's statuses spread.
   */
  tierCount: (portfolio: string, shard: number) => `TIERS#${portfolio}#${String(shard).padStart(2, '0')}`,
  /** A month's billable volume by market and category, on a tier count shard and Meta's tier item. */
  ledgerMonth: (month: string) => `MONTH#${month}`,
  /**
   * A number's late charges filed under a month on a ledger shard (decisions §30): charges applied after their own
   * month closed, which that month's statement bills as adjustments.
   */
  ledgerLate: (month: string, did: string) => `LATE#${month}#${did}`,
  /** The last sort key of a month's late charges on a ledger shard. */
  ledgerLateEnd: (month: string) => `LATE#${month}#~`,
  /** Meta's volume tier updates of a portfolio (decisions §26, §31): a month's volume at least, by market and category. */
  volumeTiers: (portfolio: string) => `VOLUME_TIERS#${portfolio}`,
  /** Meta's own figures of a WABA's day (pricing_analytics), kept beside the ledger by the reconciliation. */
  metaCost: (wabaId: string) => `META_COST#${wabaId}`,
  /** A client's parts of Meta's figures (decisions §32), a WABA's day an item (`DAY#<day>#<waba>`): read by client. */
  metaShare: (clientId: number) => `META_SHARE#${clientId}`,
  metaShareDay: (day: string, wabaId: string) => `DAY#${day}#${wabaId}`,
  /** A client's cost gaps of a day (decisions §26), under COST_GAPS_PARTITION: by day, then client. */
  costGapDay: (day: string, clientId: number) => `DAY#${day}#CLIENT#${clientId}`,
  /**
   * One of a client's TEMPLATE_FIGURE_SHARDS partitions of its templates' figures by day (decisions §33): each write
   * adds to one at random, so no item takes a write per status batch of a busy number, and a read queries each.
   */
  templateFigures: (clientId: number, shard: number) => `TEMPLATE_FIGURES#${clientId}#${String(shard).padStart(2, '0')}`,
  templateFiguresDay: (day: string, wabaId: string, name: string, language: string) => `DAY#${day}#${wabaId}#${name}#${language}`,
  /**
   * A number's sends' recipients by person, for replies (decisions §33): one of REPLY_INDEX_BUCKETS partitions a
   * number by a hash of the person, a send's item in each by when it was accepted.
   */
  replyIndex: (did: string, bucket: number) => `REPLY_INDEX#${did}#${String(bucket).padStart(2, '0')}`,
  replyIndexOrder: (acceptedAt: string, sendId: string) => `${acceptedAt}#${sendId}`,
  /** What a block's messages' people answered (decisions §33), beside the block: `REPLY#<first position>`. */
  sendReplies: (first: number) => `REPLY#${String(first).padStart(9, '0')}`,
  /**
   * Meta's template analytics of a WABA's template (issue 56), a day an item (`DAY#<day>`); gsi1 `templateAnalyticsOfWaba`
   * / `<day>#<template>`: a WABA's days across its templates. The WABA's key alone holds the daily reader's state.
   */
  templateAnalytics: (wabaId: string, templateId: string) => `TEMPLATE_ANALYTICS#${wabaId}#${templateId}`,
  templateAnalyticsOfWaba: (wabaId: string) => `TEMPLATE_ANALYTICS#${wabaId}`,
  /**
   * A person's MARKETING messages counted under its client's frequency cap (issue 56): `p:<digits>` or `u:<bsuid>`,
   * each person its own partition, so no send's writes share a key.
   */
  marketingCount: (clientId: number, personKey: string) => `MARKETING_COUNT#${clientId}#${personKey}`,
  /** A template Meta paused or disabled (decisions §25). */
  templatePause: (wabaId: string, templateId: string) => `TEMPLATE_PAUSE#${wabaId}#${templateId}`,
  /** A client's suppression list (decisions §25): one item a phone number, by its digits. */
  suppressions: (clientId: number) => `CLIENT#${clientId}#SUPPRESSIONS`,
  /**
   * A half of a person in the people map (decisions §28): `p:<digits>` or `u:<bsuid>` under its scope (the
   * business portfolio, or `waba:<id>`), each item its own partition so no campaign's statuses share a key.
   */
  identity: (scope: string, half: string) => `IDENTITY#${scope}#${half}`,
  /**
   * A reservation's watch (decisions §30), under one of RESERVATION_WATCH_SHARDS keys chosen by its send, sorted
   * by when it is due: the job reads each shard up to now.
   */
  reservationWatch: (shard: number) => `RESERVATION_WATCH#${String(shard).padStart(2, '0')}`,
  reservationWatchSort: (dueAt: string, sendId: string) => `${dueAt}#${sendId}`,
  /** A client's monthly budget and what the month's accepted sends reserved of it. */
  budgetMonth: (month: string) => `BUDGET#${month}`,
  /**
   * What settled of a client's month (decisions §27): one of BUDGET_SHARDS, spent and released, each shard a
   * partition key of its own (issue 54: under the client's key, a client's ten HIGH numbers put 16,922 units a
   * second on one partition in the simulation), its month the sort key (`budgetMonth`).
   */
  budgetShard: (clientId: number, shard: number) => `BUDGET#${clientId}#${String(shard).padStart(2, '0')}`,
  /** Where a month's settled shards were kept before issue 54: under the client's key. Read, never written. */
  budgetShardBefore54: (month: string, shard: number) => `BUDGET#${month}#${String(shard).padStart(2, '0')}`,
  /** A client's price list (decisions §27), by the day it is in force from: a client's lists sort by date. */
  priceList: (effectiveFrom: string) => `PRICE_LIST#${effectiveFrom}`,
  /** A client's closed statement of a month (decisions §27), kept once at its first read after closing. */
  statement: (month: string) => `STATEMENT#${month}`,
  /** gsi1 of sends: a client's sends by acceptance time. */
  sendOrder: (createdAt: string, sendId: string) => `${createdAt}#${sendId}`,
  /** One (template, client)'s assignment keys; the sort key names the pair, or the placeholder. */
  assignments: (wabaId: string, templateId: string, clientId: number) => `ASSIGNMENT#${wabaId}#${templateId}#${clientId}`,
  /** An assignment slot (domain's assignmentSlot): `<channel>#<campaign>`, `-` for a half that is missing. */
  pair: (slot: string) => `PAIR#${slot}`,
  // Index sort keys.
  /** gsi1 of channels: by client_id (numerically), then wa_id; a client's prefix is `channelOrder(id, '')`. */
  channelOrder: (clientId: number, waId: string) => `${String(clientId).padStart(12, '0')}#${waId}`,
  /** gsi1 of template records: a template's records by client; a client's prefix is `recordOfClient(id, '')`. */
  recordOfClient: (clientId: number, recordId: string) => `CLIENT#${clientId}#${recordId}`,
  /** gsi2 of template records: a client's records in listing order (name, language, WABA, template, record). */
  recordOrder: (name: string, language: string, wabaId: string, templateId: string, recordId: string) =>
    `${name}#${language}#${wabaId}#${templateId}#${recordId}`,
  /** The listing's partition of a client: live or deleted entries (decisions §9). */
  listing: (clientId: number, deleted: boolean) => `LISTING#${clientId}#${deleted ? 'DELETED' : 'LIVE'}`,
  /** A facet partition of the listing: `<listing partition>#<facet>#<value>`. */
  listingFacet: (clientId: number, deleted: boolean, facet: string, value: string) =>
    `LISTING#${clientId}#${deleted ? 'DELETED' : 'LIVE'}#${facet}#${value}`,
  /** The listing's order of a template's entry: name, language, WABA, template. */
  listingOrder: (name: string, language: string, wabaId: string, templateId: string) => `${name}#${language}#${wabaId}#${templateId}`,
  /** The number of entries of a client's listing partition, kept with every entry written or removed. */
  listingCount: (deleted: boolean) => `LISTING_COUNT#${deleted ? 'DELETED' : 'LIVE'}`,
  /** gsi1 of outbox events: by the time they occurred. */
  outboxOrder: (occurredAt: string, eventId: string) => `${occurredAt}#${eventId}`,
} as const;

/** The sort keys of single-item entities and the prefixes of the ones that repeat under a partition. */
export const SORT = {
  client: 'CLIENT',
  waba: 'WABA',
  onboarding: 'ONBOARDING',
  /** A WABA's onboarding to the Marketing Messages API (decisions §28), beside the WABA. */
  mmOnboarding: 'MM_ONBOARDING',
  /** A WABA's billing currency as last learned from Graph (decisions §30), beside the WABA. */
  billingCurrency: 'BILLING_CURRENCY',
  outsideMessage: 'OUTSIDE_MESSAGE',
  channel: 'CHANNEL',
  record: 'RECORD',
  outbox: 'OUTBOX',
  send: 'SEND',
  /** How many queued sends a client has, under the client. */
  sendCount: 'SEND_COUNT',
  budget: 'BUDGET',
  /** The prefix of a client's price lists under the client. */
  priceListPrefix: 'PRICE_LIST#',
  suppressionCount: 'SUPPRESSION_COUNT',
  identity: 'IDENTITY',
  templatePause: 'PAUSE',
  /** A dispatch job asleep on a paused template, under the template's pause: `WAITING#<send id>#<job>`. */
  pausedJobPrefix: 'WAITING#',
  pacing: 'PACING',
  throughput: 'THROUGHPUT',
  /** The days whose pricing_analytics of a WABA could not be read, under its `META_COST#` partition. */
  metaCostUnread: 'READ_FAILED',
  /** The template analytics reader's state of a WABA (confirmed, days unread), under `TEMPLATE_ANALYTICS#<waba>`. */
  templateAnalyticsReader: 'READER_STATE',
  /** A client's frequency cap (issue 56), under the client. */
  frequencyCap: 'FREQUENCY_CAP',
  marketingCount: 'MARKETING_COUNT',
  syncLease: 'SYNC_LEASE',
  syncLastRun: 'SYNC_LAST_RUN',
  webhookConfig: 'WEBHOOK',
  delivery: 'DELIVERY',
  placeholder: 'PAIR#UNASSIGNED',
  /** The version of one client's records of one template, beside their assignment keys. */
  assignmentsVersion: 'VERSION',
  /** A client's WABA memberships sort as `WABA#<id>` under the client. */
  wabaPrefix: 'WABA#',
} as const;

export const CHANNELS_PARTITION = 'CHANNELS';
/** Every client's cost gaps: few (only those above 1 %), read by days across clients (decisions §26). */
export const COST_GAPS_PARTITION = 'COST_GAPS';
/** A send's partitions of blocks and message states, and its count shards (docs/data-model.md). */
export const SEND_PARTS = 16;
export const SEND_COUNT_SHARDS = 32;
/** A WABA's ledger partitions: a day's charges land on one at random, a usage read queries each. */
export const LEDGER_SHARDS = 8;
/** The ledger partition a write adds to: one at random, so a busy number's statuses spread. */
export const randomLedgerShard = () => Math.floor(Math.random() * LEDGER_SHARDS);
/**
 * A client's month's settlement shards, each a partition key: the status path adds to one at random (decisions
 * §27). 32: a client's ten HIGH numbers put 16,922 units a second on its month in the HIGH simulation (issue 54,
 * docs/high-tier.md), about 530 a shard, under a partition's 1,000.
 */
export const BUDGET_SHARDS = 32;
/** The shards a month settled before issue 54 has under the client's key: read, never written. */
export const BUDGET_SHARDS_BEFORE_54 = 8;
/** A client's template figures' partitions (decisions §33): a write adds to one at random; a read queries each. */
export const TEMPLATE_FIGURE_SHARDS = 16;
/** A number's reply index partitions: a send's recipients in one item each (decisions §33). */
export const REPLY_INDEX_BUCKETS = 32;
/** The reservation watches' partitions: a send's watch on one by its id, the job queries each (decisions §30). */
export const RESERVATION_WATCH_SHARDS = 8;
export const OUTBOX_PARTITION = 'OUTBOX';
