import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/directory.ts';
import type { WebhookConfig } from '#lib/domain/webhook-config.ts';

/** Read side of the directory (decisions §8). */
export interface DirectoryStore {
  getChannel(waId: string): Promise<ChannelRecord | null>;
  /** Channels ordered by client_id then wa_id; one client's when clientId is given. */
  listChannels(clientId?: number): Promise<ChannelRecord[]>;
  clientHasWaba(clientId: number, wabaId: string): Promise<boolean>;
  getWaba(wabaId: string): Promise<Waba | null>;
  getClient(clientId: number): Promise<Client | null>;
  getCampaign(clientId: number, campaignId: number): Promise<Campaign | null>;
  getContactChannel(clientId: number, channelId: number): Promise<ContactChannel | null>;
}

export interface WebhookConfigStore {
  get(clientId: number): Promise<WebhookConfig | null>;
  /** Writes the configuration; creates the signing secret only when none exists yet. */
  put(config: Omit<WebhookConfig, 'signing_secret' | 'created_at' | 'updated_at'>, newSecret: string): Promise<WebhookConfig>;
}
