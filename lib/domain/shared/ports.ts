import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from './directory.ts';
import type { OnboardedNumber, OnboardedWaba, Onboarding } from './onboarding-record.ts';

// The directory (decisions §8): clients, WABAs, numbers, campaigns.

/** Read side of the directory (decisions §8). */
export interface DirectoryStore {
  getChannel(waId: string): Promise<ChannelRecord | null>;
  /** Channels ordered by client_id then wa_id; one client's when clientId is given. */
  listChannels(clientId?: number): Promise<ChannelRecord[]>;
  clientHasWaba(clientId: number, wabaId: string): Promise<boolean>;
  /** The WABAs of a client (those its channel records name). */
  listClientWabas(clientId: number): Promise<string[]>;
  getWaba(wabaId: string): Promise<Waba | null>;
  getClient(clientId: number): Promise<Client | null>;
  getCampaign(clientId: number, campaignId: number): Promise<Campaign | null>;
  getContactChannel(clientId: number, channelId: number): Promise<ContactChannel | null>;
  /** The client's contact channels and campaigns among these ids, in one read (assignment checks). */
  getAssignables(
    clientId: number,
    channelIds: number[],
    campaignIds: number[],
  ): Promise<{ channels: Map<number, ContactChannel>; campaigns: Map<number, Campaign> }>;
  /**
   * The channel of this DID when it is in the client's WABA hierarchy (decisions §1), else null: the DID check
   * in one read.
   */
  channelOfClient(clientId: number, did: string): Promise<ChannelRecord | null>;
}

/**
 * A sending number's throughput level (decisions §19, upstream-facts §6.3): `STANDARD` (80/s), `HIGH` (1,000/s
 * after Meta's upgrade), or `COEXISTENCE` (20/s, a number also in use with the WhatsApp Business app).
 */
export type ThroughputLevel = 'STANDARD' | 'HIGH' | 'COEXISTENCE';

export interface SendingLimits {
  messagingLimit?: number;
  quality?: string;
}

// The Graph API in the domain's words: templates, catalogs, media, messages and prices.

/**
 * The upstream (Meta's Graph API), in the domain's words. Failures are UpstreamUnavailable (no usable answer:
 * network, timeout, 5xx/429 after retries, our credentials refused) or UpstreamRejected (the upstream refused
 * this request) from ./errors.ts.
 */
export interface WabaUpstream {
  /**
   * The WABA's message template namespace, or undefined when the upstream has none. The template and catalog
   * ports say it too: a use case of either resolves its provider with it (provider.ts), no port extending another.
   */
  namespaceOf(wabaId: string): Promise<string | undefined>;
}

/** A queue of jobs for a worker or the dispatch engine. */
export interface JobQueue {
  /**
   * Puts messages on the queue. `group` names whose work they are (the tenant, and its lane: lanes.ts
   * queueGroupOf): a fair queue delivers a quiet group's messages before a noisy group's backlog (decisions §23).
   */
  send(messages: Record<string, unknown>[], group?: string): Promise<void>;
}

/**
 * Embedded Signup's server calls (docs/platform-2027.md §1.3–1.4). The business token each call after the exchange
 * uses is handed in and never kept by the adapter; the credit line is the provider's, with its own token.
 */
export interface OnboardingUpstream {
  exchangeCode(code: string): Promise<string>;
  registerNumber(phoneNumberId: string, pin: string, businessToken: string): Promise<void>;
  subscribeApp(wabaId: string, businessToken: string): Promise<void>;
  providerCreditLine(businessId: string): Promise<string | null>;
  shareCreditLine(creditLineId: string, wabaId: string, currency: string): Promise<string>;
  readWaba(wabaId: string, businessToken: string): Promise<OnboardedWaba>;
  numbersOf(wabaId: string, businessToken: string): Promise<OnboardedNumber[]>;
}

/** An onboarded WABA's templates read into the client's records (the template sync's part for one WABA): how many were seen. */
export interface OnboardedTemplates {
  syncWaba(clientId: number, wabaId: string): Promise<number>;
}

/**
 * Secrets kept the way the service keeps credentials (a WABA's `credentials_ref`: a secret's name): `keep` writes
 * the value under the name (replacing it) and answers the reference; `read` answers it, null when there is none.
 */
export interface SecretVault {
  keep(name: string, value: string): Promise<string>;
  read(ref: string): Promise<string | null>;
}

/** Onboardings by their id (the code's hash): `create` answers false when one exists; `save` is conditioned on `rev`. */
export interface OnboardingStore {
  get(onboardingId: string): Promise<Onboarding | null>;
  create(onboarding: Onboarding): Promise<boolean>;
  /** Writes it with `rev` + 1 when the stored one still has `rev`; false when another write came first. */
  save(onboarding: Onboarding): Promise<boolean>;
}

/** What an onboarding adds to the directory (decisions §8's entries) with the WABA's currency and timezone (§31). */
export interface OnboardedDirectory {
  client: Client;
  waba: Waba;
  channels: ChannelRecord[];
  currency: string;
  timezone_id?: string;
}

/** Adds an onboarded WABA to the directory as the import does: puts by key, so twice adds nothing twice. */
export interface DirectoryWriter {
  addOnboarded(entry: OnboardedDirectory): Promise<void>;
}
