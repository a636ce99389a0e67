/**
 * The directory (decisions §8): client messaging channels, WABAs, clients, campaigns and contact channels.
 * The service reads it and never creates it through the API; it arrives through the import command, whose
 * file format is lib/adapters/directory-file.ts.
 */
export interface ChannelRecord {
  wa_id: string;
  client_id: number;
  client_name?: string;
  waba_id: string;
  waba_name?: string;
  status?: string;
  business_id?: string;
  business_name?: string;
  current_limit?: string;
  quality_rating?: string;
  phone_id?: string;
  phone_number_id?: string;
  is_on_biz_app?: boolean;
  phone_code?: string;
  phone_number?: string;
  create_at?: string;
  create_by?: string;
  register_at?: string;
  external_webhook?: string;
  deleted?: boolean;
}

export interface Waba {
  waba_id: string;
  waba_name: string;
  business_id: string;
  business_name: string;
  namespace: string;
  /** Where the upstream credentials of this WABA live (a Secrets Manager name in AWS). */
  credentials_ref?: string;
  /** Country of the WABA's numbers, used for the dynamic max price when a create omits it. */
  country?: string;
}

export interface Client {
  client_id: number;
  client_name: string;
  /**
   * The IANA zone its statement months close in (decisions §31), set by BSP_CN for a client whose WABAs' zones
   * differ; without it, its WABAs' (money/statements/billing-zone.ts).
   */
  billing_timezone?: string;
}

export interface Campaign {
  campaign_id: number;
  campaign_name: string;
  client_id: number;
}

/** A contact channel: the channel half of a template assignment. */
export interface ContactChannel {
  channel_id: number;
  name: string;
  did: string;
  type: string;
  waba_id: string;
  client_id: number;
}
