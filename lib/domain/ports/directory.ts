import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '../directory.ts';

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
