import { UpstreamUnavailable } from './errors.ts';
import type { DirectoryStore } from './ports.ts';
import type { WabaUpstream } from './ports.ts';
import type { ChannelRecord } from './directory.ts';
import { channelInHierarchy } from './tenancy.ts';

/** What the upstream needs to act for a DID: its WABA, phone number id and template namespace. */
export interface ProviderConfig {
  did: string;
  channel: ChannelRecord;
  wabaId: string;
  phoneNumberId?: string;
  namespace: string;
  country?: string;
}

/**
 * Checks the DID is in the acting client's hierarchy (403 otherwise), then resolves its provider
 * configuration from the directory, asking the upstream for the namespace only when the directory lacks
 * it. The adapters keep what they read of a WABA a minute (the directory's DynamoDirectoryStore, Graph's
 * namespaces); the hierarchy check is never kept.
 */
export async function resolveProvider(
  deps: { directory: DirectoryStore; upstream: WabaUpstream },
  clientId: number,
  did: string,
): Promise<ProviderConfig> {
  const channel = await channelInHierarchy(deps.directory, clientId, did);
  let value: Omit<ProviderConfig, 'channel' | 'did'>;
  try {
    const waba = await deps.directory.getWaba(channel.waba_id);
    let namespace = waba?.namespace;
    namespace ||= await deps.upstream.namespaceOf(channel.waba_id);
    if (!namespace) throw new Error('no namespace');
    value = { wabaId: channel.waba_id, namespace, country: waba?.country };
  } catch {
    throw new UpstreamUnavailable('Provider configuration resolution failed');
  }
  return { did, channel, ...value, phoneNumberId: channel.phone_number_id };
}
