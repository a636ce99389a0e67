import { directoryEntities, parseDirectoryFile, type DirectoryEntities } from '#lib/adapters/directory-file.ts';
import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/shared/directory.ts';
import type { DirectoryStore } from '#lib/domain/shared/ports.ts';
import { copy } from '../copy.ts';

export class MemoryDirectoryStore implements DirectoryStore {
  constructor(private readonly entities: DirectoryEntities) {}

  static fromFile(file: unknown) {
    return new MemoryDirectoryStore(directoryEntities(parseDirectoryFile(file)));
  }

  async getChannel(waId: string) {
    return copy(this.entities.channels.find((c) => c.wa_id === waId) ?? null);
  }
  async listChannels(clientId?: number): Promise<ChannelRecord[]> {
    return copy(
      this.entities.channels
        .filter((c) => clientId === undefined || c.client_id === clientId)
        .sort((a, b) => a.client_id - b.client_id || a.wa_id.localeCompare(b.wa_id)),
    );
  }
  async clientHasWaba(clientId: number, wabaId: string) {
    return this.entities.memberships.some((m) => m.client_id === clientId && m.waba_id === wabaId);
  }
  async listClientWabas(clientId: number) {
    return this.entities.memberships
      .filter((m) => m.client_id === clientId)
      .map((m) => m.waba_id)
      .sort();
  }
  async getWaba(wabaId: string): Promise<Waba | null> {
    return copy(this.entities.wabas.find((w) => w.waba_id === wabaId) ?? null);
  }
  async getClient(clientId: number): Promise<Client | null> {
    return copy(this.entities.clients.find((c) => c.client_id === clientId) ?? null);
  }
  async getCampaign(clientId: number, campaignId: number): Promise<Campaign | null> {
    return copy(this.entities.campaigns.find((c) => c.client_id === clientId && c.campaign_id === campaignId) ?? null);
  }
  async getContactChannel(clientId: number, channelId: number): Promise<ContactChannel | null> {
    return copy(this.entities.contactChannels.find((c) => c.client_id === clientId && c.channel_id === channelId) ?? null);
  }
  async getAssignables(clientId: number, channelIds: number[], campaignIds: number[]) {
    const channels = new Map<number, ContactChannel>();
    const campaigns = new Map<number, Campaign>();
    for (const id of channelIds) {
      const found = await this.getContactChannel(clientId, id);
      if (found) channels.set(id, found);
    }
    for (const id of campaignIds) {
      const found = await this.getCampaign(clientId, id);
      if (found) campaigns.set(id, found);
    }
    return { channels, campaigns };
  }
  async channelOfClient(clientId: number, did: string) {
    const channel = await this.getChannel(did);
    return channel && (await this.clientHasWaba(clientId, channel.waba_id)) ? channel : null;
  }
}
